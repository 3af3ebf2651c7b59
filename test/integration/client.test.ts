/**
 * The typed client (client/, the package's `./client` entry) against the local stack: every operation, every error
 * class reachable locally, and the retry rules (same Idempotency-Key on every retry of a call, retries only where
 * safe, never after SESSION_EXPIRED, never for logout).
 */
import net from 'node:net';

import {
  createGttClient,
  EXIT_CODES,
  exitCodeFor,
  type GttClientOptions,
  GttGatewayError,
  type GttOrderInput,
  type OcoOrderInput,
  OPERATION_INFO,
  type RetryEvent,
} from 'gtt-gateway/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { LOCAL_SECRET_ID, type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;

const order: GttOrderInput = SAMPLE_ORDER;
const oco: OcoOrderInput = {
  exch: 'NSE',
  tsym: 'INFY-EQ',
  tag: 'exit-infy',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 2, prc: '1600', prd: 'C', ret: 'DAY' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 2, prc: '1390', prd: 'C', ret: 'DAY' } },
};

/** A client on the local API that records its retries; fast backoff so tests stay short. */
const clientWith = (options: Partial<GttClientOptions> = {}) => {
  const retries: RetryEvent[] = [];
  const client = createGttClient({
    baseUrl: stack.api.url,
    retryBaseDelayMs: 50,
    retryMaxDelayMs: 200,
    onRetry: (event) => retries.push(event),
    ...options,
  });
  return { client, retries };
};

/** The call's GttGatewayError (fails the test if the call succeeds or throws anything else). */
const failure = async (call: Promise<unknown>): Promise<GttGatewayError> => {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(GttGatewayError);
    return error as GttGatewayError;
  }
  throw new Error('expected the call to fail');
};

const brokerCalls = async (operation: string) => (await control.requests()).filter((r) => r.operation === operation);
const ordersAtBroker = async () => control.orders(stack.emulator.uid);

