/**
 * The account's events history (GET /events), end to end on loopback: events published by the EventForwarder (the
 * gateway's own orders) and by the watcher (orders placed outside the gateway) are kept once each in the events
 * table and read back oldest first, filtered and paged; bad input is a clear 400; nothing reaches the broker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { createGttClient } from '../../client/index.js';
import { EventsTable } from '../../functions/events/core/store.js';
import { LOCAL_EVENTS_TABLE } from '../../local/dynamodb.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { placeOutside } from '../support/outside-orders.js';
import { SAMPLE_SINGLE_DETAIL } from '../support/sample-events.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;

interface Page {
  events: { detailType: string; publishedAt: string; detail: Record<string, unknown> }[];
  since: string;
  nextCursor?: string;
}

const get = async (query = '') => {
  const res = await fetch(`${stack.api.url}/events${query}`);
  return { status: res.status, body: (await res.json()) as Page & { error?: { code: string; message: string } } };
};
const all = async (query: string): Promise<Page['events']> => {
  const seen: Page['events'] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const res = await get(`?${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    seen.push(...res.body.events);
    cursor = res.body.nextCursor;
    if (!cursor) return seen;
  }
  throw new Error('more than 50 pages');
};

let gatewayId = '';
let outsideId = '';

beforeAll(async () => {
  stack = await startLocalStack();
  control = emulatorControl(stack.emulator.url);
  expect(await stack.watch()).toMatchObject({ status: 'baseline' });
  const placed = await fetch(`${stack.api.url}/gtt-orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': 'history-1' },
    body: JSON.stringify({ ...SAMPLE_ORDER, tag: 'history' }),
  });
  gatewayId = String(((await placed.json()) as { al_id: string }).al_id);
  await stack.eventsForwarded();
  outsideId = await placeOutside(stack.emulator);
  await stack.watch();
  expect((await fetch(`${stack.api.url}/gtt-orders/${gatewayId}`, { method: 'DELETE' })).status).toBe(200);
  await stack.eventsForwarded();
  await stack.watch();
});
afterAll(() => stack.close());

describe('GET /events', () => {
  it("lists today's events once each, oldest first, from both producers, with what the bus carried", async () => {
    const { status, body } = await get();
    expect(status).toBe(200);
    const mine = body.events.filter((e) => e.detail.al_id === gatewayId || e.detail.al_id === outsideId);
    expect(mine.map((e) => [e.detailType, e.detail.al_id, e.detail.origin])).toEqual([
      ['GTT Placed', gatewayId, 'gateway'],
      ['GTT Placed', outsideId, 'watcher'],
      ['GTT Cancelled', gatewayId, 'gateway'],
    ]);
    expect(mine[0]!.detail).toMatchObject({ tag: 'history', tsym: SAMPLE_ORDER.tsym });
    const ids = body.events.map((e) => e.detail.eventId);
    expect(new Set(ids).size).toBe(ids.length);
    // What the bus received is what the history keeps (same eventIds).
    const onBus = stack.eventBridge.events
      .filter((e) => e.detail.al_id === gatewayId || e.detail.al_id === outsideId)
      .map((e) => e.detail.eventId);
    expect(mine.map((e) => e.detail.eventId).sort()).toEqual([...onBus].sort());
    const times = body.events.map((e) => e.publishedAt);
    expect([...times].sort()).toEqual(times);
  });

  it('an event both producers publish (the outbox and the watcher, at once or one after the other) is listed once', async () => {
    const table = new EventsTable({
      tableName: LOCAL_EVENTS_TABLE,
      endpoint: stack.watcherEnv.DYNAMODB_ENDPOINT,
    });
    const event = (
      eventId: string,
      origin: 'gateway' | 'watcher',
      al_id = eventId.startsWith('ab') ? '26120600000777' : '26120600000778',
    ) => ({
      source: 'gtt-gateway',
      detailType: 'GTT Placed' as const,
      detail: { ...SAMPLE_SINGLE_DETAIL, eventId, origin, al_id },
    });
    const together = 'ab'.repeat(16);
    const apart = 'cd'.repeat(16);
    await Promise.all([
      table.markPublished([event(together, 'gateway')], Date.now()),
      table.markPublished([event(together, 'watcher')], Date.now() + 1),
    ]);
    await table.markPublished([event(apart, 'watcher')], Date.now());
    await table.markPublished([event(apart, 'gateway')], Date.now() + 5);
    const listed = (await all('')).filter((e) => [together, apart].includes(String(e.detail.eventId)));
    expect(listed.map((e) => e.detail.eventId)).toEqual([together, apart]);
    // The first producer's record is kept.
    expect(listed[1]!.detail.origin).toBe('watcher');
    expect(await table.publishedAmong([together, apart])).toEqual(new Set([together, apart]));
  });

  it('filters by detail-type and by since', async () => {
    const cancelled = await get('?type=GTT%20Cancelled');
    expect(cancelled.body.events.map((e) => e.detail.al_id)).toEqual([gatewayId]);
    const later = await get(`?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(later.body.events).toEqual([]);
    const earlier = await get('?since=2026-01-01T00:00:00%2B05:30');
    expect(earlier.body.since).toBe('2025-12-31T18:30:00.000Z');
    expect(earlier.body.events.length).toBeGreaterThanOrEqual(3);
  });

  it('pages of one list every event once, also with a filter', async () => {
    const whole = (await get('?limit=1000')).body.events.map((e) => e.detail.eventId);
    expect((await all('limit=1')).map((e) => e.detail.eventId)).toEqual(whole);
    expect((await all('limit=2')).map((e) => e.detail.eventId)).toEqual(whole);
    const placed = (await all('limit=1&type=GTT%20Placed')).map((e) => e.detail.al_id);
    expect(placed).toEqual(expect.arrayContaining([gatewayId, outsideId]));
    expect(new Set(placed).size).toBe(placed.length);
  });

  it('bad input is a 400 naming the field, and nothing reaches the broker', async () => {
    await control.clearRequests();
    const cases: [string, string][] = [
      ['?since=yesterday', 'since'],
      ['?type=GTT%20Exploded', 'type'],
      ['?limit=0', 'limit'],
      ['?limit=abc', 'limit'],
      ['?cursor=not*a*cursor', 'cursor'],
      ['?cursor=bm90LWEtY3Vyc29y', 'cursor'],
      ['?colour=blue', 'colour'],
    ];
    for (const [query, field] of cases) {
      const res = await get(query);
      expect(res.status, query).toBe(400);
      expect(res.body.error?.code, query).toBe('VALIDATION_FAILED');
      expect(res.body.error?.message, query).toContain(field);
    }
    // A cursor of a page read from a later `since` does not continue an earlier one.
    const first = await get('?limit=1&since=2026-01-01T00:00:00Z');
    expect(first.body.nextCursor).toBeDefined();
    const mixed = await get(`?cursor=${first.body.nextCursor}&since=${encodeURIComponent(new Date().toISOString())}`);
    expect(mixed.status).toBe(400);
    // Nor with an earlier `since`, nor with another `type`: a cursor continues only the listing it was made for.
    const earlier = await get(`?cursor=${first.body.nextCursor}&since=2025-12-01T00:00:00Z`);
    expect(earlier.status).toBe(400);
    const typed = await get(`?cursor=${first.body.nextCursor}&since=2026-01-01T00:00:00Z&type=GTT%20Placed`);
    expect(typed.status).toBe(400);
    // With the same since, or none, it goes on.
    expect((await get(`?cursor=${first.body.nextCursor}&since=2026-01-01T00:00:00Z`)).status).toBe(200);
    expect((await get(`?cursor=${first.body.nextCursor}`)).status).toBe(200);
    expect(await control.requests()).toEqual([]);
  });

  it('the typed client follows pages; the command line prints one line per event and names a bad flag', async () => {
    const client = createGttClient({ baseUrl: stack.api.url });
    const paged = await client.allEvents({ limit: 1 });
    expect(paged.events.map((e) => e.detail.eventId)).toEqual(
      (await get('?limit=1000')).body.events.map((e) => e.detail.eventId),
    );
    expect(paged.nextCursor).toBeUndefined();
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
    const gtt = (...args: string[]) => main([...args, '--url', stack.api.url], {}, io);
    expect(await gtt('events', '--type', 'GTT Cancelled')).toBe(0);
    expect(out.pop()).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\+05:30 {2}GTT Cancelled {4}al_id=${gatewayId} {2}NSE:M&M-EQ .*\\(gateway\\)$`,
      ),
    );
    expect(await gtt('events', '--since', 'tomorrow')).toBe(2);
    expect(out.pop()).toMatch(/since/);
  });
});
