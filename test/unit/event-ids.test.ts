/**
 * The stable ids of the events that are not an order's, in one catalogue (functions/events/core/views.ts `eventIds`).
 * A consumer deduplicates on the id across deployments and versions, so each is pinned to the value it had when each
 * feature derived it in its own file: a change of formula would publish one change twice.
 */
import { describe, expect, it } from 'vitest';

import type { SignalRecord } from '../../functions/base/schemas/signals.js';
import { eventIds } from '../../functions/events/core/views.js';
import { signalEvent } from '../../functions/signals/events.js';

const signal: SignalRecord = {
  signalId: 'sg123',
  strategyId: 'st0123456789abcdef',
  receivedAt: '2026-01-05T09:15:00.000Z',
  state: 'acted',
  alerts: [{ ticker: 'INFY' }],
  preview: '{}',
};
const strategy = { strategyId: 'st0123456789abcdef', name: 'breakout', source: 'tradingview', mode: 'paper' } as const;

describe('the stable ids of signal and assistant events', () => {
  it('keep the values they had: one per signal and kind, one per assistant, request and tool', () => {
    expect(eventIds.signal('Signal Acted', 'sg123')).toBe('5e3424870c857d42b5d4f9dd6173cdde');
    expect(eventIds.assistantAction('as1', 'req-1', 'place_gtt')).toBe('38aa11a2c6db1cba8671e991077481e8');
    expect(eventIds.signal('Signal Received', 'sg123')).not.toBe(eventIds.signal('Signal Acted', 'sg123'));
    expect(eventIds.assistantAction('as1', 'req-1', 'place_gtt')).not.toBe(
      eventIds.assistantAction('as1', 'req-2', 'place_gtt'),
    );
  });

  it("a signal's event carries the catalogue's id, the same for a second delivery of one completion", () => {
    const first = signalEvent('Signal Acted', signal, strategy, {}, new Date('2026-01-05T09:15:01Z'));
    const again = signalEvent('Signal Acted', signal, strategy, {}, new Date('2026-01-05T09:20:00Z'));
    expect(first.detail.eventId).toBe('5e3424870c857d42b5d4f9dd6173cdde');
    expect(again.detail.eventId).toBe(first.detail.eventId);
  });
});
