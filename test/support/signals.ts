/**
 * A strategy and a signal as the store holds them, for tests of the part that acts (functions/signals/actor-wiring.ts):
 * the strategy through its own input schema (defaults filled), fresh ids each time; a strategy's input as the API
 * takes it.
 */
import { randomBytes } from 'node:crypto';

import { type Alert, type SignalRecord, type Strategy, strategyInput } from '../../functions/base/schemas/signals.js';

/** A TradingView strategy that places a GTT at the alert's price, as `POST /strategies` takes it (a name to add). */
export const GTT_STRATEGY_INPUT = {
  source: 'tradingview',
  action: {
    kind: 'gtt',
    order: { exch: 'NSE', prd: 'C', qty: 1 },
    trigger: { offset: '0' },
    price: { offset: '0' },
  },
} as const;

export const testStrategy = (input: Record<string, unknown>): Strategy => ({
  ...strategyInput.parse({ name: 'test', source: 'tradingview', ...input }),
  strategyId: `st${randomBytes(8).toString('hex')}`,
  createdAt: new Date().toISOString(),
  tokenSetAt: new Date().toISOString(),
});

export const testSignal = (strategy: Strategy, alerts: Alert[]): SignalRecord => ({
  signalId: `sg${randomBytes(12).toString('hex')}`,
  strategyId: strategy.strategyId,
  receivedAt: new Date().toISOString(),
  state: 'received',
  alerts,
  preview: '{}',
});
