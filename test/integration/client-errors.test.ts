/**
 * The typed client against the local stack: every error class reachable locally, with its HTTP status, whether
 * anything was sent or retried, and its CLI exit code.
 */
import net from 'node:net';

import { createGttClient, EXIT_CODES, exitCodeFor, type RetryEvent } from 'gtt-gateway/client';
import { describe, expect, it } from 'vitest';

import {
  brokerCalls,
  clientWith,
  control,
  failure,
  oco,
  order,
  ordersAtBroker,
  stack,
  until,
  useClientStack,
} from '../support/client-stack.js';

useClientStack();

/**
 * The requests the client gave up on still run at the gateway, held by the broker's delay: waited for until the
 * broker has answered each (its log entry no longer the delay's placeholder), so none lands in the next test.
 */
const brokerAnsweredAll = () =>
  until(async () =>
    (await brokerCalls('GetPendingGTTOrder')).every((r) => (r.reply as { stat?: string } | null)?.stat !== 'pending'),
  );

describe('every error class reachable locally', () => {
  it('VALIDATION_FAILED (400): field problems, nothing sent, exit code 2', async () => {
    const { client, retries } = clientWith();
    const error = await failure(client.placeOrder({ ...order, qty: 0 }));
    expect(error).toMatchObject({
      code: 'VALIDATION_FAILED',
      status: 400,
      outcome: 'not_executed',
      attempts: 1,
      details: [{ field: 'qty', message: expect.any(String) }],
    });
    expect(error.idempotencyKey).toEqual(expect.any(String));
    expect(exitCodeFor(error)).toBe(EXIT_CODES.USAGE);
    expect(retries).toEqual([]);
    expect(await control.requests()).toEqual([]);
  });

  it("every VALIDATION_FAILED says outcome not_executed, the schema's own refusals (qty 0, an unknown side) included", async () => {
    const post = async (body: unknown, path = '/gtt-orders') => {
      const res = await fetch(`${stack.api.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, error: ((await res.json()) as { error: Record<string, unknown> }).error };
    };
    for (const body of [
      { ...order, qty: 0 },
      { ...order, trantype: 'X' },
      { ...order, prctyp: 'LIMIT' },
    ]) {
      const { status, error } = await post(body);
      expect(status).toBe(400);
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', outcome: 'not_executed' });
    }
    const leg = await post(
      { ...oco, target: { ...oco.target, order: { ...oco.target.order, trantype: 'Z' } } },
      '/gtt-orders/oco',
    );
    expect(leg).toMatchObject({ status: 400, error: { code: 'VALIDATION_FAILED', outcome: 'not_executed' } });
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

  it('CLIENT_TIMEOUT: per attempt, and the overall deadline ends the retries before the attempts run out', async () => {
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'delay', delayMs: 600, times: 20 });
    // Twenty attempts allowed, each given up after 150 ms: they cannot all fit in the 2 s deadline, however fast or
    // loaded the machine, so fewer than twenty is the deadline's doing (a count, not a stopwatch).
    const { client, retries } = clientWith({ timeoutMs: 150, deadlineMs: 2_000, maxAttempts: 20 });
    const error = await failure(client.listOrders());
    expect(error).toMatchObject({ code: 'CLIENT_TIMEOUT', status: undefined, outcome: undefined });
    expect(error.attempts).toBeGreaterThanOrEqual(2);
    expect(error.attempts).toBeLessThan(20);
    expect(retries.every((r) => r.error.code === 'CLIENT_TIMEOUT')).toBe(true);
    expect(exitCodeFor(error)).toBe(EXIT_CODES.OUTCOME_UNKNOWN);
    await control.clearFaults();
    await brokerAnsweredAll();
  });

  it("CLIENT_ABORTED: the caller's signal ends the call", async () => {
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'delay', delayMs: 400 });
    const { client } = clientWith();
    const error = await failure(client.listOrders({}, { signal: AbortSignal.timeout(100) }));
    expect(error).toMatchObject({ code: 'CLIENT_ABORTED', attempts: 1 });
    await brokerAnsweredAll();
  });
});
