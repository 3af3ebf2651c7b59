/**
 * The real handlers and the broker session: a rotated token retried once, a dead or foreign token is SESSION_EXPIRED,
 * the secret read once per max age, and a bad environment is CONFIGURATION_ERROR.
 */
import { describe, expect, it } from 'vitest';

import { createGatewayHandler } from '../../functions/orders/gateway/gateway-handler.js';
import { getEnabledGtts, getPendingGttOrders, placeGttOrder } from '../../functions/orders/operations.js';
import { invokeHttp } from '../support/events.js';
import {
  configFor,
  control,
  emulator,
  handler,
  order,
  place,
  SECRET_ID,
  secrets,
  useGatewayHandlers,
} from '../support/gateway-handlers.js';

useGatewayHandlers();

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
