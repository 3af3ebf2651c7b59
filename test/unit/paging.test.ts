/** Cutting pages out of a list (functions/base/schemas/paging.ts), without a network. */
import { describe, expect, it } from 'vitest';

import { eventsHistoryInput } from '../../functions/base/schemas/events-history.js';
import { listOrdersInput, triggeredInput } from '../../functions/base/schemas/input.js';
import { compareIds, decodeCursor, encodeCursor, PAGE_BYTES, pageOf } from '../../functions/base/schemas/paging.js';
import { planListInput } from '../../functions/base/schemas/plans.js';

const items = (ids: string[]) => ids.map((al_id, i) => ({ al_id, n: i }));
const all = <T extends { al_id: string }>(list: T[], name: string, limit: number) => {
  const seen: T[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = pageOf(list, name, { limit, cursor });
    expect(page.orders.length).toBeLessThanOrEqual(limit);
    seen.push(...page.orders);
    cursor = page.nextCursor;
    pages++;
  } while (cursor && pages < 1_000);
  return { seen, pages };
};

describe('pages', () => {
  it('sorts broker ids numerically (shorter first), not as text', () => {
    expect(['100', '99', '1000', '101'].sort(compareIds)).toEqual(['99', '100', '101', '1000']);
  });

  it('lists every item once across pages of any size, and the last page has no cursor', () => {
    const list = items(Array.from({ length: 23 }, (_, i) => String(26112300000 + ((i * 7) % 23))));
    for (const limit of [1, 2, 5, 22, 23, 100]) {
      const { seen, pages } = all(list, 'pending', limit);
      expect(seen.map((x) => x.al_id)).toEqual(list.map((x) => x.al_id).sort(compareIds));
      expect(pages).toBe(Math.max(1, Math.ceil(23 / limit)));
    }
  });

  it('records sharing an al_id (a history may list one twice) are each listed once, even split across pages', () => {
    const list = items(['5', '3', '5', '5', '4', '6']);
    const { seen } = all(list, 'triggered', 2);
    expect(seen.map((x) => `${x.al_id}:${x.n}`)).toEqual(['3:1', '4:4', '5:0', '5:2', '5:3', '6:5']);
  });

  it('without a limit (the watcher), the whole list from the cursor', () => {
    expect(pageOf(items(['2', '1', '3']), 'pending', {}).orders.map((x) => x.al_id)).toEqual(['1', '2', '3']);
  });

  it('a cursor is refused by the other list, and garbage is refused with a sentence', () => {
    const cursor = encodeCursor({ list: 'pending', after: '7', seen: 1 });
    expect(decodeCursor(cursor, 'pending')).toEqual({ list: 'pending', after: '7', seen: 1 });
    expect(decodeCursor(cursor, 'triggered')).toMatch(/another list/);
    expect(decodeCursor('%%%', 'pending')).toMatch(/nextCursor/);
    expect(decodeCursor(Buffer.from('[1,"pending","7",0]').toString('base64url'), 'pending')).toMatch(/not a cursor/);
    expect(decodeCursor(Buffer.from('{"a":1}').toString('base64url'), 'pending')).toMatch(/not a cursor/);
  });

  it('the input schemas: default limit 100, 1..1000, numbers from query strings; a bad cursor names the field', () => {
    expect(listOrdersInput.parse({})).toMatchObject({ limit: 100 });
    expect(triggeredInput.parse({ limit: '1000' })).toMatchObject({ limit: 1000 });
    for (const limit of ['0', '1001', '1.5', 'x', -1]) {
      const result = listOrdersInput.safeParse({ limit });
      expect(result.success, String(limit)).toBe(false);
      expect(result.error!.issues[0]!.path).toEqual(['limit']);
    }
    const bad = triggeredInput.safeParse({ cursor: encodeCursor({ list: 'pending', after: '1', seen: 1 }) });
    expect(bad.error!.issues[0]).toMatchObject({ path: ['cursor'], message: expect.stringContaining('another list') });
  });
});

describe('strict limits and dates', () => {
  it('limit is plain decimal digits or a whole number: 0x10, 1e2, 16.0, " 16" are refused, never read as 16', () => {
    expect(triggeredInput.parse({ limit: '16' }).limit).toBe(16);
    expect(triggeredInput.parse({ limit: 16 }).limit).toBe(16);
    expect(triggeredInput.parse({}).limit).toBe(100);
    for (const limit of ['0x10', '1e2', '16.0', ' 16', '', '0', '1001', '-1', 16.5, 0])
      expect(triggeredInput.safeParse({ limit }).success, String(limit)).toBe(false);
    expect(eventsHistoryInput.safeParse({ limit: '0x10' }).success).toBe(false);
    expect(planListInput.safeParse({ limit: '1e1' }).success).toBe(false);
  });

  it('a page stops before its orders pass PAGE_BYTES, whatever the limit, and the rest follow', () => {
    // 1,000 orders of 10 KB each: 10 MB at the largest limit, more than Lambda can answer.
    const heavy = Array.from({ length: 1_000 }, (_, i) => ({
      al_id: String(26112300000 + i),
      note: 'x'.repeat(10_000),
    }));
    const first = pageOf(heavy, 'pending', { limit: 1_000 });
    const bytes = Buffer.byteLength(JSON.stringify(first.orders));
    expect(bytes).toBeLessThanOrEqual(PAGE_BYTES + 1_000);
    expect(first.orders.length).toBeGreaterThan(300);
    expect(first.nextCursor).toBeDefined();
    const { seen } = all(heavy, 'pending', 1_000);
    expect(seen.map((o) => o.al_id)).toEqual(heavy.map((o) => o.al_id));
    // One order larger than the budget is still listed, alone.
    const huge = [
      { al_id: '1', note: 'x'.repeat(PAGE_BYTES + 1) },
      { al_id: '2', note: '' },
    ];
    expect(pageOf(huge, 'pending', { limit: 10 }).orders.map((o) => o.al_id)).toEqual(['1']);
  });

  it('since is an ISO time of a date that exists: 2026-02-30 is refused, never read as 2 March', () => {
    for (const since of ['2026-11-24', '2026-11-24T09:15:00+05:30', '2026-11-24T03:45:00Z', '2024-02-29T09:15'])
      expect(eventsHistoryInput.safeParse({ since }).success, since).toBe(true);
    for (const since of ['2026-02-30', '2025-02-29', '2026-13-01', '2026-11-24T24:00:00Z', '2026-11-24T09:60', 'today'])
      expect(eventsHistoryInput.safeParse({ since }).success, since).toBe(false);
  });
});
