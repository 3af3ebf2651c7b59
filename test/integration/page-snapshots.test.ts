/**
 * A walk of the pending list reads the broker once (functions/base/broker/page-snapshots.ts): the broker layer's
 * `sendOnce` against the emulator over loopback HTTP. A walk's pages are the pages a walk that re-reads the broker
 * for every page gives of the same list, at every limit and filter, streamed (a long list) or parsed whole (a short
 * one); they show the list as the first page read it, with its `asOf`; and a page whose snapshot this container
 * does not hold (forgotten, expired, another session, an old cursor) reads the broker and goes on from there, with
 * nothing listed twice.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import { sendOnce } from '../../functions/base/broker/call-broker.js';
import { dropPageSnapshots, heldSnapshots, SNAPSHOT_TTL_MS } from '../../functions/base/broker/page-snapshots.js';
import { listOrdersInput, triggeredInput } from '../../functions/base/schemas/input.js';
import { compareIds, decodeCursor, encodeCursor } from '../../functions/base/schemas/paging.js';
import { getPendingGttOrders, getTriggeredGttOrders } from '../../functions/orders/operations.js';
import { jdata } from '../contract/jdata-client.js';
import { placeOutside } from '../support/outside-orders.js';
import { wireGtt } from '../support/wire-order.js';

type Page = { orders: { al_id: string; tsym: string }[]; nextCursor?: string; asOf?: string };

let emulator: RunningEmulator;
const session = () => ({ uid: emulator.uid, actid: emulator.actid, accessToken: emulator.token });
const deps = () => ({ baseUrl: emulator.url, timeoutMs: () => 10_000 });
const listReads = () => emulator.emulator.requestLog().filter((r) => r.operation === 'GetPendingGTTOrder').length;

const page = async (query: Record<string, string>, who = session()) =>
  (await sendOnce(getPendingGttOrders, listOrdersInput.parse(query), who, deps())) as Page;

/** Every page from the first; `fresh`: each page reads the broker (no snapshot held), as before snapshots. */
const walk = async (query: Record<string, string>, fresh = false) => {
  const pages: Page[] = [];
  let cursor: string | undefined;
  do {
    if (fresh) dropPageSnapshots();
    const got = await page({ ...query, ...(cursor ? { cursor } : {}) });
    pages.push(got);
    cursor = got.nextCursor;
  } while (cursor);
  return pages;
};
const idsOf = (pages: Page[]) => pages.flatMap((p) => p.orders.map((o) => o.al_id));
const withoutCursors = (pages: Page[]) => pages.map(({ orders }) => orders);

beforeAll(async () => {
  emulator = await startEmulator();
  for (let i = 0; i < 60; i += 12)
    await Promise.all(
      Array.from({ length: 12 }, (_, j) => placeOutside(emulator, { tsym: (i + j) % 3 ? 'TCS-EQ' : 'INFY-EQ' })),
    );
});
afterAll(async () => {
  await emulator?.close();
});
afterEach(() => {
  vi.useRealTimers();
  dropPageSnapshots();
});

