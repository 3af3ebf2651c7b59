/**
 * A journaled write's stamp across changes of its order (docs/explanation/order-safety.md, "A stamp across changes"), end to end
 * on loopback: the local API, the real handlers, the journal on dynalite, the broker emulator. A place whose reply
 * was lost is changed by the trader (PATCH, PUT) before its key is retried: the retry answers the order, never a
 * second one. A keyed change that never reached the broker is sent again after the late window, not refused as
 * changed by another. A caller's tag can never pass for a stamp.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { stampOf } from '../../functions/base/broker/order-stamps.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { useLocalStack } from '../support/local-stack-fixture.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

const TIMEOUT_MS = 600;
/** The stack's late window (ORDER_LATE_WINDOW_MS). */
const LATE_MS = 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let api: string;
let control: EmulatorControl;
let uid: string;
let seq = 0;
const newKey = () => `stamps-${Date.now()}-${++seq}`;

const order = { ...SAMPLE_ORDER, tsym: 'L&TFH-EQ', qty: 4, prc: '160.5', d: '158', tag: 'swing-1' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions on arbitrary JSON
type Json = Record<string, any>;
const call = async (method: string, path: string, body?: unknown, key?: string) => {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'Idempotency-Key': key }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
};
const place = (key: string, body: unknown = order) => call('POST', '/gtt-orders', body, key);
const sent = async (operation: string) => (await control.requests()).filter((r) => r.operation === operation);
const atBroker = async () => (await control.orders(uid)) as unknown as Json[];
/** Past the late window of every write sent so far (each ends within one broker timeout). */
const pastLateWindow = () => sleep(TIMEOUT_MS + LATE_MS + 100);

/** A place whose reply is lost although the broker placed it: 502 `unknown`; the order, as the trader lists it. */
const lostPlace = async (key: string): Promise<string> => {
  await control.fault({ operation: 'PlaceGTTOrder', kind: 'drop', executed: true, times: 1 });
  const first = await place(key);
  expect(first.body.error).toMatchObject({ outcome: 'unknown' });
  const listed = await call('GET', '/gtt-orders');
  expect(listed.body.orders).toHaveLength(1);
  return String(listed.body.orders[0].al_id);
};

/** The retry of the lost place after its late window: the order, adopted; nothing placed twice. */
const retryFindsIt = async (key: string, alId: string) => {
  await pastLateWindow();
  const retry = await place(key);
  expect(retry).toMatchObject({
    status: 201,
    body: { stat: 'OI created', al_id: alId, idempotency: { key, replayed: true, adopted: true } },
  });
  expect(await sent('PlaceGTTOrder')).toHaveLength(1);
  // From now on the key answers that order from the journal.
  expect((await place(key)).body).toMatchObject({ al_id: alId, idempotency: { replayed: true } });
};

useLocalStack(
  { brokerTimeoutMs: TIMEOUT_MS, settings: { ...HIGH_ORDER_RATE, ORDER_LATE_WINDOW_MS: LATE_MS } },
  (s, c) => {
    api = s.api.url;
    uid = s.emulator.uid;
    control = c;
  },
);
afterEach(async () => {
  await control.clearFaults();
});

