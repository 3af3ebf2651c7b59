/**
 * The events of a signal (Signal Received, Acted, Refused): one per signal and kind, its eventId derived from both,
 * so a second delivery of the same completion carries the same id and is recorded once (docs/reference/events.md).
 */
import type { EventDetail, LifecycleEvent, SignalDetailType } from '../base/schemas/events.js';
import type { SignalRecord, Strategy } from '../base/schemas/signals.js';
import { eventIds } from '../events/core/views.js';

export const signalEvent = (
  detailType: SignalDetailType,
  signal: SignalRecord,
  strategy: Pick<Strategy, 'strategyId' | 'name' | 'source' | 'mode'>,
  extra: { code?: string } = {},
  now = new Date(),
): LifecycleEvent => {
  const tickers = [...new Set(signal.alerts.map((a) => a.ticker).filter((t): t is string => t !== undefined))];
  const detail: EventDetail<SignalDetailType> = {
    eventId: eventIds.signal(detailType, signal.signalId),
    observedAt: now.toISOString(),
    origin: 'gateway',
    signalId: signal.signalId,
    strategyId: strategy.strategyId,
    strategyName: strategy.name,
    source: strategy.source,
    mode: strategy.mode,
    ...(tickers.length ? { tickers } : {}),
    ...(detailType === 'Signal Acted' && signal.results ? { results: signal.results } : {}),
    ...(detailType === 'Signal Refused' && signal.reason ? { reason: signal.reason } : {}),
    ...(detailType === 'Signal Refused' && extra.code ? { code: extra.code } : {}),
  };
  return { detailType, detail };
};
