/**
 * The order core's plain PlaceOrder, in-process as the day's-limit square-off calls it (`exitOrders`,
 * functions/orders/plain-order.ts), end to end on loopback: the local stack's journal and governor on dynalite, the
 * broker emulator over HTTP. Placed once with NorenRestApiPy's fields and the write's stamp in remarks; the same key
 * again replays without a second PlaceOrder; a reply lost after the order was placed is settled by reading OrderBook
 * for the stamp, never sent twice; the exchange's rules refuse an order before anything is sent; the kill switch
 * refuses a plain order unless it is an exit.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { stampOf } from '../../functions/base/broker/order-stamps.js';
import { GatewayError } from '../../functions/base/contract/errors.js';
import { inProcessGateway } from '../../functions/orders/gateway/in-process.js';
import { exitOrders, type PlaceExitOrder } from '../../functions/orders/plain-order.js';
import { placeOrder } from '../../functions/orders/plain-order-operation.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { captureLogger } from '../support/logs.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';

const TIMEOUT_MS = 800;
const LATE_MS = 1_000;
let stack: LocalStack;
let control: EmulatorControl;
let placeExitOrder: PlaceExitOrder;
let plain: (input: Record<string, unknown>, deadline: number) => Promise<unknown>;
let keys = 0;
const newKey = () => `plain-${Date.now()}-${++keys}`;
const api = localApi(() => stack.api.url);
const deadline = () => Date.now() + 20_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions on arbitrary JSON
type Json = Record<string, any>;
const exit = (key: string, over: Record<string, unknown> = {}) => ({
  exch: 'NSE',
  tsym: 'INFY-EQ',
  prd: 'I',
  trantype: 'S' as const,
  qty: 5,
  prc: '1495',
  key,
  tag: 'day-limit',
  ...over,
});
const sent = async () => (await control.requests()).filter((r) => r.operation === 'PlaceOrder');
const book = async () => {
  const reply = (await fetch(`${stack.emulator.url}/ClientAPI/OrderBook`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.emulator.token}` },
    body: `jData=${JSON.stringify({ uid: stack.emulator.uid })}`,
  }).then((r) => r.json())) as Json[] | Json;
  return Array.isArray(reply) ? reply : [];
};
const refusal = async (call: Promise<unknown>): Promise<GatewayError> => {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
};

beforeAll(async () => {
  stack = await startLocalStack({
    brokerTimeoutMs: TIMEOUT_MS,
    settings: { ...HIGH_ORDER_RATE, ORDER_LATE_WINDOW_MS: LATE_MS },
  });
  control = emulatorControl(stack.emulator.url);
  const gateway = inProcessGateway(stack.config, captureLogger().logger, 'PlainOrderTest');
  placeExitOrder = exitOrders(gateway);
  plain = gateway.direct(placeOrder);
});
afterAll(async () => {
  await api('DELETE', '/kill-switch').catch(() => undefined);
  await stack?.close();
});
beforeEach(async () => {
  await api('DELETE', '/kill-switch');
  await control.reset();
  await control.ltp('NSE', 'INFY-EQ', 1500, 1500);
});

describe('the plain PlaceOrder through the order core', () => {
  it('is placed once with the stamp in remarks; the same key again replays without a second PlaceOrder', async () => {
    const key = newKey();
    const first = await placeExitOrder(exit(key), deadline());
    expect(first).toEqual({ norenordno: expect.stringMatching(/^\d+$/), replayed: false, adopted: false });
    const [request] = await sent();
    expect(request!.jData).toEqual({
      ordersource: 'API',
      uid: stack.emulator.uid,
      actid: stack.emulator.actid,
      trantype: 'S',
      prd: 'I',
      exch: 'NSE',
      tsym: 'INFY-EQ',
      qty: '5',
      dscqty: '0',
      prctyp: 'LMT',
      prc: '1495',
      ret: 'DAY',
      remarks: `day-limit ${stampOf('PlaceOrder', key)}`,
    });
    expect(await book()).toEqual([
      expect.objectContaining({ norenordno: first.norenordno, status: 'COMPLETE', avgprc: '1500', prd: 'I' }),
    ]);

    const again = await placeExitOrder(exit(key), deadline());
    expect(again).toEqual({ norenordno: first.norenordno, replayed: true, adopted: false });
    expect(await sent()).toHaveLength(1);
    expect(await book()).toHaveLength(1);
  });

  it('five at once with one key: one PlaceOrder, one order; the others answer it or say it is in flight', async () => {
    const key = newKey();
    const settled = await Promise.allSettled(Array.from({ length: 5 }, () => placeExitOrder(exit(key), deadline())));
    expect(await sent()).toHaveLength(1);
    const [order] = await book();
    expect(await book()).toHaveLength(1);
    for (const one of settled) {
      if (one.status === 'fulfilled') expect(one.value.norenordno).toBe(order!.norenordno);
      else expect(one.reason).toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
    }
    expect(settled.some((one) => one.status === 'fulfilled')).toBe(true);
  });

  it('a reply lost after the order was placed: unknown, then settled from OrderBook by its stamp, never sent twice', async () => {
    const key = newKey();
    await control.fault({ operation: 'PlaceOrder', kind: 'drop', executed: true, times: 1 });
    const lost = await refusal(placeExitOrder(exit(key), deadline()));
    expect(lost.outcome).toBe('unknown');
    const [placed] = await book();
    expect(placed).toMatchObject({ remarks: `day-limit ${stampOf('PlaceOrder', key)}` });

    const retry = await placeExitOrder(exit(key), deadline());
    expect(retry).toEqual({ norenordno: placed!.norenordno, replayed: true, adopted: true });
    expect(await sent()).toHaveLength(1);
    // From now on the key answers that order from the journal.
    expect(await placeExitOrder(exit(key), deadline())).toMatchObject({ norenordno: placed!.norenordno });
    expect(await sent()).toHaveLength(1);
    expect(await book()).toHaveLength(1);
  });

  it('a request lost before the broker acted: not in the books, so sent once more only after its late window', async () => {
    const key = newKey();
    await control.fault({ operation: 'PlaceOrder', kind: 'drop', executed: false, times: 1 });
    expect((await refusal(placeExitOrder(exit(key), deadline()))).outcome).toBe('unknown');
    expect(await book()).toEqual([]);
    // While it may still land, the key is not sent again: still unknown, retry later.
    const early = await refusal(placeExitOrder(exit(key), deadline()));
    expect(early).toMatchObject({ outcome: 'unknown' });
    expect(early.message).toMatch(/idempotency key/i);
    expect(await sent()).toHaveLength(1);
    await sleep(TIMEOUT_MS + LATE_MS + 200);
    const placed = await placeExitOrder(exit(key), deadline());
    expect(await book()).toEqual([expect.objectContaining({ norenordno: placed.norenordno })]);
    expect(await sent()).toHaveLength(2);
  });

  it("the exchange's rules refuse an order off the tick or outside today's band, and a market order: nothing sent", async () => {
    const rules = [
      ['1495.03', /prc: 1495.03 is off the instrument's 0.05 tick: 1495.00 or 1495.05/],
      ['1700', /prc: limit 1700.00 is outside NSE:INFY-EQ's band today \(1350.00–1650.00\): use at most 1650.00/],
      ['1300', /use at least 1350.00/],
    ] as const;
    for (const [prc, message] of rules) {
      const error = await refusal(placeExitOrder(exit(newKey(), { prc }), deadline()));
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', outcome: 'not_executed' });
      expect(error.message).toMatch(message);
    }
    const error = await refusal(plain({ ...exit(newKey()), key: undefined, prctyp: 'MKT', prc: '0' }, deadline()));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toMatch(/prctyp must be LMT/);
    expect(await sent()).toEqual([]);
  });
});

describe('the plain PlaceOrder under the kill switch', () => {
  const notExit = (key: string) => {
    const { key: _key, ...order } = exit(key);
    return { ...order, prctyp: 'LMT', idempotencyKey: key };
  };

  it.each(['cancel-all', 'keep-exits'])('%s: refused unless it is an exit; an exit is placed', async (mode) => {
    expect((await api('POST', '/kill-switch', { mode })).status).toBe(200);
    const refused = await refusal(plain(notExit(newKey()), deadline()));
    expect(refused).toMatchObject({ code: 'TRADING_HALTED', outcome: 'not_executed' });
    expect(await sent()).toEqual([]);

    const placed = await placeExitOrder(exit(newKey()), deadline());
    expect(await book()).toEqual([expect.objectContaining({ norenordno: placed.norenordno, trantype: 'S' })]);
    expect(await sent()).toHaveLength(1);
  });

  it('a dry run answers the exact request and sends nothing, even with the switch on', async () => {
    expect((await api('POST', '/kill-switch', { mode: 'keep-exits' })).status).toBe(200);
    const { idempotencyKey: _key, ...order } = notExit(newKey());
    const asked = (await plain({ ...order, exit: true, dryRun: true }, deadline())) as Json;
    expect(asked.request.url).toMatch(/\/PlaceOrder$/);
    expect(asked.request.jData).toMatchObject({ ordersource: 'API', tsym: 'INFY-EQ', prctyp: 'LMT', prc: '1495' });
    expect(await sent()).toEqual([]);
  });

  it('with the switch off a plain order that is not an exit is placed', async () => {
    const placed = (await plain(notExit(newKey()), deadline())) as Json;
    expect(placed).toMatchObject({ stat: 'Ok', norenordno: expect.any(String), idempotency: { replayed: false } });
  });
});
