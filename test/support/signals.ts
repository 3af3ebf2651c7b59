/**
 * A strategy and a signal as the store holds them, for tests of the part that acts (functions/signals/act.ts):
 * the strategy through its own input schema (defaults filled), fresh ids each time.
 */
import { randomBytes } from 'node:crypto';

import { type Alert, type SignalRecord, type Strategy, strategyInput } from '../../functions/base/schemas/signals.js';

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
