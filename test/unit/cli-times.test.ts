/**
 * The CLI's times (client/cli/render.ts): every time it prints is India time with its offset, whether the API's ISO
 * time in UTC or the broker's own formats; `--since 10:50` is today at 10:50 India time. And a refused choice's
 * message lists every choice, never cut off (functions/base/contract/validate-input.ts).
 */
import { describe, expect, it } from 'vitest';

import { istTime, sinceOf } from '../../client/cli/render.js';
import { validateInput } from '../../functions/base/contract/validate-input.js';
import { DETAIL_TYPES } from '../../functions/base/schemas/event-types.js';
import { eventsHistoryInput } from '../../functions/base/schemas/events-history.js';

describe('India time on every line', () => {
  it.each([
    ['2026-11-27T05:21:02.114Z', '2026-11-27 10:51:02 +05:30'],
    ['2026-11-27T20:00:00Z', '2026-11-28 01:30:00 +05:30'],
    ['2026-11-27T10:51:02+05:30', '2026-11-27 10:51:02 +05:30'],
    ['10:51:02 27-11-2026', '2026-11-27 10:51:02 +05:30'],
    ['27-11-2026 10:51:02', '2026-11-27 10:51:02 +05:30'],
    ['not a time', 'not a time'],
    [undefined, ''],
  ])('%s is shown as %s', (value, shown) => {
    expect(istTime(value)).toBe(shown);
  });
});

describe('--since as a trader types it', () => {
  // 05:00 UTC is 10:30 in India; 20:00 UTC is already the next day there.
  const morning = new Date('2026-11-27T05:00:00Z');
  const lateEvening = new Date('2026-11-27T20:00:00Z');

  it.each([
    ['10:50', morning, '2026-11-27T10:50:00+05:30'],
    ['9:15', morning, '2026-11-27T09:15:00+05:30'],
    ['09:15:30', morning, '2026-11-27T09:15:30+05:30'],
    ['10:50', lateEvening, '2026-11-28T10:50:00+05:30'],
    ['2026-11-24', morning, '2026-11-24T00:00:00+05:30'],
    ['2026-11-24T09:15:00Z', morning, '2026-11-24T09:15:00Z'],
    ['25:00', morning, '25:00'],
  ])('%s (at %s) is %s', (text, now, since) => {
    expect(sinceOf(text, now)).toBe(since);
  });

  it('what it makes is a time the API takes', () => {
    expect(validateInput(eventsHistoryInput, { since: sinceOf('10:50') })).toMatchObject({ since: expect.any(String) });
  });
});

describe('a refused choice lists every choice', () => {
  it('an unknown event type is answered with all the detail-types, the last one included', () => {
    let message = '';
    try {
      validateInput(eventsHistoryInput, { type: 'GTT Fired' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(DETAIL_TYPES.join(', '));
    expect(message).not.toContain('…');
  });
});