describe("a change of an order keeps its place's key from placing it again", () => {
  it('a PATCH without a key, then the lost place retried: its order, not a second one', async () => {
    const key = newKey();
    const alId = await lostPlace(key);
    expect((await call('PATCH', `/gtt-orders/${alId}`, { prc: '161' })).status).toBe(200);
    await retryFindsIt(key, alId);
    expect((await atBroker()).map((o) => o.prc)).toEqual(['161']);
  });

  it('a keyed PATCH, then the lost place retried: its order', async () => {
    const key = newKey();
    const alId = await lostPlace(key);
    expect((await call('PATCH', `/gtt-orders/${alId}`, { prc: '161' }, newKey())).status).toBe(200);
    await retryFindsIt(key, alId);
  });

  it('a PUT repeating the tag (keyed or not), then the lost place retried: its order', async () => {
    const key = newKey();
    const alId = await lostPlace(key);
    expect((await call('PUT', `/gtt-orders/${alId}`, { ...order, qty: 5 }, newKey())).status).toBe(200);
    expect((await call('PUT', `/gtt-orders/${alId}`, { ...order, qty: 6 })).status).toBe(200);
    await retryFindsIt(key, alId);
    expect((await atBroker()).map((o) => o.qty)).toEqual([6]);
  });

  it('an OCO: a PATCH of its stop-loss, then the lost place retried: its order', async () => {
    const key = newKey();
    const oco = {
      exch: 'NSE',
      tsym: 'M&M-EQ',
      tag: 'exit-1',
      target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1600', prd: 'C' } },
      stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1395', prd: 'C' } },
    };
    await control.fault({ operation: 'PlaceOCOOrder', kind: 'drop', executed: true, times: 1 });
    expect((await call('POST', '/gtt-orders/oco', oco, key)).body.error).toMatchObject({ outcome: 'unknown' });
    const [listed] = (await call('GET', '/gtt-orders')).body.orders as Json[];
    const alId = String(listed!.al_id);
    expect((await call('PATCH', `/gtt-orders/oco/${alId}`, { stopLoss: { trigger: '1410' } })).status).toBe(200);
    await pastLateWindow();
    const retry = await call('POST', '/gtt-orders/oco', oco, key);
    expect(retry).toMatchObject({ status: 201, body: { al_id: alId, idempotency: { key, adopted: true } } });
    expect(await sent('PlaceOCOOrder')).toHaveLength(1);
  });

  it('changed, then cancelled through the gateway: the lost place is still known to have landed, never sent again', async () => {
    const key = newKey();
    const alId = await lostPlace(key);
    expect((await call('PATCH', `/gtt-orders/${alId}`, { prc: '161' })).status).toBe(200);
    expect((await call('DELETE', `/gtt-orders/${alId}`)).status).toBe(200);
    await pastLateWindow();
    const retry = await place(key);
    expect(retry.body).toMatchObject({ al_id: alId, idempotency: { adopted: true } });
    expect(await sent('PlaceGTTOrder')).toHaveLength(1);
    expect((await atBroker()).filter((o) => o.state === 'pending')).toHaveLength(0);
  });
});

describe('the read before a PUT', () => {
  it('of an order no longer pending answers ORDER_NOT_FOUND, nothing sent', async () => {
    const alId = String((await place(newKey())).body.al_id);
    expect((await call('DELETE', `/gtt-orders/${alId}`)).status).toBe(200);
    const put = await call('PUT', `/gtt-orders/${alId}`, { ...order, qty: 5 }, newKey());
    expect(put).toMatchObject({ status: 404, body: { error: { code: 'ORDER_NOT_FOUND', outcome: 'not_executed' } } });
    expect(await sent('ModifyGTTOrder')).toHaveLength(0);
  });
});