const until = async (check: () => Promise<boolean>, timeoutMs = 5_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

beforeAll(async () => {
  // Keys optional (so a keyless place can be shown), a quantity guardrail, and a short broker timeout.
  stack = await startLocalStack({
    settings: { ...HIGH_ORDER_RATE, IDEMPOTENCY_KEY_REQUIRED: false, GUARDRAIL_MAX_QTY: 100 },
    brokerTimeoutMs: 4_000,
  });
  control = emulatorControl(stack.emulator.url);
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(async () => {
  await control.reset();
  // The emulator's reset brings its session back; a logout also marked the secret logged out, so restore that too.
  stack.secrets.setSecret(
    LOCAL_SECRET_ID,
    JSON.stringify({ accessToken: stack.emulator.token, uid: stack.emulator.uid, actid: stack.emulator.actid }),
  );
});

describe('every operation of the table', () => {
  it('the generated operation facts cover the whole OpenAPI document the local API serves', async () => {
    const doc = (await (await fetch(`${stack.api.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const served = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => [op.operationId, method.toUpperCase(), path]),
    );
    expect(served.map(([id]) => id).sort()).toEqual(Object.keys(OPERATION_INFO).sort());
    for (const [id, method, path] of served)
      expect(OPERATION_INFO[id as keyof typeof OPERATION_INFO]).toMatchObject({ method, path });
  });

  it('place (dry run, then for real), list, get, modify, cancel', async () => {
    const { client } = clientWith();
    const dry = await client.placeOrder(order, { dryRun: true });
    expect(dry).toMatchObject({
      dryRun: true,
      operation: 'PlaceGTTOrder',
      request: { jData: { tsym: 'M%26M-EQ', qty: '1' } },
    });
    expect(await brokerCalls('PlaceGTTOrder')).toEqual([]);

    const placed = await client.placeOrder({ ...order, tag: 'swing-1' });
    expect(placed).toMatchObject({
      stat: 'OI created',
      al_id: expect.stringMatching(/^\d+$/),
      idempotency: { key: expect.any(String), replayed: false },
    });
    // The key the client generated was the one sent.
    expect(await brokerCalls('PlaceGTTOrder')).toHaveLength(1);

    const listed = await client.listOrders();
    expect(listed.orders).toEqual([
      expect.objectContaining({
        al_id: placed.al_id,
        type: 'single',
        tsym: 'M&M-EQ',
        qty: 1,
        trigger: '1490',
        tag: 'swing-1',
      }),
    ]);
    expect((await client.listOrders({ tsym: 'M&M-EQ', exch: 'NSE' })).orders).toHaveLength(1);
    expect((await client.listOrders({ exch: 'BSE' })).orders).toEqual([]);

    const one = await client.getOrder(placed.al_id);
    expect(one).toMatchObject({ al_id: placed.al_id, type: 'single', prc: '1500' });

    expect(await client.modifyOrder(placed.al_id, { ...order, qty: 2 }, { dryRun: true })).toMatchObject({
      dryRun: true,
      request: { jData: { al_id: placed.al_id, qty: '2' } },
    });
    const modified = await client.modifyOrder(placed.al_id, { ...order, qty: 2 });
    expect(modified).toMatchObject({ stat: 'OI replaced', al_id: placed.al_id, idempotency: { replayed: false } });
    expect((await client.getOrder(placed.al_id)).qty).toBe(2);

    expect(await client.cancelOrder(placed.al_id, { dryRun: true })).toMatchObject({
      dryRun: true,
      operation: 'CancelGTTOrder',
    });
    const cancelled = await client.cancelOrder(placed.al_id);
    expect(cancelled).toMatchObject({ stat: 'OI deleted', al_id: placed.al_id });
    expect((await client.listOrders()).orders).toEqual([]);
  });

  it('OCO: place, list, modify, cancel', async () => {
    const { client } = clientWith();
    expect(await client.placeOco(oco, { dryRun: true })).toMatchObject({ dryRun: true, operation: 'PlaceOCOOrder' });
    const placed = await client.placeOco(oco);
    expect(placed).toMatchObject({ stat: 'OI created', al_id: expect.any(String) });
    const got = await client.getOrder(placed.al_id);
    expect(got).toMatchObject({
      type: 'oco',
      tag: 'exit-infy',
      target: { trigger: '1600' },
      stopLoss: { trigger: '1400' },
    });
    const modified = await client.modifyOco(placed.al_id, { ...oco, stopLoss: { ...oco.stopLoss, trigger: '1450' } });
    expect(modified).toMatchObject({ stat: 'OI replaced', al_id: placed.al_id });
    expect((await client.getOrder(placed.al_id)).stopLoss?.trigger).toBe('1450');
    expect(await client.cancelOrder(placed.al_id)).toMatchObject({ stat: 'OI deleted' });
  });

  it('triggered, enabled, client details', async () => {
    const { client } = clientWith();
    const placed = await client.placeOrder({ ...order, tag: 'fires' });
    const ltp = await fetch(`${stack.emulator.url}/_emulator/ltp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ exch: 'NSE', tsym: 'M&M-EQ', ltp: 1485 }),
    });
    expect(ltp.ok).toBe(true);
    const fired = await client.triggered();
    expect(fired.orders).toEqual([
      expect.objectContaining({ al_id: placed.al_id, status: expect.any(String), tag: 'fires' }),
    ]);
    expect((await client.listOrders()).orders).toEqual([]);

    const enabled = await client.enabled();
    expect(enabled.ai_ts.map((a) => a.ai_t)).toEqual(expect.arrayContaining(['LTP_A_O', 'LTP_B_O']));
    const details = await client.clientDetails();
    expect(details).toMatchObject({ stat: 'Ok', actid: stack.emulator.actid, exarr: expect.arrayContaining(['NSE']) });
  });

  it('call(operationId) reaches any operation of the document with the same rules', async () => {
    const { client } = clientWith();
    const placed = await client.call('PlaceGTTOrder', { body: order }, { idempotencyKey: 'generic-1' });
    expect(placed).toMatchObject({ stat: 'OI created', idempotency: { key: 'generic-1' } });
    expect(await client.call('GetGTTOrder', { path: { alId: placed.al_id } })).toMatchObject({ al_id: placed.al_id });
    expect((await client.call('GetPendingGTTOrder', { query: { exch: 'NSE' } })).orders).toHaveLength(1);
    expect(await client.call('CancelGTTOrder', { path: { alId: placed.al_id } }, { dryRun: true })).toMatchObject({
      dryRun: true,
    });
  });

  it('logout: the session ends, later calls are SESSION_EXPIRED', async () => {
    const { client } = clientWith();
    expect(await client.logout()).toMatchObject({ stat: 'Ok' });
    expect((await failure(client.clientDetails())).code).toBe('SESSION_EXPIRED');
  });
});

describe('every error class reachable locally', () => {
  it('VALIDATION_FAILED (400): field problems, nothing sent, exit code 2', async () => {
    const { client, retries } = clientWith();
    const error = await failure(client.placeOrder({ ...order, qty: 0 }));
    expect(error).toMatchObject({
      code: 'VALIDATION_FAILED',
      status: 400,
      attempts: 1,
      details: [{ field: 'qty', message: expect.any(String) }],
    });
    expect(error.idempotencyKey).toEqual(expect.any(String));
    expect(exitCodeFor(error)).toBe(EXIT_CODES.USAGE);
    expect(retries).toEqual([]);
    expect(await control.requests()).toEqual([]);
  });

  it('GUARDRAIL_REJECTED (422): above GUARDRAIL_MAX_QTY, nothing sent, exit code 2', async () => {
    const { client } = clientWith();
    const error = await failure(client.placeOrder({ ...order, qty: 500 }));
    expect(error).toMatchObject({ code: 'GUARDRAIL_REJECTED', status: 422, attempts: 1 });
    expect(exitCodeFor(error)).toBe(EXIT_CODES.USAGE);
    expect(await control.requests()).toEqual([]);
  });

  it('ORDER_NOT_FOUND (404) for get and cancel, exit code 3', async () => {
    const { client } = clientWith();
    const get = await failure(client.getOrder('999999'));
    expect(get).toMatchObject({ code: 'ORDER_NOT_FOUND', status: 404, outcome: undefined });
    const cancel = await failure(client.cancelOrder('999999'));
    expect(cancel).toMatchObject({ code: 'ORDER_NOT_FOUND', status: 404, outcome: 'not_executed', attempts: 1 });
    expect(exitCodeFor(cancel)).toBe(EXIT_CODES.NOT_FOUND);
  });

  it("BROKER_REJECTED (422) with the broker's text, exit code 4", async () => {
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'notOk', message: 'Insufficient margin for this order' });
    const { client, retries } = clientWith();
    const error = await failure(client.placeOrder(order));
    expect(error).toMatchObject({
      code: 'BROKER_REJECTED',
      status: 422,
      outcome: 'not_executed',
      brokerMessage: 'Insufficient margin for this order',
    });
    expect(retries).toEqual([]);
    expect(exitCodeFor(error)).toBe(EXIT_CODES.REJECTED);
  });

  it('RATE_LIMITED (429): retried with the same key until the attempts run out, exit code 4', async () => {
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'rateLimit', times: 5 });
    const { client, retries } = clientWith({ maxAttempts: 3 });
    const error = await failure(client.placeOrder(order));
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429, outcome: 'not_executed', attempts: 3 });
    expect(retries.map((r) => r.error.code)).toEqual(['RATE_LIMITED', 'RATE_LIMITED']);
    expect(new Set(retries.map((r) => r.idempotencyKey))).toEqual(new Set([error.idempotencyKey]));
    expect(exitCodeFor(error)).toBe(EXIT_CODES.REJECTED);
    expect(await ordersAtBroker()).toEqual([]);
  });

  it('a rate limit that clears: the retry places the order once', async () => {
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'rateLimit', times: 1 });
    const { client, retries } = clientWith();
    const placed = await client.placeOrder(order);
    expect(placed).toMatchObject({ stat: 'OI created', idempotency: { replayed: false } });
    expect(retries).toHaveLength(1);
    expect(await ordersAtBroker()).toHaveLength(1);
  });

  it('SESSION_EXPIRED (503): never retried, exit code 5', async () => {
    await control.expire(stack.emulator.token);
    const { client, retries } = clientWith();
    const read = await failure(client.listOrders());
    expect(read).toMatchObject({
      code: 'SESSION_EXPIRED',
      status: 503,
      attempts: 1,
      brokerMessage: expect.stringMatching(/^Session Expired/),
    });
    const place = await failure(client.placeOrder(order));
    expect(place).toMatchObject({ code: 'SESSION_EXPIRED', outcome: 'not_executed', attempts: 1 });
    expect(retries).toEqual([]);
    expect(exitCodeFor(place)).toBe(EXIT_CODES.SESSION_EXPIRED);
  });

  it('BROKER_TIMEOUT (504) on a place: outcome unknown, stored under the key, so not retried; exit code 6', async () => {
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'serverTimeout', times: 3 });
    const { client, retries } = clientWith();
    const error = await failure(client.placeOrder(order));
    expect(error).toMatchObject({ code: 'BROKER_TIMEOUT', status: 504, outcome: 'unknown', attempts: 1 });
    expect(error.message).toMatch(/check the pending orders/i);
    expect(retries).toEqual([]);
    expect(exitCodeFor(error)).toBe(EXIT_CODES.OUTCOME_UNKNOWN);
    // Asking again with the same key replays the stored answer: no second broker call.
    const again = await failure(client.placeOrder(order, { idempotencyKey: error.idempotencyKey! }));
    expect(again).toMatchObject({ code: 'BROKER_TIMEOUT', outcome: 'unknown' });
    expect(again.message).toMatch(/Replay of idempotency key/);
    expect(await brokerCalls('PlaceGTTOrder')).toHaveLength(1);
  });

  it('BROKER_UNAVAILABLE (502) on a place: outcome unknown, not retried; on a read: retried', async () => {
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'http5xx', status: 503 });
    const { client, retries } = clientWith();
    const error = await failure(client.placeOrder(order));
    expect(error).toMatchObject({ code: 'BROKER_UNAVAILABLE', status: 502, outcome: 'unknown', attempts: 1 });
    expect(exitCodeFor(error)).toBe(EXIT_CODES.OUTCOME_UNKNOWN);
    expect(retries).toEqual([]);
  });

  it('IDEMPOTENCY_KEY_REUSED (422): the same key with another order, exit code 8; the same order replays', async () => {
    const { client } = clientWith();
    const first = await client.placeOrder(order, { idempotencyKey: 'reuse-1' });
    const replay = await client.placeOrder(order, { idempotencyKey: 'reuse-1' });
    expect(replay).toMatchObject({ al_id: first.al_id, idempotency: { key: 'reuse-1', replayed: true } });
    const error = await failure(client.placeOrder({ ...order, qty: 2 }, { idempotencyKey: 'reuse-1' }));
    expect(error).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
      status: 422,
      attempts: 1,
      idempotencyKey: 'reuse-1',
    });
    expect(exitCodeFor(error)).toBe(EXIT_CODES.IDEMPOTENCY);
    expect(await ordersAtBroker()).toHaveLength(1);
  });

  it('IDEMPOTENCY_IN_PROGRESS (409): another request with the key is in flight, exit code 8', async () => {
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 800 });
    const { client } = clientWith();
    const first = client.placeOrder(order, { idempotencyKey: 'busy-1' });
    await until(async () => (await brokerCalls('PlaceGTTOrder')).length === 1);
    const error = await failure(client.placeOrder(order, { idempotencyKey: 'busy-1', maxAttempts: 1 }));
    expect(error).toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS', status: 409, outcome: 'not_executed' });
    expect(exitCodeFor(error)).toBe(EXIT_CODES.IDEMPOTENCY);
    expect(await first).toMatchObject({ stat: 'OI created', idempotency: { key: 'busy-1', replayed: false } });
  });

  it('NETWORK_ERROR: nothing listening; a refused connection means not executed', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as net.AddressInfo;
        server.close(() => resolve(free));
      });
    });
    const retries: RetryEvent[] = [];
    const client = createGttClient({
      baseUrl: `http://127.0.0.1:${port}`,
      maxAttempts: 3,
      retryBaseDelayMs: 10,
      onRetry: (e) => retries.push(e),
    });
    const read = await failure(client.listOrders());
    expect(read).toMatchObject({ code: 'NETWORK_ERROR', status: undefined, outcome: undefined, attempts: 3 });
    const place = await failure(client.placeOrder(order));
    expect(place).toMatchObject({ code: 'NETWORK_ERROR', outcome: 'not_executed', attempts: 3 });
    expect(place.message).toMatch(/ECONNREFUSED/);
    expect(exitCodeFor(place)).toBe(EXIT_CODES.OUTCOME_UNKNOWN);
    expect(retries).toHaveLength(4);
  });

  it('CLIENT_TIMEOUT: per attempt, and the overall deadline bounds the retries', async () => {
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'delay', delayMs: 600, times: 10 });
    const { client, retries } = clientWith({ timeoutMs: 150, deadlineMs: 500 });
    const started = Date.now();
    const error = await failure(client.listOrders());
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(error).toMatchObject({ code: 'CLIENT_TIMEOUT', status: undefined, outcome: undefined });
    expect(error.attempts).toBeGreaterThanOrEqual(2);
    expect(retries.every((r) => r.error.code === 'CLIENT_TIMEOUT')).toBe(true);
    expect(exitCodeFor(error)).toBe(EXIT_CODES.OUTCOME_UNKNOWN);
    await control.clearFaults();
    await new Promise((r) => setTimeout(r, 700)); // let the abandoned requests finish at the gateway
  });

  it("CLIENT_ABORTED: the caller's signal ends the call", async () => {
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'delay', delayMs: 400 });
    const { client } = clientWith();
    const error = await failure(client.listOrders({}, { signal: AbortSignal.timeout(100) }));
    expect(error).toMatchObject({ code: 'CLIENT_ABORTED', attempts: 1 });
    await new Promise((r) => setTimeout(r, 500));
  });
});

