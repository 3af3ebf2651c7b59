/**
 * Paged lists on loopback: the real handlers behind the local HTTP API and direct invocation (`/_invoke`), the
 * emulator over HTTP, the generated client and the CLI. A page sequence lists every order once, in al_id order, with
 * bounded pages, also when orders are placed or cancelled between pages; a bad cursor or limit is a 400 naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { GttClient } from '../../client/index.js';
import { dropPageSnapshots } from '../../functions/base/broker/page-snapshots.js';
import { compareIds, MAX_PAGE_LIMIT } from '../../functions/base/schemas/paging.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { jdata } from '../contract/jdata-client.js';
import { fireOutside, placeOutside as placeOutsideAt } from '../support/outside-orders.js';

let stack: LocalStack;
type Page = { orders: { al_id: string; tsym: string }[]; nextCursor?: string };

const placeOutside = (fields: Record<string, unknown> = {}) => placeOutsideAt(stack.emulator, fields);
const get = async (path: string) => {
  const res = await fetch(`${stack.api.url}${path}`);
  return {
    status: res.status,
    body: (await res.json()) as Page & { error?: { code: string; details?: { field: string; message: string }[] } },
  };
};
const invoke = async (operation: string, payload: unknown) => {
  const res = await fetch(`${stack.api.url}/_invoke/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  return (await res.json()) as Page & { errorMessage?: string };
};
const ids = (orders: { al_id: string }[]) => orders.map((o) => o.al_id);
const sorted = (list: string[]) => [...list].sort(compareIds);

const ALL = 230;
let placed: string[] = [];

beforeAll(async () => {
  stack = await startLocalStack();
  for (let i = 0; i < ALL; i += 23)
    placed.push(
      ...(await Promise.all(
        Array.from({ length: 23 }, (_, j) => placeOutside({ tsym: (i + j) % 2 ? 'TCS-EQ' : 'INFY-EQ' })),
      )),
    );
});
afterAll(async () => {
  await stack?.close();
});

describe('GET /gtt-orders pages', () => {
  it('default page of 100, nextCursor while more remain; the sequence lists every order once in al_id order', async () => {
    const pages: Page[] = [];
    let path = '/gtt-orders';
    for (;;) {
      const res = await get(path);
      expect(res.status).toBe(200);
      pages.push(res.body);
      if (!res.body.nextCursor) break;
      path = `/gtt-orders?cursor=${encodeURIComponent(res.body.nextCursor)}`;
    }
    expect(pages.map((p) => p.orders.length)).toEqual([100, 100, 30]);
    expect(pages.at(-1)).not.toHaveProperty('nextCursor');
    const listed = pages.flatMap((p) => ids(p.orders));
    expect(listed).toEqual(sorted(placed));
  });

  it('with a filter and a limit; orders cancelled and placed between pages: the walk shows its first read, a new walk the changes', async () => {
    const first = await get('/gtt-orders?tsym=TCS-EQ&limit=40');
    expect(first.body.orders).toHaveLength(40);
    expect(first.body.orders.every((o) => o.tsym === 'TCS-EQ')).toBe(true);
    const tcs = sorted(placed.filter((_, i) => i % 2 === 1));
    // Between pages: one order not yet listed is cancelled, one already listed is cancelled, a new one is placed.
    const notYet = tcs[60]!;
    const already = tcs[5]!;
    for (const alId of [notYet, already])
      await jdata(stack.emulator.url, 'CancelGTTOrder', { uid: stack.emulator.uid, al_id: alId }, stack.emulator.token);
    const fresh = await placeOutside();
    const walkOn = async (cursor: string | undefined, between = () => {}) => {
      const rest: string[] = [];
      while (cursor) {
        between();
        const page = await get(`/gtt-orders?tsym=TCS-EQ&limit=40&cursor=${encodeURIComponent(cursor)}`);
        expect(page.body.orders.length).toBeLessThanOrEqual(40);
        rest.push(...ids(page.body.orders));
        cursor = page.body.nextCursor;
      }
      return [...ids(first.body.orders), ...rest];
    };
    // The walk's later pages are cut from the list its first page read (page-snapshots.ts): as it was then.
    expect(await walkOn(first.body.nextCursor)).toEqual(tcs);
    // A page on a container without that snapshot reads the broker: none twice, every one that stayed, the new one.
    const reread = await walkOn(first.body.nextCursor, dropPageSnapshots);
    expect(new Set(reread).size).toBe(reread.length);
    expect(reread).not.toContain(notYet);
    expect(reread).toContain(already); // listed on the first page, before it was cancelled
    expect(reread.at(-1)).toBe(fresh);
    expect(reread).toEqual(sorted([...tcs.filter((id) => id !== notYet), fresh]));
    placed = placed.filter((id) => id !== notYet && id !== already).concat(fresh);
    // A new walk reads the broker again.
    const again = await get('/gtt-orders?tsym=TCS-EQ&limit=1000');
    expect(ids(again.body.orders)).toEqual(sorted(placed.filter((id) => tcs.includes(id) || id === fresh)));
  });

  it('direct invocation takes the same fields', async () => {
    const first = await invoke('GetPendingGTTOrder', { limit: 7 });
    expect(first.orders).toHaveLength(7);
    const second = await invoke('GetPendingGTTOrder', { limit: 7, cursor: first.nextCursor });
    expect(ids(second.orders)).toEqual(sorted(placed).slice(7, 14));
    const bad = await invoke('GetPendingGTTOrder', { cursor: 'nope' });
    expect(JSON.parse(bad.errorMessage!)).toMatchObject({
      error: { code: 'VALIDATION_FAILED', details: [{ field: 'cursor' }] },
    });
  });

  it.each([
    ['cursor=%21%21', 'cursor'],
    ['cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ['limit=0', 'limit'],
    [`limit=${MAX_PAGE_LIMIT + 1}`, 'limit'],
    ['limit=ten', 'limit'],
    ['limit=2.5', 'limit'],
  ])('?%s: 400 VALIDATION_FAILED naming %s', async (query, field) => {
    const res = await get(`/gtt-orders?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field, message: expect.stringContaining(field) }],
    });
  });

  it('a cursor of the pending list is refused by the triggered history, and the other way round', async () => {
    const pendingCursor = (await get('/gtt-orders?limit=1')).body.nextCursor!;
    const res = await get(`/gtt-orders/triggered?cursor=${encodeURIComponent(pendingCursor)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'cursor', message: expect.stringContaining('another list') }],
    });
  });
});

describe('the triggered history pages', () => {
  it('limit and cursor; every fired order once', async () => {
    const fired = await fireOutside(stack.emulator, 3);
    const first = await get('/gtt-orders/triggered?limit=2');
    expect(first.body.orders).toHaveLength(2);
    const second = await get(`/gtt-orders/triggered?limit=2&cursor=${encodeURIComponent(first.body.nextCursor!)}`);
    expect(second.body).not.toHaveProperty('nextCursor');
    expect([...ids(first.body.orders), ...ids(second.body.orders)]).toEqual(expect.arrayContaining(fired));
  });
});

describe('the client and the CLI follow pages', () => {
  it('listAllOrders and list --all give every order; list --limit prints where the next page starts', async () => {
    const client = new GttClient({ baseUrl: stack.api.url });
    const all = await client.listAllOrders({ limit: 50 });
    expect(ids(all.orders)).toEqual(sorted(placed));
    expect(all).not.toHaveProperty('nextCursor');

    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
    expect(await main(['list', '--all', '--limit', '60', '--json', '--url', stack.api.url], {}, io)).toBe(0);
    expect(ids((JSON.parse(out.join('')) as Page).orders)).toEqual(sorted(placed));
    out.length = 0;
    expect(await main(['list', '--limit', '3', '--url', stack.api.url], {}, io)).toBe(0);
    expect(out.join('\n')).toMatch(/more: --cursor [A-Za-z0-9_-]+ \(or --all\)/);
    out.length = 0;
    expect(await main(['list', '--all', '--cursor', 'x', '--url', stack.api.url], {}, io)).not.toBe(0);
    expect(out.join('\n')).toContain('--all starts from the first page');
  });
});