describe('a keyed change that never reached the broker', () => {
  it('is sent again after the late window, not refused as changed by another (412)', async () => {
    const placed = await place(newKey());
    expect(placed.status).toBe(201);
    const alId = String(placed.body.al_id);
    const key = newKey();
    // The broker never sees it: the connection ends with nothing done, the outcome unknown.
    await control.fault({ operation: 'ModifyGTTOrder', kind: 'drop', times: 1 });
    const first = await call('PUT', `/gtt-orders/${alId}`, { ...order, qty: 7 }, key);
    expect(first.body.error).toMatchObject({ outcome: 'unknown' });
    await pastLateWindow();
    const retry = await call('PUT', `/gtt-orders/${alId}`, { ...order, qty: 7 }, key);
    expect(retry).toMatchObject({ status: 200, body: { stat: 'OI replaced', al_id: alId } });
    expect(retry.body.idempotency).toEqual({ key, replayed: false });
    expect((await atBroker()).map((o) => o.qty)).toEqual([7]);
  });

  it('a keyed PATCH too: sent again after the late window', async () => {
    const alId = String((await place(newKey())).body.al_id);
    const key = newKey();
    await control.fault({ operation: 'ModifyGTTOrder', kind: 'drop', times: 1 });
    expect((await call('PATCH', `/gtt-orders/${alId}`, { qty: 7 }, key)).body.error).toMatchObject({
      outcome: 'unknown',
    });
    await pastLateWindow();
    const retry = await call('PATCH', `/gtt-orders/${alId}`, { qty: 7 }, key);
    expect(retry).toMatchObject({ status: 200, body: { al_id: alId, idempotency: { key, replayed: false } } });
    expect((await atBroker()).map((o) => o.qty)).toEqual([7]);
  });

  it('a change by another request meanwhile is still refused (412), nothing sent', async () => {
    const placed = await place(newKey());
    const alId = String(placed.body.al_id);
    const key = newKey();
    await control.fault({ operation: 'ModifyGTTOrder', kind: 'drop', times: 1 });
    expect((await call('PUT', `/gtt-orders/${alId}`, { ...order, qty: 7 }, key)).body.error).toMatchObject({
      outcome: 'unknown',
    });
    await pastLateWindow();
    expect((await call('PATCH', `/gtt-orders/${alId}`, { qty: 8 }, newKey())).status).toBe(200);
    const retry = await call('PUT', `/gtt-orders/${alId}`, { ...order, qty: 7 }, key);
    expect(retry).toMatchObject({ status: 412, body: { error: { code: 'ORDER_CHANGED', outcome: 'not_executed' } } });
    expect((await atBroker()).map((o) => o.qty)).toEqual([8]);
  });

  it('a change without a key meanwhile (the order then carries no stamp) is refused (412) too, nothing sent', async () => {
    const alId = String((await place(newKey())).body.al_id);
    const key = newKey();
    await control.fault({ operation: 'ModifyGTTOrder', kind: 'drop', times: 1 });
    expect((await call('PUT', `/gtt-orders/${alId}`, { ...order, qty: 7 }, key)).body.error).toMatchObject({
      outcome: 'unknown',
    });
    await pastLateWindow();
    expect((await call('PATCH', `/gtt-orders/${alId}`, { qty: 8 })).status).toBe(200);
    const retry = await call('PUT', `/gtt-orders/${alId}`, { ...order, qty: 7 }, key);
    expect(retry).toMatchObject({ status: 412, body: { error: { code: 'ORDER_CHANGED', outcome: 'not_executed' } } });
    expect((await atBroker()).map((o) => o.qty)).toEqual([8]);
  });
});

describe('a tag that looks like a stamp', () => {
  it("is refused (400 naming tag), so another key's unsent place is never adopted as that order", async () => {
    const unsent = newKey();
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'drop', times: 1 });
    expect((await place(unsent)).body.error).toMatchObject({ outcome: 'unknown' });
    // 27-40 characters, ending in the unsent write's stamp: it would be sent as the remarks alone.
    const tag = `a-label-of-some-length ${stampOf('PlaceGTTOrder', unsent)}`;
    const lookalike = await place(newKey(), { ...order, tag });
    expect(lookalike).toMatchObject({
      status: 400,
      body: { error: { code: 'VALIDATION_FAILED', details: [{ field: 'tag' }] } },
    });
    expect(lookalike.body.error.details[0].message).toMatch(/stamp/);
    await pastLateWindow();
    const retry = await place(unsent);
    expect(retry).toMatchObject({ status: 201, body: { idempotency: { key: unsent, replayed: false } } });
    expect(await atBroker()).toHaveLength(1);
  });

  it.each(['gw.0123456789', 'x gw.abcdefghij', 'xgw.0123456789'])('refuses the tag %j, on PATCH too', async (tag) => {
    expect((await place(newKey(), { ...order, tag })).status).toBe(400);
    const placed = await place(newKey());
    const patched = await call('PATCH', `/gtt-orders/${String(placed.body.al_id)}`, { tag });
    expect(patched).toMatchObject({ status: 400, body: { error: { details: [{ field: 'tag' }] } } });
    expect(await sent('ModifyGTTOrder')).toHaveLength(0);
  });
});
