/**
 * `npm start` and the symbol list: by default the sandbox refuses a symbol no exchange lists, as the broker does
 * (test/e2e/cli.test.ts: `RELIANCE` exits 2 naming `RELIANCE-EQ`); `npm start -- --any-symbol` takes any symbol
 * and says so in its banner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Started, startNpmStart } from '../support/processes.js';

let started: Started;

beforeAll(async () => {
  started = await startNpmStart(['--watch-interval', '0', '--any-symbol']);
});
afterAll(async () => {
  await started?.stop();
});

describe('npm start -- --any-symbol', () => {
  it('says so in the banner and takes an unlisted symbol', async () => {
    expect(started.output()).toMatch(/^symbols\s+any \(--any-symbol\)$/m);
    const res = await fetch(`${started.match[1]!}/gtt-orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'any-symbol-1' },
      body: JSON.stringify({
        exch: 'NSE',
        tsym: 'NOSUCH-EQ',
        qty: 1,
        prc: '10',
        prd: 'C',
        trantype: 'B',
        prctyp: 'LMT',
        ret: 'DAY',
        ai_t: 'LTP_B_O',
        d: '9',
      }),
    });
    expect(res.status).toBe(201);
  });
});
