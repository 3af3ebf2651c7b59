/**
 * Lifecycle events from the order functions, end to end on loopback: the real handlers against the emulator, the
 * real EventBridge client publishing to the local PutEvents endpoint, the real DynamoDB client on dynalite. The
 * gateway publishes after a broker success (through its outbox, even when EventBridge refuses or never answers), and
 * the watcher does not publish the same change again. Each test starts from a fresh stack, takes the watcher's
 * baseline, and counts events by eventId.
 */
import http from 'node:http';

import { beforeEach, describe, expect, it } from 'vitest';

import { orderEventIds } from '../../functions/events/core/views.js';
import { listenOnLoopback } from '../../local/loopback.js';
import { LOCAL_EVENT_BUS, type LocalStack, startLocalStack } from '../../local/run-local.js';
import { OCO, ORDER, useEventsStack } from '../support/events-stack.js';

const ev = useEventsStack();
const { api, nextKey, place, events, of } = ev;
let stack: LocalStack;
beforeEach(() => {
  ({ stack } = ev.current());
});

describe('the gateway publishes after a broker success', () => {
  it('a place gives one GTT Placed (origin gateway), which the watcher does not publish again; a replay and a dry run give none', async () => {
    const res = await api('POST', '/gtt-orders', { ...ORDER, tag: 'dip-buy' }, { 'Idempotency-Key': 'once' });
    const alId = String(res.body.al_id);
    expect(of(alId)).toHaveLength(1);
    expect(of(alId)[0]).toMatchObject({
      'detail-type': 'GTT Placed',
      source: 'gtt-gateway',
      detail: {
        al_id: alId,
        type: 'single',
        exch: 'NSE',
        tsym: 'M&M-EQ',
        side: 'B',
        trigger: '1490',
        quantity: 1,
        price: '1500',
        tag: 'dip-buy',
        origin: 'gateway',
      },
    });
    expect(
      (await api('POST', '/gtt-orders', { ...ORDER, tag: 'dip-buy' }, { 'Idempotency-Key': 'once' })).body,
    ).toMatchObject({ idempotency: { replayed: true } });
    expect((await api('POST', '/gtt-orders?dryRun=true', ORDER)).status).toBe(200);
    const run = await stack.watch();
    expect(run).toMatchObject({ status: 'ok', published: [], skipped: 1 });
    expect(events()).toHaveLength(1);
  });

  it('modify and cancel give GTT Modified and GTT Cancelled (described from the snapshot); the watcher adds nothing', async () => {
    const alId = await place();
    await stack.watch();
    const modified = await api('PUT', `/gtt-orders/${alId}`, { ...ORDER, d: '1480', prc: '1490.00' });
    expect(modified.status).toBe(200);
    expect(of(alId, 'GTT Modified')).toHaveLength(1);
    expect(of(alId, 'GTT Modified')[0]!.detail).toMatchObject({ trigger: '1480', origin: 'gateway' });
    expect((await stack.watch()).published).toEqual([]);

    expect((await api('DELETE', `/gtt-orders/${alId}`)).status).toBe(200);
    expect(of(alId, 'GTT Cancelled')).toHaveLength(1);
    expect(of(alId, 'GTT Cancelled')[0]!.detail).toMatchObject({
      al_id: alId,
      exch: 'NSE',
      tsym: 'M&M-EQ',
      trigger: '1480',
      origin: 'gateway',
    });
    for (let i = 0; i < 3; i++) expect((await stack.watch()).published).toEqual([]);
    expect(of(alId)).toHaveLength(3);
  });

  it('ids name the deployment and the account; a product-only or trigger-price-only modify is a GTT Modified the watcher agrees on', async () => {
    const alId = await place();
    const ids = orderEventIds({ deployment: LOCAL_EVENT_BUS, uid: stack.emulator.uid, actid: stack.emulator.actid });
    expect(of(alId, 'GTT Placed')[0]!.detail.eventId).toBe(ids.placed(alId));
    await stack.watch();
    expect((await api('PUT', `/gtt-orders/${alId}`, { ...ORDER, prd: 'M' })).status).toBe(200);
    expect(of(alId, 'GTT Modified')).toHaveLength(1);
    expect(of(alId, 'GTT Modified')[0]!.detail).toMatchObject({ product: 'M', origin: 'gateway' });
    expect((await stack.watch()).published).toEqual([]);

    const ocoWithStop = {
      ...OCO,
      stopLoss: {
        trigger: '1400',
        order: { trantype: 'S', prctyp: 'SL-LMT', prd: 'C', ret: 'DAY', qty: 2, prc: '1395', trgprc: '1400' },
      },
    };
    const placed = await api('POST', '/gtt-orders/oco', ocoWithStop, { 'Idempotency-Key': nextKey() });
    const ocoId = String(placed.body.al_id);
    await stack.watch();
    const changed = {
      ...ocoWithStop,
      stopLoss: { ...ocoWithStop.stopLoss, order: { ...ocoWithStop.stopLoss.order, trgprc: '1401' } },
    };
    expect((await api('PUT', `/gtt-orders/oco/${ocoId}`, changed)).status).toBe(200);
    expect(of(ocoId, 'GTT Modified')).toHaveLength(1);
    expect(of(ocoId, 'GTT Modified')[0]!.detail).toMatchObject({ stopLoss: { triggerPrice: '1401', product: 'C' } });
    expect((await stack.watch()).published).toEqual([]);
  });

  it('a publish refused by EventBridge after the broker success does not fail the order: the forwarder publishes it again, once', async () => {
    stack.eventBridge.refuseNext(1);
    const alId = await place();
    expect(of(alId)).toHaveLength(1);
    expect(of(alId, 'GTT Placed')[0]!.detail.origin).toBe('gateway');
    expect((await stack.watch()).published).toEqual([]);
  });
});

describe('an EventBridge that never answers the order functions', () => {
  it('does not hold the order: the place answers 201 without calling it, and the outbox publishes the change', async () => {
    const silent = http.createServer(() => undefined);
    const listening = await listenOnLoopback(silent);
    const hanging = await startLocalStack({ settings: { EVENTBRIDGE_ENDPOINT: listening.url } });
    try {
      expect(await hanging.watch()).toMatchObject({ status: 'baseline' });
      const res = await fetch(`${hanging.api.url}/gtt-orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Idempotency-Key': 'hang-1' },
        body: JSON.stringify(ORDER),
      });
      expect(res.status).toBe(201);
      const alId = String(((await res.json()) as { al_id: string }).al_id);
      // The order's function never called EventBridge: its event went to the outbox, and the forwarder (on the
      // working endpoint) published it.
      await hanging.eventsForwarded();
      expect(hanging.eventBridge.events.map((e) => [e['detail-type'], e.detail.al_id, e.detail.origin])).toEqual([
        ['GTT Placed', alId, 'gateway'],
      ]);
      expect((await hanging.watch()).published).toEqual([]);
    } finally {
      await hanging.close();
      await listening.close();
    }
  });
});
