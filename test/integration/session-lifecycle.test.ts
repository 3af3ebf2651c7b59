/**
 * The session lifecycle against the emulator over 127.0.0.1, with the real Secrets Manager and DynamoDB clients
 * on their local endpoints: the OAuth round trip, the TOTP renewal, the health check and its metric, and every
 * operation in `jkey` mode.
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import type { RunningEmulator } from '../../emulator/server.js';
import { fromDirectInvocation } from '../../functions/base/contract/errors.js';
import { OPERATIONS } from '../../functions/manifest/index.js';
import { createGatewayHandler } from '../../functions/orders/gateway/gateway-handler.js';
import { placeGttOrder } from '../../functions/orders/operations.js';
import { currentTotp } from '../../functions/session/broker-login.js';
import { createSessionHealthCheck } from '../../functions/session/health.js';
import { createOAuthHandler } from '../../functions/session/oauth.js';
import { createSessionRenewal } from '../../functions/session/totp-login.js';
import type { LocalSecretsManager } from '../../local/secrets-manager.js';
import { type EmulatorControl, signInAsDemo } from '../support/emulator-control.js';
import { invokeDirect } from '../support/events.js';
import { captureLogger } from '../support/logs.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';
import {
  httpGetEvent as httpEvent,
  sessionEnv,
  sessionIds,
  type SessionStack,
  startSessionStack,
} from '../support/session-stack.js';

const IDS = sessionIds('it');
const { session: SESSION, app: APP, login: LOGIN } = IDS;

let emulator: RunningEmulator;
let secrets: LocalSecretsManager;
let control: EmulatorControl;
const lines: string[] = [];
/** Every line written in this file, and every reply body, for the leak check at the end. */
const allOutput: string[] = [];
const { logger } = captureLogger({ serviceName: 'session-it' }, (line) => allOutput.push(line));

let stack: SessionStack;
const env = () => sessionEnv(stack, IDS);

const bodyOf = (res: APIGatewayProxyStructuredResultV2) =>
  (allOutput.push(String(res.body)), JSON.parse(String(res.body))) as Record<string, unknown> & {
    error?: { code: string };
  };
const session = () => JSON.parse(secrets.getSecret(SESSION)!) as { accessToken: string; uid: string; actid: string };

beforeAll(async () => {
  stack = await startSessionStack(IDS);
  ({ emulator, control, secrets } = stack);
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    allOutput.push(String(chunk));
    return true;
  });
});

afterAll(async () => {
  vi.restoreAllMocks();
  await stack?.close();
});

beforeEach(() => {
  lines.length = 0;
});

/** Signs in on the emulator's login page as a browser would, and returns where it redirects. */
const brokerLogin = (authorizeUrl: string): Promise<URL> => signInAsDemo(emulator, authorizeUrl);

