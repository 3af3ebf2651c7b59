/**
 * Every operation through its real handler, in both entry shapes, against the broker emulator over 127.0.0.1 and
 * the local Secrets Manager endpoint reached by the real SDK client.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import type { AnyOperation } from '../../functions/contract/operation.js';
import { createGatewayHandler } from '../../functions/gateway/gateway-handler.js';
import { OPERATIONS } from '../../functions/manifest/index.js';
import {
  cancelGttOrder,
  clientDetails,
  getEnabledGtts,
  getPendingGttOrders,
  logout,
  modifyGttOrder,
  placeGttOrder,
} from '../../functions/operations.js';
import type { GatewaySettings } from '../../functions/runtime/config.js';
import { lambdaContext } from '../../local/lambda-context.js';
import { useLocalAwsEnvironment } from '../../local/run-local.js';
import { type LocalSecretsManager, startLocalSecretsManager } from '../../local/secrets-manager.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { httpApiEvent, invokeDirect, invokeHttp } from '../support/events.js';
import { wireGtt } from '../support/wire-order.js';

const SECRET_ID = 'it/broker-session';
const TIMEOUT_MS = 700;

let emulator: RunningEmulator;
let secrets: LocalSecretsManager;
let control: EmulatorControl;

const order = {
  exch: 'NSE',
  tsym: 'M&M-EQ',
  qty: 5,
  prc: '1500.50',
  prd: 'C',
  trantype: 'B',
  prctyp: 'LMT',
  ret: 'DAY',
  ai_t: 'LTP_B_O',
  d: 1490,
};

const configFor = (secretId: string, overrides: GatewaySettings = {}): GatewaySettings => ({
  BROKER_BASE_URL: emulator.url,
  BROKER_SECRET_ID: secretId,
  BROKER_TIMEOUT_MS: TIMEOUT_MS,
  SECRET_MAX_AGE_SECONDS: 300,
  SECRETS_MANAGER_ENDPOINT: secrets.url,
  // Idempotency has its own suite (idempotency.test.ts, with dynalite); here place runs without a key.
  IDEMPOTENCY_KEY_REQUIRED: false,
  ...overrides,
});

const handlersFor = (config: GatewaySettings) => {
  const map = new Map(OPERATIONS.map((op) => [op.name, createGatewayHandler(op, { config })]));
  return (op: AnyOperation) => map.get(op.name)!;
};

let handler: ReturnType<typeof handlersFor>;

beforeAll(async () => {
  useLocalAwsEnvironment();
  emulator = await startEmulator({ port: 0 });
  secrets = await startLocalSecretsManager();
  control = emulatorControl(emulator.url);
  handler = handlersFor(configFor(SECRET_ID));
});

afterAll(async () => {
  await secrets?.close();
  await emulator?.close();
});

beforeEach(async () => {
  await control.reset();
  secrets.setSecret(
    SECRET_ID,
    JSON.stringify({ accessToken: emulator.token, uid: emulator.uid, actid: emulator.actid }),
  );
  // A new handler set per test: the secret cache is per container, and each test starts a fresh one.
  handler = handlersFor(configFor(SECRET_ID));
});

const place = async (body: unknown = order) => invokeHttp(handler(placeGttOrder), placeGttOrder, { body });

describe('every operation of the table over HTTP events', () => {
  it('places a GTT order: 201 with the new al_id, and the exact wire format at the broker', async () => {
    const reply = await place();
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ stat: 'OI created', al_id: expect.stringMatching(/^\d+$/) });

    // Before it, the exchange's rules may be read (SearchScrip, GetQuotes, GetSecurityInfo, cached per container):
    // the order is the one write.
    const reads = ['SearchScrip', 'GetQuotes', 'GetSecurityInfo'];
    const [request] = (await control.requests()).filter((r) => !reads.includes(r.operation ?? ''));
    expect(request).toMatchObject({
      method: 'POST',
      path: '/ClientAPI/PlaceGTTOrder',
      contentType: 'text/plain',
      authorization: 'Bearer <redacted>',
      authUid: emulator.uid,
      bodyContainedToken: false,
    });
    expect(request!.body).toBe(
      `jData=${JSON.stringify(wireGtt({ tsym: 'M%26M-EQ', qty: '5', prc: '1500.50', d: '1490' }, emulator))}`,
    );
  });

  it('lists pending orders with the real symbol and qty as a number; an empty account is []', async () => {
    expect((await invokeHttp(handler(getPendingGttOrders), getPendingGttOrders)).body).toEqual({ orders: [] });
    const placed = (await place()).body as { al_id: string };
    const list = await invokeHttp(handler(getPendingGttOrders), getPendingGttOrders);
    expect(list.status).toBe(200);
    const orders = (list.body as { orders: Record<string, unknown>[] }).orders;
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      al_id: placed.al_id,
      tsym: 'M&M-EQ',
      qty: 5,
      prc: '1500.50',
      d: '1490',
      stat: 'Ok',
    });
  });

  it('lists the enabled GTT types', async () => {
    const reply = await invokeHttp(handler(getEnabledGtts), getEnabledGtts);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ stat: 'Ok', ai_ts: expect.arrayContaining([{ ai_t: 'LTP_B_O' }]) });
  });

  it('modifies through PUT /gtt-orders/{alId} and the change is visible in the pending list', async () => {
    const { al_id } = (await place()).body as { al_id: string };
    const reply = await invokeHttp(handler(modifyGttOrder), modifyGttOrder, {
      pathParameters: { alId: al_id },
      body: { ...order, qty: 7, d: '1480.5' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ stat: 'OI replaced', al_id });
    const { orders } = (await invokeHttp(handler(getPendingGttOrders), getPendingGttOrders)).body as {
      orders: { qty: number; d: string }[];
    };
    expect(orders[0]).toMatchObject({ qty: 7, d: '1480.5' });
    const logged = (await control.requests()).find((r) => r.operation === 'ModifyGTTOrder');
    expect(Object.keys(logged!.jData!)).toEqual([
      'uid',
      'actid',
      'exch',
      'tsym',
      'al_id',
      'ai_t',
      'validity',
      'd',
      'trantype',
      'prctyp',
      'prd',
      'ret',
      'qty',
      'prc',
    ]);
  });

  it('rejects a body al_id that differs from the path, without calling the broker', async () => {
    const reply = await invokeHttp(handler(modifyGttOrder), modifyGttOrder, {
      pathParameters: { alId: '123' },
      body: { ...order, al_id: '456' },
    });
    expect(reply.status).toBe(400);
    expect(await control.requests()).toEqual([]);
  });

  it('modify and cancel of an unknown al_id are ORDER_NOT_FOUND (404)', async () => {
    const modify = await invokeHttp(handler(modifyGttOrder), modifyGttOrder, {
      pathParameters: { alId: '999' },
      body: order,
    });
    expect(modify.status).toBe(404);
    expect(modify.body).toMatchObject({ error: { code: 'ORDER_NOT_FOUND', outcome: 'not_executed' } });
    const cancel = await invokeHttp(handler(cancelGttOrder), cancelGttOrder, { pathParameters: { alId: '999' } });
    expect(cancel.status).toBe(404);
  });

  it('cancels through DELETE /gtt-orders/{alId}; a second cancel is ORDER_NOT_FOUND', async () => {
    const { al_id } = (await place()).body as { al_id: string };
    const first = await invokeHttp(handler(cancelGttOrder), cancelGttOrder, { pathParameters: { alId: al_id } });
    expect(first).toMatchObject({ status: 200, body: { stat: 'OI deleted', al_id } });
    const second = await invokeHttp(handler(cancelGttOrder), cancelGttOrder, { pathParameters: { alId: al_id } });
    expect(second).toMatchObject({ status: 404, body: { error: { code: 'ORDER_NOT_FOUND' } } });
  });

  it('reads client details for the secret account', async () => {
    const reply = await invokeHttp(handler(clientDetails), clientDetails);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ stat: 'Ok', actid: emulator.actid, exarr: expect.arrayContaining(['NSE']) });
    const [request] = await control.requests();
    expect(request!.jData).toEqual({ uid: emulator.uid, actid: emulator.actid });
  });

  it('logs out; afterwards every call is SESSION_EXPIRED', async () => {
    const reply = await invokeHttp(handler(logout), logout);
    expect(reply).toMatchObject({ status: 200, body: { stat: 'Ok' } });
    for (const op of [getPendingGttOrders, clientDetails, getEnabledGtts]) {
      const after = await invokeHttp(handler(op), op);
      expect(after.status).toBe(503);
      // A warm container meets the broker's refusal and re-reads; a cold one reads the mark and sends nothing.
      expect(after.body).toMatchObject({
        error: { code: 'SESSION_EXPIRED', message: expect.stringMatching(/logged out/) },
      });
    }
    const placeAfter = await place();
    expect(placeAfter.body).toMatchObject({ error: { code: 'SESSION_EXPIRED', outcome: 'not_executed' } });
  });
});

describe('direct invocation (Step Functions / EventBridge)', () => {
  it('returns the reply object itself', async () => {
    const placed = await invokeDirect(handler(placeGttOrder), placeGttOrder, order);
    expect(placed).toMatchObject({ ok: true, result: { stat: 'OI created' } });
    const listed = await invokeDirect(handler(getPendingGttOrders), getPendingGttOrders, {});
    expect(listed).toMatchObject({ ok: true, result: { orders: [{ tsym: 'M&M-EQ' }] } });
  });

  it('takes the payload from an EventBridge event detail', async () => {
    const event = { version: '0', id: 'e1', 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} };
    expect(await invokeDirect(handler(getPendingGttOrders), getPendingGttOrders, event)).toMatchObject({ ok: true });
  });

  it('accepts al_id in the payload for modify and cancel', async () => {
    const placed = await invokeDirect(handler(placeGttOrder), placeGttOrder, order);
    const al_id = (placed as { result: { al_id: string } }).result.al_id;
    expect(await invokeDirect(handler(modifyGttOrder), modifyGttOrder, { ...order, al_id, qty: 2 })).toMatchObject({
      ok: true,
      result: { stat: 'OI replaced' },
    });
    expect(await invokeDirect(handler(cancelGttOrder), cancelGttOrder, { al_id })).toMatchObject({
      ok: true,
      result: { al_id },
    });
  });

  it('fails with named errors a Step Functions Catch can match', async () => {
    expect(await invokeDirect(handler(cancelGttOrder), cancelGttOrder, { al_id: '1' })).toMatchObject({
      ok: false,
      name: 'OrderNotFound',
      error: { code: 'ORDER_NOT_FOUND' },
    });
    expect(await invokeDirect(handler(placeGttOrder), placeGttOrder, { ...order, qty: 0 })).toMatchObject({
      ok: false,
      name: 'ValidationFailed',
      error: { code: 'VALIDATION_FAILED', details: [{ field: 'qty' }] },
    });
    expect(await invokeDirect(handler(placeGttOrder), placeGttOrder, 'not an object')).toMatchObject({
      ok: false,
      name: 'ValidationFailed',
    });
  });
});

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

describe('session expiry and the secret', () => {
  it('retries once with a rotated token and succeeds', async () => {
    // Warm this function's cache with the current token, then rotate: new session, new secret, old token dead.
    expect((await place()).status).toBe(201);
    const fresh = await control.newSession(emulator.uid);
    secrets.setSecret(
      SECRET_ID,
      JSON.stringify({ accessToken: fresh.token, uid: emulator.uid, actid: emulator.actid }),
    );
    await control.expire(emulator.token);
    await control.clearRequests();

    const reply = await place();
    expect(reply.status).toBe(201);
    const requests = await control.requests();
    expect(requests.map((r) => r.authUid)).toEqual([null, emulator.uid]);
    expect((requests[0]!.reply as { emsg: string }).emsg).toBe('Session Expired :  Invalid Session Key');
    expect((await control.orders(emulator.uid)).filter((o) => o.state === 'pending')).toHaveLength(2);
  });

  it('fails with SESSION_EXPIRED when the secret still holds the dead token (one broker call)', async () => {
    await control.expire(emulator.token);
    const reply = await place();
    expect(reply.status).toBe(503);
    expect(reply.body).toMatchObject({
      error: { code: 'SESSION_EXPIRED', message: expect.stringMatching(/store a fresh token/) },
    });
    expect(await control.requests()).toHaveLength(1);
  });

  it('a uid in the secret that is not the token user is SESSION_EXPIRED (Invalid User Id)', async () => {
    secrets.setSecret(SECRET_ID, JSON.stringify({ accessToken: emulator.token, uid: 'NOTME', actid: emulator.actid }));
    const reply = await invokeHttp(handler(getPendingGttOrders), getPendingGttOrders);
    expect(reply.body).toMatchObject({
      error: { code: 'SESSION_EXPIRED', brokerMessage: 'Session Expired :  Invalid User Id' },
    });
  });

  it('reads the secret once for many warm invocations, and again after its max age', async () => {
    const id = 'it/cache-check';
    secrets.setSecret(id, JSON.stringify({ accessToken: emulator.token, uid: emulator.uid, actid: emulator.actid }));
    const h = createGatewayHandler(getEnabledGtts, { config: configFor(id, { SECRET_MAX_AGE_SECONDS: 1 }) });
    for (let i = 0; i < 20; i++) expect((await invokeHttp(h, getEnabledGtts)).status).toBe(200);
    expect(secrets.getCallCount(id)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await invokeHttp(h, getEnabledGtts)).status).toBe(200);
    expect(secrets.getCallCount(id)).toBe(2);
  });

  it.each<[string, string | undefined, RegExp]>([
    ['missing secret', undefined, /Could not read the broker session secret "it\/bad".*ResourceNotFoundException/],
    ['not JSON', 'tok-plain-text-123', /is not valid JSON/],
    ['wrong shape', JSON.stringify({ token: 'tok-wrong-shape-123' }), /accessToken/],
  ])('a %s is CONFIGURATION_ERROR without echoing the secret', async (_label, value, message) => {
    secrets.deleteSecret('it/bad');
    if (value !== undefined) secrets.setSecret('it/bad', value);
    const h = createGatewayHandler(placeGttOrder, { config: configFor('it/bad') });
    const reply = await invokeHttp(h, placeGttOrder, { body: order });
    expect(reply.status).toBe(500);
    const error = (reply.body as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('CONFIGURATION_ERROR');
    expect(error.message).toMatch(message);
    expect(JSON.stringify(reply.body)).not.toMatch(/tok-/);
    expect(await control.requests()).toEqual([]);
  });

  it('a bad environment is CONFIGURATION_ERROR naming the variable', async () => {
    const h = createGatewayHandler(getPendingGttOrders, {
      env: { BROKER_SECRET_ID: 'x', BROKER_BASE_URL: 'ftp://nope' },
    });
    const reply = await invokeHttp(h, getPendingGttOrders);
    expect(reply).toMatchObject({
      status: 500,
      body: { error: { code: 'CONFIGURATION_ERROR', message: expect.stringMatching(/BROKER_BASE_URL/) } },
    });
  });
});
