/**
 * Lifecycle events, end to end on loopback: the real handlers and the real GttWatcher against the emulator, the
 * real EventBridge client publishing to the local PutEvents endpoint, the real DynamoDB client on dynalite.
 * Each test starts from a fresh stack, takes the watcher's baseline, and counts events by eventId.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { EventsTable } from '../../functions/events/store.js';
import { orderEventIds } from '../../functions/events/views.js';
import { logger } from '../../functions/runtime/logger.js';
import { dynamoDbClient } from '../../functions/safety/dynamodb-client.js';
import { DETAIL_TYPES } from '../../functions/schemas/events.js';
import { createSessionRenewal } from '../../functions/session/totp-login.js';
import { LOCAL_EVENTS_TABLE } from '../../local/dynamodb.js';
import type { DeliveredEvent } from '../../local/eventbridge.js';
import { listenOnLoopback } from '../../local/loopback.js';
import { LOCAL_EVENT_BUS, type LocalStack, startLocalStack } from '../../local/run-local.js';
import { jdata } from '../contract/jdata-client.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { placeOutside as placeOutsideAt } from '../support/outside-orders.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let token: string;

const ORDER = SAMPLE_ORDER;
const OCO = {
  exch: 'NSE',
  tsym: 'INFY-EQ',
  validity: 'GTT',
  target: { trigger: '1700', order: { trantype: 'S', prctyp: 'LMT', prd: 'C', ret: 'DAY', qty: 2, prc: '1700' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', prd: 'C', ret: 'DAY', qty: 2, prc: '1400' } },
  tag: 'swing-exit',
};

const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${stack.api.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const reply = { status: res.status, body: (await res.json()) as Record<string, unknown> };
  // The reply does not wait for the event (the outbox's forwarder publishes it off the request path): the tests
  // look at the bus once the stream was delivered.
  await stack.eventsForwarded();
  return reply;
};
let keys = 0;
const place = async (order: object = ORDER) => {
  const res = await api('POST', '/gtt-orders', order, { 'Idempotency-Key': `k-${++keys}` });
  expect(res.status).toBe(201);
  return String(res.body.al_id);
};
/** An order placed outside the gateway (the broker's app): straight to the emulator. */
const placeOutside = (fields: Record<string, unknown> = {}) => placeOutsideAt(stack.emulator, fields, token);
const ltp = (exch: string, tsym: string, value: number) => control.ltp(exch, tsym, value);

const nextOrder = (outcome: Record<string, unknown>) =>
  fetch(`${stack.emulator.url}/_emulator/next-order`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(outcome),
  });
const events = (type?: string): DeliveredEvent[] =>
  stack.eventBridge.events.filter((e) => type === undefined || e['detail-type'] === type);
const of = (alId: string, type?: string) => events(type).filter((e) => e.detail.al_id === alId);
/** No eventId was published twice. */
const expectNoDuplicates = () => {
  const ids = events().map((e) => String(e.detail.eventId));
  expect(new Set(ids).size).toBe(ids.length);
};

/**
 * The TOTP renewal (QuickAuth) writes a jKey session; this stack's functions send it as Bearer, so the emulator is
 * told to take it that way here: these tests are about the events, not the token's style.
 */
const renewWithTotp = async () => {
  await control.switches({ acceptJKeyTokenAsBearer: true });
  await createSessionRenewal({ env: { ...stack.sessionEnv, BROKER_AUTH: 'jkey' }, logger })();
};

