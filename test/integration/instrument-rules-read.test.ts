/**
 * The order path's read of today's rules (functions/orders/instruments/rules.ts) against the emulator over loopback, with a
 * copy whose DynamoDB cannot be reached: the broker is read instead (the order is not refused for it), the failure is
 * reported for the log, and a failed read keeps nothing, so the next check reads again.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { clearInstrumentCache } from '../../functions/base/broker/instruments.js';
import { clearMarketCache } from '../../functions/base/broker/market.js';
import { InstrumentCopy } from '../../functions/orders/instruments/copy.js';
import { clearDayRules, todaysRules } from '../../functions/orders/instruments/rules.js';
import { useEmulator } from '../support/emulator-fixture.js';

const emu = useEmulator({ token: 'rules-read-token-1' });

const deps = () => {
  const session = { uid: emu().uid, actid: emu().actid, accessToken: emu().token };
  return {
    baseUrl: `${emu().url}/NorenWClientTP`,
    timeoutMs: () => 2_000,
    session: async () => session,
    refreshSession: async () => session,
  };
};

beforeEach(() => {
  clearDayRules();
  clearInstrumentCache();
  clearMarketCache();
});

describe("today's rules when the copy cannot be reached", () => {
  it('reads the broker, reports the copy read and write that failed, and keeps the rules in the container', async () => {
    // Nothing listens on port 9 of the loopback: every DynamoDB call is refused at once.
    const copy = new InstrumentCopy({ tableName: 'unreachable', endpoint: 'http://127.0.0.1:9' });
    const failures: string[] = [];
    const rules = await todaysRules('NSE', 'INFY-EQ', deps(), {
      copy,
      onCopyError: (_error, what) => failures.push(what),
    });
    expect(rules).toMatchObject({
      tick: '0.05',
      lot: 1,
      precision: 2,
      source: { via: 'broker', instrument: 'SearchScrip' },
    });
    expect(failures).toEqual(['read', 'write']);
    const again = await todaysRules('NSE', 'INFY-EQ', deps(), { copy, onCopyError: (_e, what) => failures.push(what) });
    expect(again.source.via).toBe('container');
    expect(failures).toHaveLength(2);
  });

  it('a broker read that fails keeps nothing: the next check reads again and succeeds', async () => {
    await emu().control.fault({ operation: 'GetSecurityInfo', kind: 'http5xx' });
    await expect(todaysRules('NSE', 'INFY-EQ', deps())).rejects.toMatchObject({
      code: 'BROKER_UNAVAILABLE',
      outcome: 'not_executed',
    });
    await emu().control.clearFaults();
    clearInstrumentCache();
    clearMarketCache();
    expect((await todaysRules('NSE', 'INFY-EQ', deps())).source.via).toBe('broker');
  });
});
