/**
 * The transactional outbox, end to end on loopback: the order functions write each event into DynamoDB with the
 * write that records the success, and the EventForwarder publishes it from the table's stream (dynalite behind the
 * local stream proxy, the local PutEvents endpoint). DynamoDB calls are counted at the proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEventPublisher } from '../../functions/base/aws/publisher.js';
import { environmentOf } from '../../functions/base/runtime/env.js';
import { forwardRecords, type OutboxRecord } from '../../functions/events/core/forwarder.js';
import { EventsTable } from '../../functions/events/core/store.js';
import { LOCAL_CONTROL_TABLE, LOCAL_EVENTS_TABLE } from '../../local/dynamodb.js';
import type { DynamoCall, StreamRecord } from '../../local/dynamodb-streams.js';
import { LOCAL_EVENT_BUS, type LocalStack, startLocalStack } from '../../local/run-local.js';
import { placeOutside } from '../support/outside-orders.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let refuseForwarder = 0;

const post = async (path: string, body: unknown, key?: string) => {
  const res = await fetch(`${stack.api.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'Idempotency-Key': key } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
/** The order path's DynamoDB calls since `from`, as round trips: calls that ran side by side, sorted within each. */
const onPath = (from: number) =>
  stack.dynamo.streams.calls
    .slice(from)
    .filter((c) => c.tables.some((t) => t === stack.dynamo.tableName || t === LOCAL_CONTROL_TABLE));
const rounds = (calls: DynamoCall[]): string[][] => {
  const out: { names: string[]; endsAt: number }[] = [];
  for (const call of [...calls].sort((a, b) => a.startedAt - b.startedAt)) {
    const last = out[out.length - 1];
    const name = `${call.action} ${call.tables[0]}`;
    const endsAt = call.endedAt ?? Number.POSITIVE_INFINITY;
    // A call that started before every call of the round so far had answered ran beside them.
    if (last && call.startedAt < last.endsAt) {
      last.names.push(name);
      last.endsAt = Math.max(last.endsAt, endsAt);
    } else out.push({ names: [name], endsAt });
  }
  return out.map((round) => round.names.sort());
};
const events = (alId: string) => stack.eventBridge.events.filter((e) => e.detail.al_id === alId);

beforeAll(async () => {
  stack = await startLocalStack({
    // The governor on (its calls are counted here) at rates this file's quick succession of orders stays under.
    settings: environmentOf({ orderRatePerSecond: 100, orderRatePerMinute: 6_000 }),
    forwarder: {
      maxAttempts: 3,
      // In front of the real publisher: refuses while `refuseForwarder` says so, as a failing EventBridge would.
      publisher: (config) => {
        const real = createEventPublisher({ busName: config.eventBusName, endpoint: config.eventbridgeEndpoint });
        return {
          publish: async (list, timeoutMs) => {
            if (refuseForwarder > 0) {
              refuseForwarder--;
              return { published: [], failed: list.map((e) => ({ eventId: e.detail.eventId, reason: 'refused' })) };
            }
            return real.publish(list, timeoutMs);
          },
        };
      },
    },
  });
  expect(await stack.watch()).toMatchObject({ status: 'baseline' });
});
afterAll(() => stack.close());