describe('retry rules', () => {
  it('a place whose first attempt times out at the client is retried with the SAME key and replays: one order', async () => {
    // The broker answers after 1.2 s; the client gives each attempt 300 ms. The gateway keeps the first request
    // going, answers 409 IDEMPOTENCY_IN_PROGRESS to the retries meanwhile, then replays the stored result.
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 1_200 });
    const { client, retries } = clientWith({
      timeoutMs: 300,
      maxAttempts: 12,
      retryBaseDelayMs: 100,
      retryMaxDelayMs: 300,
      deadlineMs: 10_000,
    });
    const placed = await client.placeOrder(order);

    expect(placed).toMatchObject({ stat: 'OI created', idempotency: { replayed: true } });
    expect(retries[0]!.error.code).toBe('CLIENT_TIMEOUT');
    expect(retries.map((r) => r.error.code)).toContain('IDEMPOTENCY_IN_PROGRESS');
    expect(new Set(retries.map((r) => r.idempotencyKey))).toEqual(new Set([placed.idempotency!.key]));
    expect(await brokerCalls('PlaceGTTOrder')).toHaveLength(1);
    const orders = await ordersAtBroker();
    expect(orders).toHaveLength(1);
    expect(orders[0]!.al_id).toBe(placed.al_id);
  });

  it('when the retries run out while the first attempt is in flight, the outcome is unknown and the key is given', async () => {
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 1_000 });
    const { client } = clientWith({ timeoutMs: 200, maxAttempts: 2 });
    const error = await failure(client.placeOrder(order));
    expect(error).toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS', outcome: 'unknown', attempts: 2 });
    expect(error.message).toContain(`idempotency key ${error.idempotencyKey}`);
    expect(exitCodeFor(error)).toBe(EXIT_CODES.OUTCOME_UNKNOWN);
    // Later, the same key tells what happened: the order exists, once.
    await until(async () => (await ordersAtBroker()).length === 1);
    await until(async () => {
      const result = await client.placeOrder(order, { idempotencyKey: error.idempotencyKey! }).catch(() => undefined);
      return result?.idempotency?.replayed === true;
    });
    expect(await ordersAtBroker()).toHaveLength(1);
  });

  it('a read is retried after a 502', async () => {
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'http5xx', times: 1 });
    const { client, retries } = clientWith();
    expect(await client.listOrders()).toEqual({ orders: [] });
    expect(retries).toEqual([expect.objectContaining({ attempt: 1, idempotencyKey: undefined })]);
    expect(retries[0]!.error).toMatchObject({ code: 'BROKER_UNAVAILABLE', status: 502 });
    expect(await brokerCalls('GetPendingGTTOrder')).toHaveLength(2);
  });

  it('a read is retried after a broker timeout (504)', async () => {
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'serverTimeout', times: 1 });
    const { client, retries } = clientWith();
    expect((await client.listOrders()).orders).toEqual([]);
    expect(retries.map((r) => r.error.code)).toEqual(['BROKER_TIMEOUT']);
  });

  it('a place without a key is not retried blindly: one attempt, outcome unknown', async () => {
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'http5xx', times: 1 });
    const { client, retries } = clientWith();
    const error = await failure(client.placeOrder(order, { idempotencyKey: false }));
    expect(error).toMatchObject({
      code: 'BROKER_UNAVAILABLE',
      status: 502,
      outcome: 'unknown',
      attempts: 1,
      idempotencyKey: undefined,
    });
    expect(retries).toEqual([]);
    expect(await brokerCalls('PlaceGTTOrder')).toHaveLength(1);
  });

  it('a place without a key that times out at the client: no retry, outcome unknown, and it did go through', async () => {
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 600 });
    const { client, retries } = clientWith({ timeoutMs: 150 });
    const error = await failure(client.placeOrder(order, { idempotencyKey: false }));
    expect(error).toMatchObject({ code: 'CLIENT_TIMEOUT', outcome: 'unknown', attempts: 1 });
    expect(error.message).toMatch(/Check the pending orders/);
    expect(retries).toEqual([]);
    // Why a blind retry would be wrong: the order was placed after all.
    await until(async () => (await ordersAtBroker()).length === 1);
  });

  it('logout is never retried', async () => {
    await control.fault({ operation: 'Logout', kind: 'http5xx', times: 1 });
    const { client, retries } = clientWith({ maxAttempts: 5 });
    const error = await failure(client.logout({ maxAttempts: 5 }));
    expect(error).toMatchObject({ code: 'BROKER_UNAVAILABLE', attempts: 1 });
    expect(retries).toEqual([]);
    expect(await brokerCalls('Logout')).toHaveLength(1);
  });

  it('validation errors are never retried, whatever maxAttempts says', async () => {
    const { client, retries } = clientWith({ maxAttempts: 5 });
    await failure(client.placeOrder({ ...order, prc: '-1' }));
    await failure(client.getOrder('not-a-number'));
    expect(retries).toEqual([]);
  });
});
