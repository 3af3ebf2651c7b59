/**
 * The typed client's retry rules against the local stack: the same Idempotency-Key on every retry of a call, retries
 * only where safe, never for a keyless place, logout or a validation error.
 */
import { EXIT_CODES, exitCodeFor } from 'gtt-gateway/client';
import { describe, expect, it } from 'vitest';

import {
  brokerCalls,
  clientWith,
  control,
  failure,
  order,
  ordersAtBroker,
  until,
  useClientStack,
} from '../support/client-stack.js';

useClientStack();

describe('retry rules', () => {
  it('a place whose first attempt times out at the client is retried with the SAME key and replays: one order', async () => {
    // The broker answers after 2 s; the client gives each attempt 800 ms (time enough for the gateway's 409 on a
    // loaded machine). The gateway keeps the first request going, answers 409 IDEMPOTENCY_IN_PROGRESS to the
    // retries meanwhile, then replays the stored result.
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 2_000 });
    const { client, retries } = clientWith({
      timeoutMs: 800,
      maxAttempts: 40,
      retryBaseDelayMs: 100,
      retryMaxDelayMs: 300,
      deadlineMs: 60_000,
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
    // The first attempt times out (the broker holds it 3 s); the second gets the gateway's 409 (given 1 s for it).
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 3_000 });
    const { client } = clientWith({ timeoutMs: 1_000, maxAttempts: 2 });
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
    expect(await client.listOrders()).toEqual({ orders: [], asOf: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
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