describe('the order path with the outbox', () => {
  it('a warm place is four DynamoDB calls in two round trips (key claimed with the permit; kill switch read with the completing write) and no EventBridge call', async () => {
    expect((await post('/gtt-orders', SAMPLE_ORDER, 'warm-up')).status).toBe(201);
    await stack.eventsForwarded();
    const callsBefore = stack.dynamo.streams.calls.length;
    const eventsBefore = stack.eventBridge.events.length;
    const placed = await post('/gtt-orders', { ...SAMPLE_ORDER, qty: 2 }, 'counted');
    expect(placed.status).toBe(201);
    expect(rounds(onPath(callsBefore))).toEqual([
      // The key claimed and the governor's permit, side by side.
      [`PutItem ${LOCAL_CONTROL_TABLE}`, `PutItem ${stack.dynamo.tableName}`],
      // The record completed with its event, and: did the kill switch go on while the order was on its way?
      [`GetItem ${LOCAL_CONTROL_TABLE}`, `UpdateItem ${stack.dynamo.tableName}`],
    ]);
    // The reply did not wait for the event; the forwarder publishes it, once.
    await stack.eventsForwarded();
    expect(stack.eventBridge.events.length).toBe(eventsBefore + 1);
    expect(events(String(placed.body.al_id)).map((e) => [e['detail-type'], e.detail.origin])).toEqual([
      ['GTT Placed', 'gateway'],
    ]);
    // A replay writes nothing to its record and queues nothing; the permit asked for alongside its claim is spent.
    const callsAtReplay = stack.dynamo.streams.calls.length;
    expect((await post('/gtt-orders', { ...SAMPLE_ORDER, qty: 2 }, 'counted')).body).toMatchObject({
      idempotency: { replayed: true },
    });
    await stack.eventsForwarded();
    expect(rounds(onPath(callsAtReplay))).toEqual([
      [`PutItem ${LOCAL_CONTROL_TABLE}`, `PutItem ${stack.dynamo.tableName}`],
    ]);
    expect(events(String(placed.body.al_id))).toHaveLength(1);
  });

  it('a warm modify and cancel with keys: lease, claim and permit in one round trip; record and lease in the next', async () => {
    const modify = (alId: string, key: string) =>
      fetch(`${stack.api.url}/gtt-orders/${alId}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify({ ...SAMPLE_ORDER, qty: 7 }),
      });
    const cancel = (alId: string, key: string) =>
      fetch(`${stack.api.url}/gtt-orders/${alId}`, { method: 'DELETE', headers: { 'Idempotency-Key': key } });
    // Warm containers that took the last permit themselves: a permit after another container's is a second write (the
    // first one's failure carries the item: governor-calls.test.ts), and each function is a container of its own.
    const first = String((await post('/gtt-orders', { ...SAMPLE_ORDER, qty: 6 }, 'to-warm')).body.al_id);
    const alId = String((await post('/gtt-orders', { ...SAMPLE_ORDER, qty: 6 }, 'to-change')).body.al_id);
    expect((await modify(first, 'modify-warm')).status).toBe(200);
    const callsBefore = stack.dynamo.streams.calls.length;
    expect((await modify(alId, 'modify-counted')).status).toBe(200);
    expect(rounds(onPath(callsBefore))).toEqual([
      [`PutItem ${LOCAL_CONTROL_TABLE}`, `PutItem ${LOCAL_CONTROL_TABLE}`, `PutItem ${stack.dynamo.tableName}`],
      // The order carries its place's stamp, which this modify replaces: where it went is recorded before the send
      // (docs/explanation/order-safety.md, "A stamp across changes"), and under this modify's own stamp, what it saw.
      [`PutItem ${stack.dynamo.tableName}`, `UpdateItem ${stack.dynamo.tableName}`],
      // The lease given back lapses in place (it keeps when the change ended: orders/lease.ts).
      [`GetItem ${LOCAL_CONTROL_TABLE}`, `UpdateItem ${LOCAL_CONTROL_TABLE}`, `UpdateItem ${stack.dynamo.tableName}`],
    ]);
    expect((await cancel(first, 'cancel-warm')).status).toBe(200);
    const callsAtCancel = stack.dynamo.streams.calls.length;
    const counted = await cancel(alId, 'cancel-counted');
    expect(counted.status, await counted.clone().text()).toBe(200);
    // A cancel is never refused by the kill switch, so there is nothing to read after it.
    expect(rounds(onPath(callsAtCancel))).toEqual([
      [`PutItem ${LOCAL_CONTROL_TABLE}`, `PutItem ${LOCAL_CONTROL_TABLE}`, `PutItem ${stack.dynamo.tableName}`],
      [`UpdateItem ${LOCAL_CONTROL_TABLE}`, `UpdateItem ${stack.dynamo.tableName}`],
    ]);
  });

  it('a cancel without a key puts one outbox item; its event arrives described from the watcher view', async () => {
    const placed = await post('/gtt-orders', { ...SAMPLE_ORDER, qty: 3 }, 'to-cancel');
    const alId = String(placed.body.al_id);
    await stack.watch();
    const res = await fetch(`${stack.api.url}/gtt-orders/${alId}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    await stack.eventsForwarded();
    expect(events(alId).find((e) => e['detail-type'] === 'GTT Cancelled')?.detail).toMatchObject({
      al_id: alId,
      tsym: SAMPLE_ORDER.tsym,
      quantity: 3,
      origin: 'gateway',
    });
    expect((await stack.watch()).published).toEqual([]);
  });

  it('a publish that fails after the broker success: the record is delivered again and the event arrives once', async () => {
    refuseForwarder = 2;
    const placed = await post('/gtt-orders', { ...SAMPLE_ORDER, qty: 4 }, 'refused-twice');
    expect(placed.status).toBe(201);
    await stack.eventsForwarded();
    expect(refuseForwarder).toBe(0);
    expect(events(String(placed.body.al_id)).map((e) => e['detail-type'])).toEqual(['GTT Placed']);
    expect((await stack.watch()).published).toEqual([]);
  });

  it('a forwarder that gives up: the watcher publishes the change on its next run, once', async () => {
    refuseForwarder = 3;
    const placed = await post('/gtt-orders', { ...SAMPLE_ORDER, qty: 5 }, 'given-up');
    await stack.eventsForwarded();
    const alId = String(placed.body.al_id);
    expect(events(alId)).toEqual([]);
    expect((await stack.watch()).published).toEqual([{ detailType: 'GTT Placed', eventId: expect.any(String) }]);
    expect(events(alId).map((e) => e.detail.origin)).toEqual(['watcher']);
  });
});

describe('the forwarder', () => {
  it('a record delivered twice, or already published by the watcher, is published once', async () => {
    // The same record again, as a redelivery would bring it: read back from the table as the stream carries it.
    const records: StreamRecord[] = [];
    stack.dynamo.streams.subscribe({
      table: stack.dynamo.tableName,
      handler: async (batch) => void records.push(...batch.Records),
    });
    const placed = await post('/gtt-orders', { ...SAMPLE_ORDER, qty: 7 }, 'twice');
    await stack.eventsForwarded();
    const alId = String(placed.body.al_id);
    expect(events(alId)).toHaveLength(1);
    const completed = records.filter((r) => r.dynamodb.NewImage?.status?.S === 'COMPLETED') as OutboxRecord[];
    expect(completed).toHaveLength(1);
    const deps = {
      publisher: createEventPublisher({ busName: LOCAL_EVENT_BUS, endpoint: stack.eventBridge.url }),
      table: new EventsTable({ tableName: LOCAL_EVENTS_TABLE, endpoint: stack.dynamo.url }),
    };
    const again = await forwardRecords([...completed, ...completed], deps);
    expect(again).toMatchObject({ published: 0, skipped: 2, batchItemFailures: [] });
    expect(events(alId)).toHaveLength(1);
  });
});

describe('an outbox that cannot be written', () => {
  it('does not fail the order: the cancel answers 200 and the watcher publishes the change', async () => {
    // The cancel function's DynamoDB is unreachable (a closed port); no governor and no key, so only the outbox
    // write needs it. The watcher and the forwarder keep the working table.
    const broken = await startLocalStack({
      governor: false,
      overrides: { CancelGTTOrder: { DYNAMODB_ENDPOINT: 'http://127.0.0.1:9' } },
    });
    try {
      expect(await broken.watch()).toMatchObject({ status: 'baseline' });
      // Placed at the broker directly (a place needs an Idempotency-Key, hence the table); the watcher sees it.
      const alId = await placeOutside(broken.emulator, {}, broken.emulator.token);
      await broken.watch();
      const cancelled = await fetch(`${broken.api.url}/gtt-orders/${alId}`, { method: 'DELETE' });
      expect(cancelled.status).toBe(200);
      await broken.eventsForwarded();
      expect(broken.eventBridge.events.filter((e) => e['detail-type'] === 'GTT Cancelled')).toEqual([]);
      for (let run = 0; run < 3; run++) await broken.watch();
      const ends = broken.eventBridge.events.filter(
        (e) => e.detail.al_id === alId && e['detail-type'] !== 'GTT Placed',
      );
      expect(ends.map((e) => [e['detail-type'], e.detail.origin])).toEqual([['GTT Removed', 'watcher']]);
    } finally {
      await broken.close();
    }
  });
});