describe('OAuth', () => {
  it('start -> broker authorize -> callback -> the secret holds a new token -> a place succeeds with it', async () => {
    await control.oauthRedirect('http://127.0.0.1:1/session/oauth/callback');
    const oauth = createOAuthHandler({ env: env(), logger });
    const start = bodyOf(await oauth(httpEvent('/session/oauth/start')));
    expect(start.authorizeUrl).toContain(`client_id=${encodeURIComponent(emulator.oauth.clientId)}`);
    await control.switches({ echoOAuthState: true });
    const redirect = await brokerLogin(String(start.authorizeUrl));
    await control.switches({ echoOAuthState: false });
    expect(redirect.searchParams.get('state')).toBe(start.state);
    const before = session().accessToken;
    const putsBefore = secrets.getPutCount(SESSION);

    const done = await oauth(httpEvent('/session/oauth/callback', Object.fromEntries(redirect.searchParams)));
    expect(done.statusCode).toBe(200);
    expect(bodyOf(done)).toMatchObject({ stat: 'Ok', method: 'oauth', uid: emulator.uid, actid: emulator.actid });
    expect(secrets.getPutCount(SESSION)).toBe(putsBefore + 1);
    const after = session();
    expect(after.accessToken).not.toBe(before);
    expect(String(done.body)).not.toContain(after.accessToken);

    // The old token dies; the gateway, after its rotated-token retry, places with the new one.
    await control.expire(before);
    const place = createGatewayHandler(placeGttOrder, {
      config: {
        BROKER_BASE_URL: emulator.url,
        BROKER_SECRET_ID: SESSION,
        SECRETS_MANAGER_ENDPOINT: secrets.url,
        IDEMPOTENCY_KEY_REQUIRED: false,
        SECRET_MAX_AGE_SECONDS: 300,
      },
    });
    const placed = await invokeDirect(place, placeGttOrder, SAMPLE_ORDER);
    expect(placed).toMatchObject({ ok: true, result: { stat: 'OI created' } });
  });

  it('a reused or unknown state is refused and writes nothing; no broker call is made', async () => {
    await control.oauthRedirect('http://127.0.0.1:1/session/oauth/callback');
    const oauth = createOAuthHandler({ env: env(), logger });
    const start = bodyOf(await oauth(httpEvent('/session/oauth/start')));
    await control.switches({ echoOAuthState: true });
    const redirect = await brokerLogin(String(start.authorizeUrl));
    await control.switches({ echoOAuthState: false });
    const query = Object.fromEntries(redirect.searchParams);
    expect((await oauth(httpEvent('/session/oauth/callback', query))).statusCode).toBe(200);
    const puts = secrets.getPutCount(SESSION);
    await control.clearRequests();

    const replay = await oauth(httpEvent('/session/oauth/callback', query));
    expect(replay.statusCode).toBe(400);
    expect(bodyOf(replay).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'state', message: 'unknown, used or expired' }],
    });
    const forged = await oauth(httpEvent('/session/oauth/callback', { ...query, state: 'A'.repeat(43) }));
    expect(forged.statusCode).toBe(400);
    // Without a state: the login was completed, so none is waiting.
    const missing = await oauth(httpEvent('/session/oauth/callback', { code: query.code! }));
    expect(bodyOf(missing).error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'state' }] });
    expect(secrets.getPutCount(SESSION)).toBe(puts);
    expect((await control.requests()).filter((r) => r.operation === 'GenAcsTok')).toHaveLength(0);
  });

  it('a wrong app secret: the broker refuses the checksum, the secret is untouched, the reply says why', async () => {
    secrets.setSecret(
      APP,
      JSON.stringify({ clientId: emulator.oauth.clientId, secretCode: 'wrong-secret', uid: emulator.uid }),
    );
    try {
      await control.oauthRedirect('http://127.0.0.1:1/session/oauth/callback');
      const oauth = createOAuthHandler({ env: env(), logger });
      const start = bodyOf(await oauth(httpEvent('/session/oauth/start')));
      const redirect = await brokerLogin(String(start.authorizeUrl));
      const before = secrets.getSecret(SESSION);
      const res = await oauth(
        httpEvent('/session/oauth/callback', Object.fromEntries(redirect.searchParams), 'text/html'),
      );
      expect(res.statusCode).toBe(422);
      expect(String(res.body)).toContain('INVALID_VERIFIER');
      expect(secrets.getSecret(SESSION)).toBe(before);
    } finally {
      secrets.setSecret(
        APP,
        JSON.stringify({ clientId: emulator.oauth.clientId, secretCode: emulator.oauth.secret, uid: emulator.uid }),
      );
    }
  });
});

/** A classic deployment: QuickAuth's token travels as jKey. */
const totpEnv = () => ({ ...env(), BROKER_AUTH: 'jkey' });

describe('TOTP renewal', () => {
  it('logs in with QuickAuth and writes a new token', async () => {
    const before = session().accessToken;
    const result = await createSessionRenewal({ env: totpEnv(), logger })();
    expect(result).toMatchObject({ stat: 'Ok', method: 'totp', uid: emulator.uid });
    expect(session().accessToken).not.toBe(before);
  });

  it('a wrong TOTP seed leaves the old secret untouched and reports a clear error', async () => {
    const good = secrets.getSecret(LOGIN)!;
    secrets.setSecret(LOGIN, JSON.stringify({ ...JSON.parse(good), totpSeed: 'JBSWY3DPEHPK3PXPJBSWY3DP' }));
    try {
      const before = secrets.getSecret(SESSION);
      const puts = secrets.getPutCount(SESSION);
      // A schedule's failure leaves as the named error; its message is the contract's body.
      await expect(
        createSessionRenewal({ env: totpEnv(), logger })().catch((e: unknown) =>
          Promise.reject(fromDirectInvocation(e)),
        ),
      ).rejects.toMatchObject({
        code: 'BROKER_REJECTED',
        brokerMessage: expect.stringContaining('Invalid OTP'),
      });
      expect(secrets.getSecret(SESSION)).toBe(before);
      expect(secrets.getPutCount(SESSION)).toBe(puts);
    } finally {
      secrets.setSecret(LOGIN, good);
    }
  });

  it('computes the TOTP the emulator expects (RFC 6238)', () => {
    expect(currentTotp('JBSWY3DPEHPK3PXP', 0)).toMatch(/^\d{6}$/);
    expect(currentTotp('JBSWY3DPEHPK3PXP', 59_000)).toBe(currentTotp('JBSWY3DPEHPK3PXP', 31_000));
  });
});

