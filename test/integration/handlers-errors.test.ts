/**
 * The real handlers' error contract against the broker emulator: bad input never reaches the broker, and every
 * broker fault (timeouts, rejections, an unreachable broker) maps to its code, in both entry shapes.
 */
import { describe, expect, it } from 'vitest';

import { startEmulator } from '../../emulator/server.js';
import { createGatewayHandler } from '../../functions/orders/gateway/gateway-handler.js';
import { getEnabledGtts, getPendingGttOrders, placeGttOrder } from '../../functions/orders/operations.js';
import { lambdaContext } from '../../local/lambda-context.js';
import { type EmulatorControl } from '../support/emulator-control.js';
import { httpApiEvent, invokeDirect, invokeHttp } from '../support/events.js';
import {
  configFor,
  control,
  emulator,
  handler,
  order,
  place,
  SECRET_ID,
  TIMEOUT_MS,
  useGatewayHandlers,
} from '../support/gateway-handlers.js';

useGatewayHandlers();

describe('bad input never reaches the broker', () => {
  it.each<[string, unknown]>([
    ['missing fields', {}],
    ['bad enum', { ...order, exch: 'NYSE' }],
    ['negative qty', { ...order, qty: -1 }],
    ['market order with a price', { ...order, prctyp: 'MKT', prc: 10 }],
    ['uid from the caller', { ...order, uid: 'SOMEONE' }],
    ['malformed JSON', '{"exch":'],
    ['JSON array', '[]'],
  ])('%s -> 400 VALIDATION_FAILED, no broker call', async (_label, body) => {
    const reply = await place(body);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: { code: 'VALIDATION_FAILED', message: expect.any(String) } });
    expect(await control.requests()).toEqual([]);
  });
});

describe('broker faults map to the error contract', () => {
  it.each<[string, Parameters<EmulatorControl['fault']>[0], number, string, string | undefined]>([
    [
      'delay beyond our timeout',
      { operation: 'PlaceGTTOrder', kind: 'delay', delayMs: TIMEOUT_MS * 4 },
      504,
      'BROKER_TIMEOUT',
      'unknown',
    ],
    ['HTTP 503', { operation: 'PlaceGTTOrder', kind: 'http5xx', status: 503 }, 502, 'BROKER_UNAVAILABLE', 'unknown'],
    ['non-JSON body', { operation: 'PlaceGTTOrder', kind: 'nonJson' }, 502, 'BROKER_BAD_REPLY', 'unknown'],
    ['dropped connection', { operation: 'PlaceGTTOrder', kind: 'drop' }, 502, 'BROKER_UNAVAILABLE', 'unknown'],
    ['Server Timeout reply', { operation: 'PlaceGTTOrder', kind: 'serverTimeout' }, 504, 'BROKER_TIMEOUT', 'unknown'],
    ['rate limit', { operation: 'PlaceGTTOrder', kind: 'rateLimit' }, 429, 'RATE_LIMITED', 'not_executed'],
    [
      'other Not_Ok',
      { operation: 'PlaceGTTOrder', kind: 'notOk', message: 'Invalid Input : RED:Margin Shortfall' },
      422,
      'BROKER_REJECTED',
      'not_executed',
    ],
  ])('%s', async (_label, fault, status, code, outcome) => {
    await control.fault(fault);
    const reply = await place();
    expect(reply.status).toBe(status);
    expect(reply.body).toMatchObject({ error: { code, ...(outcome ? { outcome } : {}) } });
    if (outcome === 'unknown') {
      expect((reply.body as { error: { message: string } }).error.message).toMatch(/check the pending orders/);
    }
  });

  it('a timeout after the broker acted leaves exactly one order and says the outcome is unknown', async () => {
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: TIMEOUT_MS * 4, executed: true });
    const reply = await place();
    expect(reply.body).toMatchObject({ error: { code: 'BROKER_TIMEOUT', outcome: 'unknown' } });
    expect((await control.orders(emulator.uid)).filter((o) => o.state === 'pending')).toHaveLength(1);
    // The gateway itself never retried the place.
    expect((await control.requests()).filter((r) => r.operation === 'PlaceGTTOrder')).toHaveLength(1);
  });

  it('Invalid Input answered with HTTP 400 is still read from the body', async () => {
    await control.switches({ invalidInputAs400: true });
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'notOk', message: 'Invalid Input : qty is Missing' });
    const reply = await place();
    expect(reply).toMatchObject({
      status: 422,
      body: { error: { code: 'BROKER_REJECTED', brokerMessage: 'Invalid Input : qty is Missing' } },
    });
    // The broker's words are in brokerMessage only: the message is the gateway's own sentence.
    const { message } = (reply.body as { error: { message: string } }).error;
    expect(message).not.toContain('qty is Missing');
    expect(message).toMatch(/brokerMessage/);
  });

  it('read operations have no outcome field and map the same way', async () => {
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'http5xx', status: 500 });
    const reply = await invokeHttp(handler(getPendingGttOrders), getPendingGttOrders);
    expect(reply.status).toBe(502);
    expect((reply.body as { error: Record<string, unknown> }).error.outcome).toBeUndefined();
  });

  it("the broker timeout is capped by what is left of the invocation, so our timeout fires before Lambda's", async () => {
    await control.fault({ operation: 'GetEnabledGTTs', kind: 'delay', delayMs: 5_000 });
    const h = createGatewayHandler(getEnabledGtts, { config: configFor(SECRET_ID, { BROKER_TIMEOUT_MS: 8_000 }) });
    // The broker answers after 5 s, within the configured 8 s: only the cap (1.6 s left of the invocation) makes it
    // a timeout, so a 504 here proves the cap (without it the call would succeed).
    const reply = (await h(httpApiEvent(getEnabledGtts), lambdaContext('GetEnabledGTTs', 1_600))) as {
      statusCode: number;
      body: string;
    };
    expect(reply.statusCode).toBe(504);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: 'BROKER_TIMEOUT' } });
  });

  it('an unreachable broker is BROKER_UNAVAILABLE and certainly not executed', async () => {
    const closed = await startEmulator({ port: 0 });
    const url = closed.url;
    await closed.close();
    const h = createGatewayHandler(placeGttOrder, { config: configFor(SECRET_ID, { BROKER_BASE_URL: url }) });
    const reply = await invokeHttp(h, placeGttOrder, { body: order });
    expect(reply).toMatchObject({
      status: 502,
      body: { error: { code: 'BROKER_UNAVAILABLE', outcome: 'not_executed' } },
    });
  });

  it('direct invocations throw the PascalCase name of each code', async () => {
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: TIMEOUT_MS * 4 });
    expect(await invokeDirect(handler(placeGttOrder), placeGttOrder, order)).toMatchObject({
      ok: false,
      name: 'BrokerTimeout',
    });
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'rateLimit' });
    expect(await invokeDirect(handler(placeGttOrder), placeGttOrder, order)).toMatchObject({
      ok: false,
      name: 'RateLimited',
    });
    await control.fault({ operation: 'GetPendingGTTOrder', kind: 'http5xx' });
    expect(await invokeDirect(handler(getPendingGttOrders), getPendingGttOrders, {})).toMatchObject({
      ok: false,
      name: 'BrokerUnavailable',
    });
  });
});
