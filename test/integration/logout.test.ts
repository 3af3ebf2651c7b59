/**
 * Logout ends the session everywhere: through the real handlers (one per "container", each with its own cached
 * secret), the emulator over 127.0.0.1 and the local Secrets Manager reached by the real SDK client. A container
 * still holding an older token meets the broker's `Session Expired`, re-reads the secret, finds it logged out and
 * stops; a new container answers SESSION_EXPIRED without calling the broker; a login clears the mark.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import type { GatewaySettings } from '../../functions/base/runtime/config.js';
import { createGatewayHandler } from '../../functions/orders/gateway/gateway-handler.js';
import { clientDetails, logout, placeGttOrder } from '../../functions/orders/operations.js';
import { createSessionHealthCheck } from '../../functions/session/health.js';
import { createSessionRenewal } from '../../functions/session/totp-login.js';
import { useLocalAwsEnvironment } from '../../local/run-local.js';
import { type LocalSecretsManager, startLocalSecretsManager } from '../../local/secrets-manager.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { invokeDirect } from '../support/events.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

const SESSION = 'it/logout-session';
const LOGIN = 'it/logout-login';

let emulator: RunningEmulator;
let secrets: LocalSecretsManager;
let control: EmulatorControl;
const logger = new Logger({ serviceName: 'logout-it', logLevel: 'SILENT' });

const order = { ...SAMPLE_ORDER, d: 1490 };

// A classic deployment: the TOTP renewal (QuickAuth) issues jKey sessions, so every call sends the token as jKey.
const config = (): GatewaySettings => ({
  BROKER_BASE_URL: emulator.url,
  BROKER_AUTH: 'jkey',
  BROKER_SECRET_ID: SESSION,
  BROKER_TIMEOUT_MS: 2000,
  // Containers keep their cached secret for five minutes: nothing in these tests waits for that.
  SECRET_MAX_AGE_SECONDS: 300,
  SECRETS_MANAGER_ENDPOINT: secrets.url,
  IDEMPOTENCY_KEY_REQUIRED: false,
});
const sessionEnv = () => ({
  BROKER_BASE_URL: emulator.url,
  BROKER_AUTH: 'jkey',
  BROKER_SECRET_ID: SESSION,
  BROKER_TIMEOUT_MS: '2000',
  LOGIN_SECRET_ID: LOGIN,
  SECRETS_MANAGER_ENDPOINT: secrets.url,
});

/** A new warm "container" of an operation: its handler has read (and cached) the secret as it is now. */
const container = async <T extends typeof placeGttOrder | typeof logout | typeof clientDetails>(operation: T) => {
  const handler = createGatewayHandler(operation, { config: config(), prefetchSession: true });
  // The prefetch read is done once the secret has been read: a read-only call of ours would not warm it.
  await new Promise((resolve) => setTimeout(resolve, 0));
  return handler;
};
const place = (handler: ReturnType<typeof createGatewayHandler>) => invokeDirect(handler, placeGttOrder, order);
const secret = () =>
  JSON.parse(secrets.getSecret(SESSION)!) as { accessToken?: string; loggedOutAt?: string; uid: string };
const renew = () => createSessionRenewal({ env: sessionEnv(), logger })();
const brokerCalls = async (operation: string) => (await control.requests()).filter((r) => r.operation === operation);
/** Asks the broker directly whether a token still works (ClientDetails with it). */
const tokenWorks = async (token: string): Promise<boolean> => {
  const res = await fetch(`${emulator.url}/NorenWClientTP/ClientDetails`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: `jData=${JSON.stringify({ uid: emulator.uid, actid: emulator.actid })}&jKey=${token}`,
  });
  return ((await res.json()) as { stat: string }).stat === 'Ok';
};

beforeAll(async () => {
  useLocalAwsEnvironment();
  emulator = await startEmulator({ port: 0, demoTokenStyle: 'jkey' });
  control = emulatorControl(emulator.url);
  secrets = await startLocalSecretsManager({
    secrets: {
      [LOGIN]: JSON.stringify({
        uid: emulator.uid,
        password: emulator.login.password,
        totpSeed: emulator.login.totpSeed,
        apiSecret: emulator.login.apiSecret,
      }),
    },
  });
});

afterAll(async () => {
  await emulator?.close();
  await secrets?.close();
});

beforeEach(async () => {
  await control.reset();
  await control.clearFaults();
  secrets.setSecret(SESSION, JSON.stringify({ accessToken: emulator.token, uid: emulator.uid, actid: emulator.actid }));
});