beforeEach(async () => {
  // The governor at its highest rate: the detail-type test sends a kill switch sweep and plans within a second.
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE });
  control = emulatorControl(stack.emulator.url);
  token = stack.emulator.token;
  expect(await stack.watch()).toMatchObject({ status: 'baseline', published: [] });
});
afterEach(async () => {
  expectNoDuplicates();
  await stack.close();
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
    const placed = await api('POST', '/gtt-orders/oco', ocoWithStop, { 'Idempotency-Key': `k-${++keys}` });
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

describe('the watcher', () => {
  it("a crashed run's lease expires: the next run is turned away only until then", async () => {
    const table = new EventsTable({ tableName: LOCAL_EVENTS_TABLE, endpoint: stack.dynamo.url });
    expect(await table.acquireLease('crashed-run', 300)).toBeDefined();
    const alId = await placeOutside();
    expect(await stack.watch()).toMatchObject({ status: 'busy', published: [] });
    await new Promise((r) => setTimeout(r, 400));
    expect(await stack.watch()).toMatchObject({ status: 'ok', published: [{ detailType: 'GTT Placed' }] });
    expect(of(alId)).toHaveLength(1);
  });

  it('an order placed outside the gateway gives one GTT Placed', async () => {
    const alId = await placeOutside();
    expect((await stack.watch()).published).toHaveLength(1);
    expect(of(alId)).toEqual([
      expect.objectContaining({
        'detail-type': 'GTT Placed',
        detail: expect.objectContaining({ al_id: alId, tsym: 'TCS-EQ', quantity: 3, origin: 'watcher' }),
      }),
    ]);
    expect((await stack.watch()).published).toEqual([]);
  });

  it('a single order that fires gives one GTT Triggered, with when', async () => {
    const alId = await place();
    await ltp('NSE', 'M&M-EQ', 1485);
    await stack.watch();
    await stack.watch();
    expect(of(alId, 'GTT Triggered')).toHaveLength(1);
    expect(of(alId, 'GTT Triggered')[0]!.detail).toMatchObject({
      al_id: alId,
      status: 'TRIGGERED',
      triggeredAt: expect.stringMatching(/^\d{2}:\d{2}:\d{2} \d{2}-\d{2}-\d{4}$/),
      origin: 'watcher',
    });
    // A single order has no legs: no firedLeg, in the event or in the triggered list.
    expect(of(alId, 'GTT Triggered')[0]!.detail).not.toHaveProperty('firedLeg');
    const listed = (await api('GET', '/gtt-orders/triggered')).body as {
      orders: { al_id: string; firedLeg?: string }[];
    };
    expect(listed.orders.find((o) => o.al_id === alId)).not.toHaveProperty('firedLeg');
  });

  it('each OCO leg that fires gives one GTT Triggered naming the leg', async () => {
    const first = String((await api('POST', '/gtt-orders/oco', OCO, { 'Idempotency-Key': 'oco-1' })).body.al_id);
    const second = String(
      (await api('POST', '/gtt-orders/oco', { ...OCO, tsym: 'WIPRO-EQ' }, { 'Idempotency-Key': 'oco-2' })).body.al_id,
    );
    await stack.watch();
    await ltp('NSE', 'INFY-EQ', 1500);
    await ltp('NSE', 'INFY-EQ', 1710);
    await ltp('NSE', 'WIPRO-EQ', 1500);
    await ltp('NSE', 'WIPRO-EQ', 1390);
    await stack.watch();
    await stack.watch();
    expect(of(first, 'GTT Triggered').map((e) => e.detail.firedLeg)).toEqual(['target']);
    expect(of(second, 'GTT Triggered').map((e) => e.detail.firedLeg)).toEqual(['stopLoss']);
    expect(of(first, 'GTT Placed')[0]!.detail).toMatchObject({
      type: 'oco',
      target: { trigger: '1700', quantity: 2 },
      stopLoss: { trigger: '1400' },
      tag: 'swing-exit',
    });
  });

  it('an order that fires between two runs, never seen pending, still gives one GTT Triggered', async () => {
    const alId = await placeOutside();
    await ltp('NSE', 'TCS-EQ', 3980);
    await stack.watch();
    expect(of(alId).map((e) => e['detail-type'])).toEqual(['GTT Triggered', 'Order Filled']);
  });

  it('a change made outside: modified gives GTT Modified; cancelled is GTT Removed once it stays gone', async () => {
    const alId = await placeOutside();
    await stack.watch();
    const modify = await jdata(
      stack.emulator.url,
      'ModifyGTTOrder',
      {
        uid: stack.emulator.uid,
        actid: stack.emulator.actid,
        exch: 'NSE',
        tsym: 'TCS-EQ',
        al_id: alId,
        ai_t: 'LTP_B_O',
        validity: 'GTT',
        d: '3950',
        trantype: 'B',
        prctyp: 'LMT',
        prd: 'C',
        ret: 'DAY',
        qty: '3',
        prc: '4000',
      },
      token,
    );
    expect(modify.body).toMatchObject({ stat: 'OI replaced' });
    await stack.watch();
    expect(of(alId, 'GTT Modified').map((e) => e.detail.trigger)).toEqual(['3950']);
    expect(
      (await jdata(stack.emulator.url, 'CancelGTTOrder', { uid: stack.emulator.uid, al_id: alId }, token)).body,
    ).toMatchObject({ stat: 'OI deleted' });
    expect((await stack.watch()).published).toEqual([]);
    expect((await stack.watch()).published).toEqual([{ detailType: 'GTT Removed', eventId: expect.any(String) }]);
    expect((await stack.watch()).published).toEqual([]);
  });

  it('two overlapping runs publish each change once', async () => {
    const ids = [await placeOutside(), await placeOutside({ tsym: 'SBIN-EQ' })];
    // The first run holds the lease while the broker is slow; the second arrives meanwhile.
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'delay', delayMs: 600, times: 1 });
    const runs = await Promise.all([stack.watch(), new Promise((r) => setTimeout(r, 100)).then(() => stack.watch())]);
    expect(runs.map((r) => r.status).sort()).toEqual(['busy', 'ok']);
    for (const alId of ids) expect(of(alId, 'GTT Placed')).toHaveLength(1);
    expect((await stack.watch()).published).toEqual([]);
  });

  it('a refused publish is published on the next run, and what was accepted is not published again', async () => {
    const ids = [await placeOutside(), await placeOutside({ tsym: 'SBIN-EQ' })];
    stack.eventBridge.refuseNext(1);
    await expect(stack.watch()).rejects.toThrow(/1 of 2 events were not published/);
    expect(events('GTT Placed')).toHaveLength(1);
    const next = await stack.watch();
    expect(next.published).toHaveLength(1);
    for (const alId of ids) expect(of(alId, 'GTT Placed')).toHaveLength(1);
  });

  it('a run that dies while writing its state (some order items written, some not) publishes nothing twice after', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await placeOutside({ qty: String(i + 1) }));
    // The run dies on its BatchWriteItem of the last 5 state items (25 a call: 30 orders are calls of 25 and 5), after
    // it published and marked its 30 events: an error thrown at the real client, as a crash or DynamoDB would.
    const client = dynamoDbClient(stack.dynamo.url);
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const items = (
          args.input as { RequestItems?: Record<string, { PutRequest?: { Item: { pk: { S: string } } } }[]> }
        ).RequestItems;
        const writes = Object.values(items ?? {}).flat();
        const isState =
          context.commandName === 'BatchWriteItemCommand' && writes.some((w) => w.PutRequest?.Item.pk.S === 'watcher');
        if (isState && writes.length === 5)
          throw Object.assign(new Error('injected: the run died here'), { name: 'InternalServerError' });
        return next(args);
      },
      { step: 'initialize', name: 'testDieMidCommit' },
    );
    try {
      await expect(stack.watch()).rejects.toThrow(/injected/);
    } finally {
      client.middlewareStack.remove('testDieMidCommit');
    }
    expect(events('GTT Placed')).toHaveLength(30);
    const table = new EventsTable({ tableName: LOCAL_EVENTS_TABLE, endpoint: stack.dynamo.url });
    expect(Object.keys((await table.readSnapshot()).state.orders)).toHaveLength(25);
    // The next run finds the 5 orders not written, whose events are marked: nothing published, the state completed.
    expect(await stack.watch()).toMatchObject({ status: 'ok', published: [], skipped: 5, dynamo: { itemsWritten: 5 } });
    expect(Object.keys((await table.readSnapshot()).state.orders).sort()).toEqual([...ids].sort());
    expect(await stack.watch()).toMatchObject({ status: 'ok', published: [], skipped: 0, dynamo: { itemsWritten: 0 } });
    for (const alId of ids) expect(of(alId)).toHaveLength(1);
  });

  it('a dead session gives one Session Expired, not one per run; a renewal gives Session Renewed', async () => {
    await control.expire(token);
    expect(await stack.watch()).toMatchObject({
      status: 'session-dead',
      published: [{ detailType: 'Session Expired' }],
    });
    expect(await stack.watch()).toMatchObject({ status: 'session-dead', published: [] });
    expect(events('Session Expired')).toHaveLength(1);
    expect(events('Session Expired')[0]!.detail).toMatchObject({ code: 'SESSION_EXPIRED', origin: 'watcher' });

    await renewWithTotp();
    expect(events('Session Renewed')).toHaveLength(1);
    expect(events('Session Renewed')[0]!.detail).toMatchObject({ method: 'totp', origin: 'gateway' });
    const renewed = (JSON.parse(stack.secrets.getSecret('gtt-gateway/broker-session')!) as { accessToken: string })
      .accessToken;
    expect(renewed).not.toBe(token);
    for (const secret of [token, renewed]) expect(JSON.stringify(events())).not.toContain(secret);
    expect(await stack.watch()).toMatchObject({ status: 'ok' });
  });
});