describe('health check', () => {
  // The metric is what this test reads: turn metrics on (vitest.config.ts turns them off for the rest).
  beforeAll(() => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });
  const metricOf = () => {
    const emf = lines
      .map((l) => l.trim())
      .filter((l) => l.includes('"SessionAlive"'))
      .map((l) => JSON.parse(l) as { SessionAlive: number });
    return emf.at(-1)?.SessionAlive;
  };

  it('publishes SessionAlive 1, then 0 once the emulator expires the session', async () => {
    // The session is the TOTP renewal's by now: a jKey token, checked the way it travels.
    const check = createSessionHealthCheck({ env: totpEnv(), logger });
    expect(await check()).toMatchObject({ alive: true });
    expect(metricOf()).toBe(1);
    await control.expire(session().accessToken);
    expect(await check()).toMatchObject({ alive: false, code: 'SESSION_EXPIRED' });
    expect(metricOf()).toBe(0);
    // Renew (a classic deployment's jKey session) so later tests have a session; checked the way it travels.
    await createSessionRenewal({ env: totpEnv(), logger })();
    expect(await check()).toMatchObject({ alive: true, method: 'totp', uid: emulator.uid });
    // Sent as Bearer, QuickAuth's token is refused: the check says so instead of calling it alive.
    expect(await createSessionHealthCheck({ env: env(), logger })()).toMatchObject({
      alive: false,
      code: 'SESSION_EXPIRED',
    });
  });

  it('an asked check (GET /session) publishes no metric, so Powertools prints no empty-metrics warning', async () => {
    const warnings: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      warnings.push(String(chunk));
      return true;
    });
    try {
      const check = createSessionHealthCheck({ env: totpEnv(), logger });
      const asked = await check(httpEvent('/session'));
      expect(asked).toMatchObject({ statusCode: 200 });
      expect(metricOf()).toBeUndefined();
      expect([...lines, ...warnings].join('')).not.toContain('No application metrics');
      // The scheduled run of the same function still publishes SessionAlive.
      expect(await check()).toMatchObject({ alive: true });
      expect(metricOf()).toBe(1);
    } finally {
      stderr.mockRestore();
    }
  });
});

describe('jkey mode', () => {
  it('every operation works with jData=…&jKey=… and no Authorization header', async () => {
    await control.switches({ acceptJKey: true });
    await control.clearRequests();
    const config = {
      BROKER_BASE_URL: `${emulator.url}/NorenWClientTP/`,
      BROKER_AUTH: 'jkey',
      BROKER_SECRET_ID: SESSION,
      SECRETS_MANAGER_ENDPOINT: secrets.url,
      IDEMPOTENCY_KEY_REQUIRED: false,
    };
    const call = async (name: string, payload: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const operation = OPERATIONS.find((o) => o.name === name)!;
      const reply = await invokeDirect(createGatewayHandler(operation, { config }), operation, payload);
      if (!reply.ok) throw new Error(`${name}: ${JSON.stringify(reply.error)}`);
      return reply.result as Record<string, unknown>;
    };
    const order = SAMPLE_ORDER;
    const oco = {
      exch: 'NSE',
      tsym: 'M&M-EQ',
      target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1600', prd: 'C' } },
      stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'MKT', qty: 1, prd: 'C' } },
    };
    const placed = (await call('PlaceGTTOrder', order)) as unknown as { al_id: string };
    const ocoPlaced = (await call('PlaceOCOOrder', oco)) as unknown as { al_id: string };
    expect(await call('GetPendingGTTOrder', {})).toMatchObject({
      orders: expect.arrayContaining([expect.objectContaining({ al_id: placed.al_id })]),
    });
    expect(await call('GetGTTOrder', { al_id: ocoPlaced.al_id })).toMatchObject({ type: 'oco' });
    expect(await call('ModifyGTTOrder', { ...order, al_id: placed.al_id, qty: 2 })).toMatchObject({
      stat: 'OI replaced',
    });
    expect(await call('ModifyOCOOrder', { ...oco, al_id: ocoPlaced.al_id })).toMatchObject({ stat: 'OI replaced' });
    expect(await call('CancelGTTOrder', { al_id: placed.al_id })).toMatchObject({ stat: 'OI deleted' });
    expect(await call('GetTriggeredGTTOrders', {})).toMatchObject({ orders: expect.any(Array) });
    expect(await call('GetEnabledGTTs', {})).toMatchObject({ stat: 'Ok' });
    expect(await call('ClientDetails', {})).toMatchObject({ stat: 'Ok' });
    const requests = await control.requests();
    expect(requests.length).toBeGreaterThanOrEqual(10);
    for (const r of requests) {
      expect(r.authorization).toBeNull();
      expect(r.path).toMatch(/^\/NorenWClientTP\/\w+$/);
    }
    await control.switches({ acceptJKey: false });
  });
});

describe('leak check', () => {
  it('no token, password, TOTP seed, API secret or app secret in any log line or reply of this file', async () => {
    const issued = (await control.requests()).flatMap((r) => [JSON.stringify(r.reply)]).join('\n');
    const secretsToFind = [
      emulator.token,
      emulator.oauth.secret,
      emulator.login.password,
      emulator.login.totpSeed,
      emulator.login.apiSecret,
      session().accessToken,
    ];
    expect(allOutput.some((line) => line.includes('session renewed'))).toBe(true);
    expect(allOutput.some((line) => line.includes('session renewal failed'))).toBe(true);
    const output = allOutput.join('\n');
    for (const secret of secretsToFind) expect(output).not.toContain(secret);
    // The emulator's own log redacts what it issued too.
    expect(issued).not.toContain(session().accessToken);
  });
});
