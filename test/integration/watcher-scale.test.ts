/**
 * The GttWatcher with thousands of pending orders, on loopback: the emulator over HTTP, the real watcher, the real
 * DynamoDB client on dynalite (which enforces DynamoDB's 400 KB item limit, the one the old single-item snapshot
 * hit at about 1,610 orders). Orders placed, cancelled and fired outside the gateway among 3,000 pending ones are
 * each reported once, and a cycle where nothing changed writes no order item.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { GttClient } from '../../client/index.js';
import { EventsTable } from '../../functions/events/core/store.js';
import { LOCAL_EVENTS_TABLE } from '../../local/dynamodb.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { jdata } from '../contract/jdata-client.js';
import { fireOutside, placeOutside as placeOutsideAt } from '../support/outside-orders.js';

const PENDING = 3_000;
let stack: LocalStack;

const placeOutside = (fields: Record<string, unknown> = {}) => placeOutsideAt(stack.emulator, fields);
const cancelOutside = async (alId: string) =>
  expect(
    (await jdata(stack.emulator.url, 'CancelGTTOrder', { uid: stack.emulator.uid, al_id: alId }, stack.emulator.token))
      .body,
  ).toMatchObject({ stat: 'OI deleted' });
const events = () => stack.eventBridge.events;
const typesOf = (alId: string) =>
  events()
    .filter((e) => e.detail.al_id === alId)
    .map((e) => e['detail-type']);

beforeAll(async () => {
  stack = await startLocalStack();
  // 3,000 orders at the broker before the watcher's first run, 25 requests at a time.
  const ids: string[] = [];
  for (let i = 0; i < PENDING; i += 25) {
    ids.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(25, PENDING - i) }, (_, j) => placeOutside({ qty: String(1 + ((i + j) % 50)) })),
      )),
    );
  }
  expect(new Set(ids).size).toBe(PENDING);
});
afterAll(async () => {
  await stack?.close();
});

describe('the watcher with 3,000 pending orders', () => {
  it('takes its baseline as one item per order, then reports each change made outside once, writing only what changed', async () => {
    const baseline = await stack.watch();
    expect(baseline).toMatchObject({ status: 'baseline', published: [], pending: PENDING });
    expect(baseline.dynamo?.itemsWritten).toBe(PENDING);
    const table = new EventsTable({ tableName: LOCAL_EVENTS_TABLE, endpoint: stack.dynamo.url });
    expect(Object.keys((await table.readSnapshot()).state.orders)).toHaveLength(PENDING);
    // The copy of the pending list (GetGTTOrder's answer) is whole after the first run.
    expect(baseline.dynamo?.copiesWritten).toBe(PENDING);

    // A steady cycle: nothing published, no order item written. Counted at the local DynamoDB (the proxy every
    // function's client goes through), not from what the watcher says about itself.
    const callsBefore = stack.dynamo.streams.calls.length;
    const steady = await stack.watch();
    const calls = stack.dynamo.streams.calls.slice(callsBefore).map((c) => `${c.action}Command`);
    // The lease taken and given back, the state read (3,000 items of ~300 bytes: one 1 MB page), and the plans'
    // partition read (empty here: no plan, nothing else), and one read each of the day's limits' and coverage's
    // settings (none set: no positions read).
    expect(calls.sort()).toEqual([
      'GetItemCommand',
      'GetItemCommand',
      'QueryCommand',
      'QueryCommand',
      'UpdateItemCommand',
      'UpdateItemCommand',
    ]);
    expect(steady).toMatchObject({ status: 'ok', published: [], pending: PENDING });
    expect(steady.dynamo?.itemsWritten).toBe(0);
    expect(steady.dynamo?.bytesWritten).toBe(0);
    expect(steady.dynamo?.copiesWritten).toBe(0);

    // Outside the gateway: three placed, two cancelled, two fired; and one cancelled through the gateway.
    const placed = [
      await placeOutside({ tsym: 'WIPRO-EQ' }),
      await placeOutside({ tsym: 'WIPRO-EQ' }),
      await placeOutside({ tsym: 'WIPRO-EQ' }),
    ];
    const pendingNow = await new GttClient({ baseUrl: stack.api.url }).listAllOrders({ limit: 1_000 });
    const bulk = pendingNow.orders.filter((o) => o.tsym === 'TCS-EQ').map((o) => o.al_id);
    const cancelled = [bulk[10]!, bulk[2_000]!];
    for (const alId of cancelled) await cancelOutside(alId);
    const viaGateway = bulk[1_500]!;
    expect((await fetch(`${stack.api.url}/gtt-orders/${viaGateway}`, { method: 'DELETE' })).status).toBe(200);
    const fired = await fireOutside(stack.emulator, 2);

    const runs = [await stack.watch(), await stack.watch(), await stack.watch()];
    for (const run of runs) expect(run.status).toBe('ok');
    for (const alId of placed) expect(typesOf(alId)).toEqual(['GTT Placed']);
    // Each fired GTT's order filled (the sandbox's default): one Order Filled follows.
    for (const alId of fired) expect(typesOf(alId)).toEqual(['GTT Triggered', 'Order Filled']);
    for (const alId of cancelled) expect(typesOf(alId)).toEqual(['GTT Removed']);
    expect(typesOf(viaGateway)).toEqual(['GTT Cancelled']);
    expect(events().find((e) => e.detail.al_id === viaGateway)!.detail).toMatchObject({
      origin: 'gateway',
      tsym: 'TCS-EQ',
    });
    const ids = events().map((e) => String(e.detail.eventId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(events()).toHaveLength(placed.length + 2 * fired.length + cancelled.length + 1); // each fired GTT: Triggered and Order Filled

    // Only changed orders were written: far fewer items than pending orders, in every run.
    for (const run of runs) expect(run.dynamo!.itemsWritten).toBeLessThanOrEqual(12);
    const quiet = await stack.watch();
    expect(quiet).toMatchObject({ status: 'ok', published: [] });
    expect(quiet.dynamo?.itemsWritten).toBe(0);
    const state = (await table.readSnapshot()).state;
    expect(Object.keys(state.orders)).toHaveLength(PENDING + placed.length - cancelled.length - 1);
    for (const alId of [...cancelled, viaGateway, ...fired]) expect(state.orders[alId]).toBeUndefined();
  });
});