describe('Logout ends the session for every container', () => {
  it('after a renewal: Logout (200), then a place from another warm container is SESSION_EXPIRED, nothing placed', async () => {
    const oldPlacer = await container(placeGttOrder);
    const logoutFn = await container(logout);
    expect(await place(oldPlacer)).toMatchObject({ ok: true });
    const oldToken = secret().accessToken!;

    await renew();
    const newToken = secret().accessToken!;
    expect(newToken).not.toBe(oldToken);
    const newPlacer = await container(placeGttOrder);
    expect(await place(newPlacer)).toMatchObject({ ok: true });

    // The Logout container still caches the old token; the secret holds the new one.
    expect(await invokeDirect(logoutFn, logout, {})).toMatchObject({ ok: true, result: { stat: 'Ok' } });
    expect(secret()).toMatchObject({ uid: emulator.uid, accessToken: '', loggedOutAt: expect.any(String) });
    expect(await tokenWorks(newToken)).toBe(false);
    expect(await tokenWorks(oldToken)).toBe(false);

    await control.clearRequests();
    // Warm containers with either token: the broker refuses it, the re-read finds the mark, nothing is retried.
    for (const placer of [oldPlacer, newPlacer]) {
      const reply = await place(placer);
      expect(reply).toMatchObject({ ok: false, error: { code: 'SESSION_EXPIRED', outcome: 'not_executed' } });
    }
    expect(await brokerCalls('PlaceGTTOrder')).toHaveLength(2);
    // A new container: SESSION_EXPIRED without any broker call.
    await control.clearRequests();
    const cold = await container(placeGttOrder);
    expect(await place(cold)).toMatchObject({ ok: false, error: { code: 'SESSION_EXPIRED' } });
    expect(await invokeDirect(await container(clientDetails), clientDetails, {})).toMatchObject({
      ok: false,
      error: { code: 'SESSION_EXPIRED' },
    });
    expect(await control.requests()).toHaveLength(0);
    expect(await control.orders(emulator.uid)).toHaveLength(2);
  });

  it('a Logout the broker refused leaves no stale token behind: the next Logout ends the token in the secret', async () => {
    const logoutFn = await container(logout);
    await renew();
    const inSecret = secret().accessToken!;
    expect(await tokenWorks(inSecret)).toBe(true);
    await control.fault({ operation: 'Logout', kind: 'notOk', message: 'Logout refused for now', times: 1 });
    const refused = await invokeDirect(logoutFn, logout, {});
    expect(refused).toMatchObject({ ok: false, error: { code: 'BROKER_REJECTED' } });
    // Refused: the secret is untouched and its token still works.
    expect(secret().accessToken).toBe(inSecret);
    expect(await tokenWorks(inSecret)).toBe(true);

    expect(await invokeDirect(logoutFn, logout, {})).toMatchObject({ ok: true, result: { stat: 'Ok' } });
    expect(await tokenWorks(inSecret)).toBe(false);
    await control.clearRequests();
    expect(await place(await container(placeGttOrder))).toMatchObject({
      ok: false,
      error: { code: 'SESSION_EXPIRED' },
    });
    expect(await control.requests()).toHaveLength(0);
    // Once more: already logged out, nothing left to end, nothing sent.
    const again = await invokeDirect(await container(logout), logout, {});
    expect(again).toMatchObject({ ok: false, error: { code: 'SESSION_EXPIRED', outcome: 'not_executed' } });
    expect(await control.requests()).toHaveLength(0);
  });

  it('a login after a logout clears the mark: even a warm container that cached the mark trades again at once', async () => {
    const placer = await container(placeGttOrder);
    expect(await invokeDirect(await container(logout), logout, {})).toMatchObject({ ok: true });
    expect(await place(placer)).toMatchObject({ ok: false, error: { code: 'SESSION_EXPIRED' } });
    const health = await createSessionHealthCheck({ env: sessionEnv(), logger })();
    // Logged out on purpose: said as such (and no broker call).
    expect(health).toMatchObject({ alive: false, code: 'LOGGED_OUT' });

    await renew();
    expect(secret().loggedOutAt).toBeUndefined();
    expect(await place(placer)).toMatchObject({ ok: true });
  });

  it('the check costs no Secrets Manager call on the warm path; a logged-out mark costs one read per call and no broker call', async () => {
    const placer = await container(placeGttOrder);
    expect(await place(placer)).toMatchObject({ ok: true });
    const reads = secrets.getCallCount(SESSION);
    for (let i = 0; i < 5; i++) expect(await place(placer)).toMatchObject({ ok: true });
    expect(secrets.getCallCount(SESSION) - reads).toBe(0);

    secrets.setSecret(
      SESSION,
      JSON.stringify({ uid: emulator.uid, actid: emulator.actid, loggedOutAt: '2026-11-23T08:00:00.000Z' }),
    );
    const marked = await container(placeGttOrder);
    await place(marked);
    await control.clearRequests();
    const before = secrets.getCallCount(SESSION);
    for (let i = 0; i < 5; i++)
      expect(await place(marked)).toMatchObject({ ok: false, error: { code: 'SESSION_EXPIRED' } });
    expect(secrets.getCallCount(SESSION) - before).toBe(5);
    expect(await control.requests()).toHaveLength(0);
  });

  it('a secret marked logged out is a valid secret, not a configuration error; one without a token and mark is not', async () => {
    secrets.setSecret(
      SESSION,
      JSON.stringify({ uid: emulator.uid, actid: emulator.actid, loggedOutAt: '2026-11-23T08:00:00.000Z' }),
    );
    expect(await place(await container(placeGttOrder))).toMatchObject({
      ok: false,
      error: { code: 'SESSION_EXPIRED' },
    });
    secrets.setSecret(SESSION, JSON.stringify({ accessToken: '', uid: emulator.uid, actid: emulator.actid }));
    expect(await place(await container(placeGttOrder))).toMatchObject({
      ok: false,
      error: { code: 'CONFIGURATION_ERROR' },
    });
  });
});