describe('a walk of the pending list', () => {
  it('reads the broker once and gives the pages a walk re-reading every page gives, at every limit and filter', async () => {
    const queries: Record<string, string>[] = [
      { limit: '7' },
      { limit: '1' },
      { limit: '8', tsym: 'INFY-EQ' },
      { limit: '4', exch: 'NSE' },
    ];
    for (const query of queries) {
      const before = listReads();
      const held = await walk(query);
      expect(listReads() - before).toBe(1);
      const reread = await walk(query, true);
      expect(listReads() - before).toBe(1 + reread.length);
      expect(withoutCursors(held)).toEqual(withoutCursors(reread));
      expect(held.length).toBeGreaterThan(1);
      const ids = idsOf(held);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual([...ids].sort(compareIds));
      // Every page says when the broker's list was read: the first page's read.
      expect(new Set(held.map((p) => p.asOf)).size).toBe(1);
      expect(Date.parse(held[0]!.asOf!)).toBeGreaterThan(Date.now() - 60_000);
    }
  });

  it('streams a long list into its snapshot as it does a short one parsed whole', async () => {
    const seeded = await fetch(`${emulator.url}/_emulator/seed-gtts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        uid: emulator.uid,
        count: 900,
        order: wireGtt({ tsym: 'TCS-EQ', qty: '3', prc: '4000', d: '3990' }, emulator),
      }),
    });
    expect(seeded.status).toBe(201);
    const before = listReads();
    const held = await walk({ limit: '100' });
    expect(listReads() - before).toBe(1);
    expect(heldSnapshots().bytes).toBeGreaterThan(192 * 1024); // past the size a list is parsed whole at
    expect(withoutCursors(held)).toEqual(withoutCursors(await walk({ limit: '100' }, true)));
    expect(idsOf(held)).toHaveLength(960);
  });

  it('shows the list as its first page read it; a new walk, or a page without the snapshot, reads the broker', async () => {
    const all = idsOf(await walk({ limit: '100' }, true));
    const first = await page({ limit: '10' });
    const before = idsOf([first]);
    const ahead = all[30]!; // not yet listed by the walk
    const fresh = await placeOutside(emulator, {});
    await jdata(emulator.url, 'CancelGTTOrder', { uid: emulator.uid, al_id: ahead }, emulator.token);
    // The walk goes on in its snapshot: the cancelled order is listed, the new one is not.
    const second = await page({ limit: '10', cursor: first.nextCursor! });
    expect(second.asOf).toBe(first.asOf);
    const rest: Page[] = [second];
    for (let cursor = second.nextCursor; cursor; cursor = rest.at(-1)!.nextCursor)
      rest.push(await page({ limit: '10', cursor }));
    const walked = [...before, ...idsOf(rest)];
    expect(walked).toEqual(all);
    expect(walked).toContain(ahead);
    expect(walked).not.toContain(fresh);
    // Without the snapshot (another container), the same cursor reads the broker: the cancel and the new order show.
    dropPageSnapshots();
    const reread = [...before];
    for (let cursor = first.nextCursor; cursor;) {
      const got = await page({ limit: '10', cursor });
      expect(got.asOf).not.toBe(first.asOf);
      reread.push(...idsOf([got]));
      cursor = got.nextCursor;
    }
    expect(reread).toEqual([...all.filter((id) => id !== ahead), fresh]);
  });

  it('reads the broker when the snapshot is too old, of another session, unknown, or the cursor an old one', async () => {
    const first = await page({ limit: '5' });
    const position = decodeCursor(first.nextCursor!, 'pending');
    if (typeof position === 'string') throw new Error(position);
    expect(position.snapshot).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const reads = listReads();
    await page({ limit: '5', cursor: first.nextCursor! });
    expect(listReads()).toBe(reads);
    // A cursor without a snapshot (written before snapshots existed) and one of a snapshot this container never held.
    const old = encodeCursor({ list: 'pending', after: position.after, seen: position.seen });
    const unknown = encodeCursor({ ...position, snapshot: 'AAAAAAAAAAAAAAAA' });
    const byOld = await page({ limit: '5', cursor: old });
    const byUnknown = await page({ limit: '5', cursor: unknown });
    expect(listReads()).toBe(reads + 2);
    expect(byOld.orders).toEqual(byUnknown.orders);
    // Another session of the same account (a rotated token) does not read this session's snapshot.
    await page({ limit: '5', cursor: first.nextCursor! }, { ...session(), accessToken: `${emulator.token}x` }).catch(
      () => undefined, // the emulator refuses the unknown token: what matters is that the broker was asked
    );
    expect(listReads()).toBe(reads + 3);
    // Past its time a snapshot is dropped: the page reads the broker, and its cursor names a new snapshot.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + SNAPSHOT_TTL_MS + 1);
    const late = await page({ limit: '5', cursor: first.nextCursor! });
    expect(listReads()).toBe(reads + 4);
    expect(late.orders).toEqual((await page({ limit: '5', cursor: old })).orders);
    const next = decodeCursor(late.nextCursor!, 'pending');
    expect(typeof next !== 'string' && next.snapshot).not.toBe(position.snapshot);
  });

  it('keeps no snapshot for a list of one page, nor for the whole-list reads of the GttWatcher', async () => {
    const one = await page({ limit: '1000' });
    expect(one.nextCursor).toBeUndefined();
    await sendOnce(getPendingGttOrders, {}, session(), deps());
    expect(heldSnapshots().count).toBe(0);
  });

  it('a walk of the triggered history reads its list once too', async () => {
    const reads = () => emulator.emulator.requestLog().filter((r) => r.operation === 'GetTrgOi').length;
    const before = reads();
    const first = (await sendOnce(
      getTriggeredGttOrders,
      triggeredInput.parse({ limit: '1' }),
      session(),
      deps(),
    )) as Page;
    expect(first.asOf).toBeDefined();
    expect(reads() - before).toBe(1);
  });
});
