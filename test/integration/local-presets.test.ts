/**
 * Broker presets under the local stack (`npm start -- --broker NAME [--session-renewal totp]`): the preset's paths,
 * token style and login flow on the emulator's address, and the scheduled session functions rehearsed on demand
 * (`POST /_local/run/<Function>`).
 */
import { afterEach, describe, expect, it } from 'vitest';

import { localBroker } from '../../local/broker-preset.js';
import { LOCAL_RUN_PREFIX, type LocalStack, startLocalStack } from '../../local/run-local.js';
import { signInAsDemo } from '../support/emulator-control.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const order = SAMPLE_ORDER;
const place = (api: string, key: string) =>
  fetch(`${api}/gtt-orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(order),
  });
const getJson = async (url: string, init?: RequestInit) => {
  const res = await fetch(url, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('presets on the emulator', () => {
  it('maps each preset onto the emulator: its path prefix, token style and login page', () => {
    expect(localBroker('shoonya', 'http://127.0.0.1:9')).toMatchObject({
      baseUrl: 'http://127.0.0.1:9/NorenWClientAPI',
      auth: 'bearer',
      login: 'oauth',
      authorizeUrl: 'http://127.0.0.1:9/OAuthlogin/authorize/oauth?client_id={clientId}',
    });
    expect(localBroker('shoonya', 'http://127.0.0.1:9', true)).toMatchObject({
      baseUrl: 'http://127.0.0.1:9/NorenWClientTP',
      auth: 'jkey',
      totp: true,
    });
    expect(localBroker('flattrade', 'http://127.0.0.1:9')).toMatchObject({
      baseUrl: 'http://127.0.0.1:9/PiConnectTP',
      auth: 'jkey',
      login: 'flattrade',
      authorizeUrl: 'http://127.0.0.1:9/?app_key={clientId}',
      tokenUrl: 'http://127.0.0.1:9/trade/apitoken',
    });
    expect(() => localBroker('flattrade', 'http://127.0.0.1:9', true)).toThrow(/no TOTP/);
    expect(() => localBroker('nosuch', 'http://127.0.0.1:9')).toThrow(
      /broker must be one of shoonya, zebu, flattrade, tradesmart, custom/,
    );
  });

  it('--broker flattrade: orders go as jKey on /PiConnectTP, and the Flattrade login round trip renews the session', async () => {
    stack = await startLocalStack({ broker: 'flattrade' });
    const api = stack.api.url;
    expect((await place(api, 'ft-1')).status).toBe(201);
    const requests = (await getJson(`${stack.emulator.url}/_emulator/requests`)).body.requests as {
      path: string;
      authorization: string | null;
      operation: string;
    }[];
    const placed = requests.find((r) => r.operation === 'PlaceGTTOrder')!;
    expect(placed.path).toBe('/PiConnectTP/PlaceGTTOrder');
    expect(placed.authorization).toBeNull();

    const start = await getJson(`${api}/session/oauth/start`);
    expect(String(start.body.authorizeUrl)).toMatch(new RegExp(`^${stack.emulator.url}/\\?app_key=DEMO01_U&state=`));
    const redirect = await signInAsDemo(stack.emulator, String(start.body.authorizeUrl));
    expect(redirect.searchParams.get('client')).toBe('DEMO01');
    expect((await getJson(redirect.toString())).body).toMatchObject({ stat: 'Ok', method: 'flattrade' });
    expect((await getJson(`${api}/session`)).body).toMatchObject({ alive: true, method: 'flattrade' });
    expect((await place(api, 'ft-2')).status).toBe(201);
  });

  it('--session-renewal totp: SessionRenewal and SessionHealth rehearsed on demand, jKey sessions on the classic path', async () => {
    stack = await startLocalStack({ broker: 'shoonya', sessionRenewal: true });
    const api = stack.api.url;
    const renewed = await getJson(`${api}${LOCAL_RUN_PREFIX}SessionRenewal`, { method: 'POST' });
    expect(renewed).toMatchObject({ status: 200, body: { stat: 'Ok', method: 'totp', uid: 'DEMO01' } });
    const health = await getJson(`${api}${LOCAL_RUN_PREFIX}SessionHealth`, { method: 'POST' });
    expect(health).toMatchObject({ status: 200, body: { alive: true, method: 'totp' } });
    expect((await place(api, 'totp-1')).status).toBe(201);
    const requests = (await getJson(`${stack.emulator.url}/_emulator/requests`)).body.requests as {
      path: string;
      operation: string;
    }[];
    expect(requests.find((r) => r.operation === 'PlaceGTTOrder')!.path).toBe('/NorenWClientTP/PlaceGTTOrder');
  });

  it('without --session-renewal there is no SessionRenewal to rehearse (as deployed)', async () => {
    stack = await startLocalStack({});
    expect((await fetch(`${stack.api.url}${LOCAL_RUN_PREFIX}SessionRenewal`, { method: 'POST' })).status).toBe(404);
    // The health check is rehearsed, and reads the emulator's demo session as alive.
    expect((await getJson(`${stack.api.url}${LOCAL_RUN_PREFIX}SessionHealth`, { method: 'POST' })).body).toMatchObject({
      alive: true,
      uid: 'DEMO01',
    });
  });
});
