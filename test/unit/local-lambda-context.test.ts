/**
 * The local stand-in gives each function the time its manifest entry gives it deployed: the InstrumentRefresh, which
 * loads every master and chain, its 300 s, not the 15 s of a request (a loaded machine's refresh took over 15 s and
 * failed whole with a TimeoutError before this); a function with no timeout of its own gets the local default.
 */
import { describe, expect, it } from 'vitest';

import { FUNCTIONS } from '../../functions/manifest/index.js';
import { lambdaContext, LOCAL_DEFAULT_TIMEOUT_MS } from '../../local/lambda-context.js';

describe('the local Lambda context', () => {
  it("counts down from each function's manifest timeout", () => {
    const own = FUNCTIONS.filter((f) => f.bundle.timeoutSeconds !== undefined);
    expect(own.map((f) => f.name)).toContain('InstrumentRefresh');
    for (const f of own) {
      const left = lambdaContext(f.name).getRemainingTimeInMillis();
      expect(left, f.name).toBeLessThanOrEqual(f.bundle.timeoutSeconds! * 1_000);
      expect(left, f.name).toBeGreaterThan(f.bundle.timeoutSeconds! * 1_000 - 5_000);
    }
    expect(lambdaContext('InstrumentRefresh').getRemainingTimeInMillis()).toBeGreaterThan(LOCAL_DEFAULT_TIMEOUT_MS);
  });

  it('gives a function without one, or an unknown name, the local default; an explicit time wins', () => {
    const plain = FUNCTIONS.find((f) => f.bundle.timeoutSeconds === undefined)!;
    expect(lambdaContext(plain.name).getRemainingTimeInMillis()).toBeGreaterThan(LOCAL_DEFAULT_TIMEOUT_MS - 5_000);
    expect(lambdaContext(plain.name).getRemainingTimeInMillis()).toBeLessThanOrEqual(LOCAL_DEFAULT_TIMEOUT_MS);
    expect(lambdaContext('NoSuchFunction').getRemainingTimeInMillis()).toBeLessThanOrEqual(LOCAL_DEFAULT_TIMEOUT_MS);
    expect(lambdaContext('InstrumentRefresh', 1_000).getRemainingTimeInMillis()).toBeLessThanOrEqual(1_000);
  });
});
