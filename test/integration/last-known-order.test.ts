/**
 * Events carry the order as it was last known, end to end on loopback (the local stack: the handlers, the emulator,
 * dynalite with its stream, the EventForwarder, the watcher): after a modify, the cancel's event describes the
 * modified order, whether or not the watcher ran in between, and in the bus and the history (GET /events) alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { localApi } from '../support/local-api.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let seq = 0;
const key = () => `known-${Date.now()}-${++seq}`;

const call = localApi(() => stack.api.url);
const place = async () => {
  const placed = await call('POST', '/gtt-orders', SAMPLE_ORDER, { 'Idempotency-Key': key() });
  expect(placed.status).toBe(201);
  return String(placed.body.al_id);
};
const modify = async (alId: string) =>
  expect((await call('PUT', `/gtt-orders/${alId}`, { ...SAMPLE_ORDER, qty: 2, d: '1480', prc: '1490' })).status).toBe(
    200,
  );
const cancel = async (alId: string) => expect((await call('DELETE', `/gtt-orders/${alId}`)).status).toBe(200);

const cancelledOnBus = (alId: string) =>
  stack.eventBridge.events.filter((e) => e.detail.al_id === alId && e['detail-type'] === 'GTT Cancelled');
const cancelledInHistory = async (alId: string) => {
  const page = await call('GET', '/events?type=GTT%20Cancelled&limit=100');
  expect(page.status).toBe(200);
  return (page.body.events as { detail: Record<string, unknown> }[]).filter((e) => e.detail.al_id === alId);
};
const MODIFIED = { quantity: 2, trigger: '1480', price: '1490', tsym: SAMPLE_ORDER.tsym, origin: 'gateway' };

beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE });
  expect(await stack.watch()).toMatchObject({ status: 'baseline' });
});
afterAll(() => stack?.close());

describe('the GTT Cancelled event describes the order as it was last known', () => {
  it('place, the watcher sees qty 1, modify to qty 2, cancel: the event says qty 2', async () => {
    const alId = await place();
    await stack.eventsForwarded();
    await stack.watch(); // the watcher's own view of the order: qty 1
    await modify(alId);
    await stack.eventsForwarded();
    await cancel(alId);
    await stack.eventsForwarded();
    const [onBus, ...more] = cancelledOnBus(alId);
    expect(more).toEqual([]);
    expect(onBus?.detail).toMatchObject(MODIFIED);
    const [kept] = await cancelledInHistory(alId);
    expect(kept?.detail).toMatchObject(MODIFIED);
    // The watcher's next run publishes no second end of it.
    await stack.watch();
    expect(cancelledOnBus(alId)).toHaveLength(1);
  });

  it('modify and cancel forwarded together, the watcher never having seen the order: the event says qty 2', async () => {
    const alId = await place();
    await modify(alId);
    await cancel(alId);
    await stack.eventsForwarded();
    expect(cancelledOnBus(alId).map((e) => e.detail)).toEqual([expect.objectContaining(MODIFIED)]);
    expect((await cancelledInHistory(alId)).map((e) => e.detail)).toEqual([expect.objectContaining(MODIFIED)]);
  });

  it('an order the watcher took in its baseline and the gateway never changed: its view completes the cancel', async () => {
    const alId = await place();
    await stack.eventsForwarded();
    await stack.watch();
    await cancel(alId);
    await stack.eventsForwarded();
    expect(cancelledOnBus(alId)[0]?.detail).toMatchObject({ quantity: 1, trigger: SAMPLE_ORDER.d });
  });
});
