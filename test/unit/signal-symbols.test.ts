/**
 * An alert's ticker refused before any broker call (functions/signals/symbols.ts): no ticker, no exchange, an
 * exchange the broker does not trade. The broker deps here fail the test if anything is sent.
 */
import { describe, expect, it } from 'vitest';

import type { BrokerCallDeps } from '../../functions/base/broker/call-broker.js';
import { resolveInstrument } from '../../functions/signals/symbols.js';

const noBroker: BrokerCallDeps = {
  baseUrl: 'http://127.0.0.1:9',
  timeoutMs: () => 100,
  session: () => Promise.reject(new Error('nothing may be sent to the broker')),
  refreshSession: () => Promise.reject(new Error('nothing may be sent to the broker')),
};

describe('resolveInstrument refusals', () => {
  it.each([
    [{}, {}, /names no ticker/],
    [{ ticker: 'INFY' }, {}, /names no exchange for INFY: set order.exch/],
    [{ ticker: 'NYSE:IBM' }, {}, /exchange NYSE is not one the broker trades/],
    [{ ticker: 'INFY', exchange: 'LSE' }, { exch: 'NSE' as const }, /exchange LSE is not one/],
  ])('%j with %j', async (alert, order, message) => {
    await expect(resolveInstrument(alert, order, noBroker)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(message),
    });
  });
});