describe('event schemas (docs/events/)', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();
  const schemaOf = (type: string) => {
    if (!validators.has(type)) {
      const file = join(
        import.meta.dirname,
        '../../docs/events',
        `${type.toLowerCase().replace(/ /g, '-')}.schema.json`,
      );
      validators.set(type, ajv.compile(JSON.parse(readFileSync(file, 'utf8')) as object));
    }
    return validators.get(type)!;
  };

  it('real events of every detail-type pass the JSON Schema the docs publish', async () => {
    const single = await place();
    await stack.watch();
    await api('PUT', `/gtt-orders/${single}`, { ...ORDER, d: '1470' });
    await api('DELETE', `/gtt-orders/${single}`);
    const fired = await place({ ...ORDER, tsym: 'SBIN-EQ' });
    await api('POST', '/gtt-orders/oco', OCO, { 'Idempotency-Key': 'oco-schema' });
    const gone = await placeOutside();
    const refused = await place({ ...ORDER, tsym: 'WIPRO-EQ' });
    await stack.watch();
    // The orders the fired GTTs place: SBIN's filled (the default), INFY's leg cancelled, WIPRO's rejected.
    await ltp('NSE', 'SBIN-EQ', 1000);
    await nextOrder({ status: 'cancelled' });
    await ltp('NSE', 'INFY-EQ', 1500);
    await ltp('NSE', 'INFY-EQ', 1300);
    await nextOrder({ status: 'rejected', reason: 'RMS:Margin Exceeds' });
    await ltp('NSE', 'WIPRO-EQ', 1000);
    await jdata(stack.emulator.url, 'CancelGTTOrder', { uid: stack.emulator.uid, al_id: gone }, token);
    await stack.watch();
    await stack.watch();
    await control.expire(token);
    await stack.watch();
    await renewWithTotp();
    // Kill Switch: on (the sweep cancels what is left) and off again.
    expect((await api('POST', '/kill-switch')).status).toBe(200);
    expect((await api('DELETE', '/kill-switch')).status).toBe(200);
    // Plans: a bracket through its exit (Armed, Step, Done) and one whose entry is refused (Failed).
    const bracket = (tsym: string) => ({
      kind: 'bracket',
      entry: { ...ORDER, tsym },
      target: { trigger: '1600', price: '1600' },
      stopLoss: { trigger: '1400', price: '1400' },
    });
    expect((await api('POST', '/plans', bracket('ITC-EQ'), { 'Idempotency-Key': 'plan-ok' })).status).toBe(201);
    await ltp('NSE', 'ITC-EQ', 1480);
    await stack.watch();
    await ltp('NSE', 'ITC-EQ', 1610);
    await stack.watch();
    expect((await api('POST', '/plans', bracket('LT-EQ'), { 'Idempotency-Key': 'plan-no' })).status).toBe(201);
    await nextOrder({ status: 'rejected', reason: 'RMS:Margin Exceeds' });
    await ltp('NSE', 'LT-EQ', 1480);
    await stack.watch();
    // Plan Unprotected: a bracket whose exit the kill switch sweeps (a position without a live exit).
    expect((await api('POST', '/plans', bracket('HCLTECH-EQ'), { 'Idempotency-Key': 'plan-bare' })).status).toBe(201);
    await ltp('NSE', 'HCLTECH-EQ', 1480);
    await stack.watch();
    expect((await api('POST', '/kill-switch')).status).toBe(200);
    expect((await api('DELETE', '/kill-switch')).status).toBe(200);
    await stack.watch();
    // Signals: one acted on (Received, Acted) and one refused (an unknown ticker: Refused).
    const strategy = await api(
      'POST',
      '/strategies',
      {
        name: 'schema',
        source: 'tradingview',
        action: {
          kind: 'gtt',
          order: { exch: 'NSE', prd: 'C', qty: 1 },
          trigger: { offset: '0' },
          price: { offset: '0' },
        },
      },
      { 'Idempotency-Key': 'strategy-schema' },
    );
    const webhookUrl = String(strategy.body.webhookUrl);
    for (const ticker of ['TCS', 'NOSUCHTHING'])
      expect(
        (
          await fetch(webhookUrl, {
            method: 'POST',
            body: JSON.stringify({ action: 'buy', ticker, exchange: 'NSE', price: 1500 }),
          })
        ).status,
      ).toBe(202);
    await stack.signalQueue.drained();
    await stack.eventsForwarded();
    expect(of(fired, 'GTT Triggered')).toHaveLength(1);
    expect(of(fired, 'Order Filled')).toHaveLength(1);
    expect(of(refused, 'Order Rejected')[0]!.detail).toMatchObject({
      order: { status: 'rejected', rejection: { code: 'INSUFFICIENT_FUNDS' } },
    });

    const seen = new Set(events().map((e) => e['detail-type']));
    expect([...seen].sort()).toEqual([...DETAIL_TYPES].sort());
    for (const event of events()) {
      const validate = schemaOf(event['detail-type']);
      expect(validate(event.detail), `${event['detail-type']}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    // And a schema refuses what it should: an event without its eventId.
    const placed = events('GTT Placed')[0]!;
    const { eventId: _omit, ...withoutId } = placed.detail;
    expect(schemaOf('GTT Placed')(withoutId)).toBe(false);
  });
});
