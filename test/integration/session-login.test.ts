/**
 * Logging in the way the live brokers behave, through the real OAuth function against the emulator on 127.0.0.1
 * (and, where the emulator cannot play the part, a tiny broker of our own on loopback), with the real Secrets
 * Manager and DynamoDB clients on their local endpoints:
 *
 * - a redirect with `code` only (the brokers drop `state`) is accepted once, within the login window of a started
 *   login; with no login waiting it is refused and nothing is written or called;
 * - a code is exchanged at most once; a session of another account is never written;
 * - GenAcsTok read as real clients read it (no `stat`, `AccountId`); every login page form; Flattrade's flavour;
 *   the TOTP login in jKey mode; `GET /session`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { RunningEmulator } from '../../emulator/server.js';
import { createGatewayHandler } from '../../functions/gateway/gateway-handler.js';
import { placeGttOrder } from '../../functions/operations.js';
import { createEndOfDayLogout } from '../../functions/session/end-of-day.js';
import { createSessionHealthCheck } from '../../functions/session/health.js';
import { createOAuthHandler } from '../../functions/session/oauth.js';
import { MAX_LOGIN_ATTEMPTS, OAuthStateStore } from '../../functions/session/oauth-state.js';
import { createSessionRenewal } from '../../functions/session/totp-login.js';
import type { LocalDynamo } from '../../local/dynamodb.js';
import type { LocalSecretsManager } from '../../local/secrets-manager.js';
import { type EmulatorControl, signInAsDemo } from '../support/emulator-control.js';
import { invokeDirect } from '../support/events.js';
import { captureLogger } from '../support/logs.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';
import {
  httpGetEvent as httpEvent,
  oauthAppSecret,
  sessionEnv,
  sessionIds,
  type SessionStack,
  startSessionStack,
} from '../support/session-stack.js';

const IDS = sessionIds('login');
const { session: SESSION, app: APP, stateTable: STATE_TABLE } = IDS;

let emulator: RunningEmulator;
let secrets: LocalSecretsManager;
let dynamo: LocalDynamo;
let control: EmulatorControl;
/** Every log line of the functions and every reply body, for the leak checks. */
const output: string[] = [];
const { logger } = captureLogger({ serviceName: 'login-it' }, (line) => output.push(line));

let stack: SessionStack;
const env = (extra: Record<string, string> = {}) =>
  sessionEnv(stack, IDS, {
    BROKER_BASE_URL: `${emulator.url}/NorenWClientAPI`,
    BROKER_AUTHORIZE_URL: `${emulator.url}/OAuthlogin/authorize/oauth?client_id={clientId}`,
    ...extra,
  });

type Body = Record<string, unknown> & {
  error?: { code: string; message: string; details?: { field: string; message: string }[] };
};
const bodyOf = (res: APIGatewayProxyStructuredResultV2): Body => {
  output.push(String(res.body));
  return JSON.parse(String(res.body)) as Body;
};
const session = () =>
  JSON.parse(secrets.getSecret(SESSION)!) as {
    accessToken: string;
    uid: string;
    actid: string;
    renewedAt?: string;
    method?: string;
    loggedOutAt?: string;
  };
const exchanges = async (operation = 'GenAcsTok') =>
  (await control.requests()).filter((r) => r.operation === operation).length;
const placeOrder = SAMPLE_ORDER;
const placeWith = (config: Record<string, unknown>) =>
  invokeDirect(
    createGatewayHandler(placeGttOrder, {
      config: {
        BROKER_SECRET_ID: SESSION,
        SECRETS_MANAGER_ENDPOINT: secrets.url,
        IDEMPOTENCY_KEY_REQUIRED: false,
        ...config,
      },
    }),
    placeGttOrder,
    placeOrder,
  );
const appSecret = (extra: Record<string, string> = {}) => oauthAppSecret(emulator, extra);

beforeAll(async () => {
  stack = await startSessionStack(IDS);
  ({ emulator, control, secrets, dynamo } = stack);
  await control.oauthRedirect('http://127.0.0.1:1/session/oauth/callback');
});

afterAll(async () => {
  await stack?.close();
});

/** Start a login with the function, sign in on the page it names, and answer the callback's query. */
const loginRoundTrip = async (oauth: ReturnType<typeof createOAuthHandler>) => {
  const start = bodyOf(await oauth(httpEvent('/session/oauth/start')));
  const redirect = await signInAsDemo(emulator, String(start.authorizeUrl));
  return { start, query: Object.fromEntries(redirect.searchParams) };
};

describe('OAuth callback as the live brokers redirect', () => {
  it.each([
    ['code only (the live brokers)', false],
    ['code and state (a broker that echoes it)', true],
  ])('%s: the session is written once and trades', async (_label, echo) => {
    await control.switches({ echoOAuthState: echo });
    try {
      const oauth = createOAuthHandler({ env: env(), logger });
      const { start, query } = await loginRoundTrip(oauth);
      expect(start).toMatchObject({ uid: emulator.uid, loginWindowSeconds: 600 });
      expect(query.state === undefined).toBe(!echo);
      const puts = secrets.getPutCount(SESSION);
      const done = await oauth(httpEvent('/session/oauth/callback', query));
      expect(done.statusCode).toBe(200);
      expect(bodyOf(done)).toMatchObject({ stat: 'Ok', method: 'oauth', uid: emulator.uid, actid: emulator.actid });
      expect(secrets.getPutCount(SESSION)).toBe(puts + 1);
      expect(session()).toMatchObject({ uid: emulator.uid, method: 'oauth', renewedAt: expect.any(String) });
      // The same redirect again: the login is complete and the code used; nothing more is written or exchanged.
      await control.clearRequests();
      const again = await oauth(httpEvent('/session/oauth/callback', query));
      expect(again.statusCode).toBe(400);
      expect(secrets.getPutCount(SESSION)).toBe(puts + 1);
      expect(await exchanges()).toBe(0);
      expect(await placeWith({ BROKER_BASE_URL: `${emulator.url}/NorenWClientAPI` })).toMatchObject({
        ok: true,
        result: { stat: 'OI created' },
      });
    } finally {
      await control.switches({ echoOAuthState: false });
    }
  });

  it('a callback with no login started in the window is refused, writes nothing and calls no broker', async () => {
    const oauth = createOAuthHandler({ env: env(), logger });
    // A login completed: none is waiting now.
    const { query } = await loginRoundTrip(oauth);
    expect((await oauth(httpEvent('/session/oauth/callback', query))).statusCode).toBe(200);
    const puts = secrets.getPutCount(SESSION);
    await control.clearRequests();
    // A code the page issued for nobody's login (the trader signed in without starting one here).
    const stray = await signInAsDemo(
      emulator,
      `${emulator.url}/OAuthlogin/authorize/oauth?client_id=${emulator.oauth.clientId}`,
    );
    const refused = await oauth(
      httpEvent('/session/oauth/callback', { code: stray.searchParams.get('code')! }, 'text/html'),
    );
    expect(refused.statusCode).toBe(400);
    expect(String(refused.body)).toContain('No login was started here in the last 10 minutes');
    expect(secrets.getPutCount(SESSION)).toBe(puts);
    expect(await exchanges()).toBe(0);
  });

  it('the login window closes: the store refuses a pending login after it, and completes it only once within it', async () => {
    const store = new OAuthStateStore(STATE_TABLE, 600, dynamo.url);
    const t = Date.now();
    await store.issue(t);
    expect(await store.attemptPending(t + 600_000 + 1_000)).toEqual({ ok: false, reason: 'none' });
    const { state } = await store.issue(t);
    const held = await store.attemptPending(t + 599_000);
    expect(held).toEqual({ ok: true, ref: state, attempt: 1 });
    // An attempt does not end the login; a completion does, once.
    expect((await store.attemptPending(t + 599_000)).ok).toBe(true);
    expect(await store.completePending(state, t + 599_000)).toBe(true);
    expect(await store.completePending(state, t + 599_000)).toBe(false);
    expect(await store.attemptPending(t + 599_000)).toEqual({ ok: false, reason: 'none' });
    // Its state was withdrawn with it: a broker echoing it later cannot complete the login a second time.
    expect(await store.consume(state, t + 1_000)).toBe(false);
  });

  it('the store counts attempts on one login up to the limit; a newer login starts afresh', async () => {
    const store = new OAuthStateStore(STATE_TABLE, 600, dynamo.url);
    const t = Date.now();
    const first = await store.issue(t);
    for (let i = 1; i <= MAX_LOGIN_ATTEMPTS; i++)
      expect(await store.attemptPending(t)).toEqual({ ok: true, ref: first.state, attempt: i });
    expect(await store.attemptPending(t)).toEqual({ ok: false, reason: 'exhausted', attempts: MAX_LOGIN_ATTEMPTS });
    const second = await store.issue(t);
    expect(await store.attemptPending(t)).toEqual({ ok: true, ref: second.state, attempt: 1 });
    // The first login cannot be completed any more: the newer one replaced it.
    expect(await store.completePending(first.state, t)).toBe(false);
    expect(await store.completePending(second.state, t)).toBe(true);
  });

  it('a code is exchanged at most once, even across two started logins', async () => {
    const oauth = createOAuthHandler({ env: env(), logger });
    const { query } = await loginRoundTrip(oauth);
    expect((await oauth(httpEvent('/session/oauth/callback', query))).statusCode).toBe(200);
    // A new login is waiting, but the old code comes back (a replayed redirect).
    await oauth(httpEvent('/session/oauth/start'));
    const puts = secrets.getPutCount(SESSION);
    await control.clearRequests();
    const replay = bodyOf(await oauth(httpEvent('/session/oauth/callback', { code: query.code! })));
    expect(replay.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'code', message: 'already used' }],
    });
    expect(secrets.getPutCount(SESSION)).toBe(puts);
    expect(await exchanges()).toBe(0);
  });

  it('extra query parameters are ignored, never echoed, never logged', async () => {
    const oauth = createOAuthHandler({ env: env(), logger });
    const { query } = await loginRoundTrip(oauth);
    const marker = 'extra-param-marker-7f3a';
    output.length = 0;
    const done = await oauth(
      httpEvent('/session/oauth/callback', { ...query, client: marker, foo: `<b>${marker}</b>` }, 'text/html'),
    );
    expect(done.statusCode).toBe(200);
    expect(String(done.body)).toContain('Broker session renewed');
    expect(output.join('\n')).not.toContain(marker);
    expect(String(done.body)).not.toContain(marker);
  });

  it("a stranger's junk callbacks do not end the login: the trader's real redirect still signs in", async () => {
    const oauth = createOAuthHandler({ env: env(), logger });
    const { query } = await loginRoundTrip(oauth);
    expect(query.state).toBeUndefined();
    const puts = secrets.getPutCount(SESSION);
    output.length = 0;
    await control.clearRequests();
    const junk = ['junk-code-0001', 'junk-code-0002'];
    for (const code of junk) {
      const refused = await oauth(httpEvent('/session/oauth/callback', { code }));
      expect(refused.statusCode).toBe(422);
      expect(bodyOf(refused).error).toMatchObject({
        code: 'BROKER_REJECTED',
        brokerMessage: 'Invalid Input : INVALID_VERIFIER',
      });
    }
    expect(await exchanges()).toBe(2);
    expect(secrets.getPutCount(SESSION)).toBe(puts);
    // Each refused attempt is logged, with its number and the limit, never the code.
    const logged = output.filter((line) => line.includes('oauth callback refused: the login keeps waiting'));
    expect(logged).toHaveLength(2);
    expect(JSON.parse(logged[1]!)).toMatchObject({
      level: 'WARN',
      oauthCallback: { outcome: 'code refused', code: 'BROKER_REJECTED', attempt: 2, limit: MAX_LOGIN_ATTEMPTS },
    });
    for (const code of junk) expect(output.join('\n')).not.toContain(code);
    // The real redirect, after them: the session is written, once.
    const done = await oauth(httpEvent('/session/oauth/callback', query));
    expect(done.statusCode).toBe(200);
    expect(secrets.getPutCount(SESSION)).toBe(puts + 1);
    // And now the login is over: another callback finds none waiting.
    expect((await oauth(httpEvent('/session/oauth/callback', { code: 'junk-code-0003' }))).statusCode).toBe(400);
  });

  it('past the limit of refused codes the login takes no more: a clear refusal, logged; a new start works', async () => {
    const oauth = createOAuthHandler({ env: env(), logger });
    const { query } = await loginRoundTrip(oauth);
    const puts = secrets.getPutCount(SESSION);
    for (let i = 1; i <= MAX_LOGIN_ATTEMPTS; i++)
      expect((await oauth(httpEvent('/session/oauth/callback', { code: `junk-code-${i}` }))).statusCode).toBe(422);
    output.length = 0;
    await control.clearRequests();
    // Over the limit: no broker call, a refusal that says what to do, a log line.
    const over = await oauth(httpEvent('/session/oauth/callback', { code: 'junk-code-over' }));
    expect(over.statusCode).toBe(429);
    expect(bodyOf(over).error).toMatchObject({ code: 'RATE_LIMITED' });
    expect(bodyOf(over).error!.message).toContain('start again with GET /session/oauth/start');
    const page = await oauth(httpEvent('/session/oauth/callback', query, 'text/html'));
    expect(page.statusCode).toBe(429);
    expect(String(page.body)).toContain('start again with GET /session/oauth/start');
    expect(await exchanges()).toBe(0);
    expect(secrets.getPutCount(SESSION)).toBe(puts);
    const logged = output.filter((line) => line.includes('oauth callback refused: too many attempts'));
    expect(logged).toHaveLength(2);
    expect(JSON.parse(logged[0]!)).toMatchObject({
      level: 'WARN',
      oauthCallback: { outcome: 'attempts exhausted', attempts: MAX_LOGIN_ATTEMPTS, limit: MAX_LOGIN_ATTEMPTS },
    });
    expect(output.join('\n')).not.toContain('junk-code-over');
    // Starting again gives a fresh login, and its redirect signs in.
    const again = await loginRoundTrip(oauth);
    expect((await oauth(httpEvent('/session/oauth/callback', again.query))).statusCode).toBe(200);
    expect(secrets.getPutCount(SESSION)).toBe(puts + 1);
  });

  it('the start route refuses unknown query parameters and starts nothing', async () => {
    const oauth = createOAuthHandler({ env: env(), logger });
    const res = bodyOf(await oauth(httpEvent('/session/oauth/start', { x: '1' })));
    expect(res.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'x' }] });
  });
});

describe('the session must be this deployment account', () => {
  it("a login for another account id (the app secret's actid) is refused and writes nothing", async () => {
    secrets.setSecret(APP, appSecret({ actid: 'SOMEONE-ELSE' }));
    try {
      const oauth = createOAuthHandler({ env: env(), logger });
      const { query } = await loginRoundTrip(oauth);
      const before = secrets.getSecret(SESSION);
      const refused = await oauth(httpEvent('/session/oauth/callback', query, 'text/html'));
      expect(refused.statusCode).toBe(403);
      expect(String(refused.body)).toContain('nothing was written');
      expect(secrets.getSecret(SESSION)).toBe(before);
    } finally {
      secrets.setSecret(APP, appSecret());
    }
  });

  describe('against a broker of our own on loopback', () => {
    let fake: http.Server;
    let fakeUrl: string;
    let reply: Record<string, unknown> = {};
    beforeAll(async () => {
      fake = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(reply));
        });
      });
      await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
      fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/NorenWClientAPI`;
    });
    afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

    /** A login whose code the fake broker exchanges (the start and the login page are the emulator's). */
    const exchangeAtFake = async (answer: Record<string, unknown>) => {
      reply = answer;
      const oauth = createOAuthHandler({ env: env({ BROKER_BASE_URL: fakeUrl }), logger });
      const { query } = await loginRoundTrip(oauth);
      return oauth(httpEvent('/session/oauth/callback', query));
    };

    it("an attacker's code (the broker answers for another uid) writes nothing", async () => {
      const before = secrets.getSecret(SESSION);
      const res = await exchangeAtFake({
        access_token: 'attacker-session-token-1',
        uid: 'ATTACKER9',
        actid: 'ATTACKER9',
      });
      expect(res.statusCode).toBe(403);
      expect(bodyOf(res).error).toMatchObject({ code: 'SESSION_ACCOUNT_MISMATCH' });
      expect(String(res.body)).not.toContain('attacker-session-token-1');
      expect(secrets.getSecret(SESSION)).toBe(before);
    });

    it('success is the presence of access_token: no stat, USERID and AccountId read as real clients do', async () => {
      const res = await exchangeAtFake({
        access_token: 'fake-broker-token-2',
        USERID: emulator.uid,
        AccountId: emulator.actid,
      });
      expect(res.statusCode).toBe(200);
      expect(session()).toMatchObject({ accessToken: 'fake-broker-token-2', uid: emulator.uid, actid: emulator.actid });
      expect(String(res.body)).not.toContain('fake-broker-token-2');
    });

    it('a reply that names no account writes nothing', async () => {
      const before = secrets.getSecret(SESSION);
      const res = await exchangeAtFake({ access_token: 'fake-broker-token-3' });
      expect(bodyOf(res).error).toMatchObject({ code: 'BROKER_BAD_REPLY' });
      expect(secrets.getSecret(SESSION)).toBe(before);
    });

    it('the refusal text of the broker, without a token', async () => {
      const res = await exchangeAtFake({ stat: 'Not_Ok', emsg: 'Invalid Input : INVALID_VERIFIER' });
      expect(bodyOf(res).error).toMatchObject({
        code: 'BROKER_REJECTED',
        brokerMessage: 'Invalid Input : INVALID_VERIFIER',
      });
    });
  });
});

describe('every login page form signs in', () => {
  it.each([
    ['/OAuthlogin/authorize/oauth?client_id={clientId}'],
    ['/OAuthlogin?api_key={clientId}'],
    ['/OAuthlogin/investor-entry-level/login?api_key={clientId}&route_to={uid}'],
  ])('%s: start names it, the page signs in, the callback writes the session', async (template) => {
    const oauth = createOAuthHandler({ env: env({ BROKER_AUTHORIZE_URL: `${emulator.url}${template}` }), logger });
    const { start, query } = await loginRoundTrip(oauth);
    const link = new URL(String(start.authorizeUrl));
    expect(link.pathname).toBe(template.split('?')[0]);
    if (template.includes('route_to')) expect(link.searchParams.get('route_to')).toBe(emulator.uid);
    expect((await oauth(httpEvent('/session/oauth/callback', query))).statusCode).toBe(200);
  });
});

describe("Flattrade's login", () => {
  it('the page redirects with code and client; the token URL exchanges it; the jKey session trades', async () => {
    const flattrade = env({
      BROKER_LOGIN: 'flattrade',
      BROKER_AUTH: 'jkey',
      BROKER_BASE_URL: `${emulator.url}/PiConnectTP`,
      BROKER_AUTHORIZE_URL: `${emulator.url}/?app_key={clientId}`,
      BROKER_TOKEN_URL: `${emulator.url}/trade/apitoken`,
    });
    const oauth = createOAuthHandler({ env: flattrade, logger });
    const { start, query } = await loginRoundTrip(oauth);
    expect(new URL(String(start.authorizeUrl)).searchParams.get('app_key')).toBe(emulator.oauth.clientId);
    expect(query.client).toBe(emulator.uid);
    await control.clearRequests();
    const done = await oauth(httpEvent('/session/oauth/callback', query));
    expect(bodyOf(done)).toMatchObject({ stat: 'Ok', method: 'flattrade', uid: emulator.uid });
    expect(await exchanges('FlattradeApiToken')).toBe(1);
    expect(await exchanges('GenAcsTok')).toBe(0);
    expect(session()).toMatchObject({ method: 'flattrade', uid: emulator.uid });
    // The token is a jKey: sent as jKey it trades; sent as Bearer the emulator refuses it, as a broker may.
    expect(await placeWith({ BROKER_BASE_URL: `${emulator.url}/PiConnectTP`, BROKER_AUTH: 'jkey' })).toMatchObject({
      ok: true,
    });
    expect(await placeWith({ BROKER_BASE_URL: `${emulator.url}/PiConnectTP`, BROKER_AUTH: 'bearer' })).toMatchObject({
      ok: false,
      error: { code: 'SESSION_EXPIRED' },
    });
  });
});

describe('TOTP login (QuickAuth) in jKey mode', () => {
  it('writes a jKey session that trades as jKey; a bearer deployment is refused before any broker call', async () => {
    await control.clearRequests();
    await expect(createSessionRenewal({ env: env({ BROKER_AUTH: 'bearer' }), logger })()).rejects.toMatchObject({
      code: 'CONFIGURATION_ERROR',
      details: [{ field: 'BROKER_AUTH' }],
    });
    expect(await exchanges('QuickAuth')).toBe(0);
    const result = await createSessionRenewal({
      env: env({ BROKER_AUTH: 'jkey', BROKER_BASE_URL: `${emulator.url}/NorenWClientTP` }),
      logger,
    })();
    expect(result).toMatchObject({ stat: 'Ok', method: 'totp', uid: emulator.uid });
    expect(await placeWith({ BROKER_BASE_URL: `${emulator.url}/NorenWClientTP`, BROKER_AUTH: 'jkey' })).toMatchObject({
      ok: true,
    });
    expect(await placeWith({ BROKER_BASE_URL: `${emulator.url}/NorenWClientTP`, BROKER_AUTH: 'bearer' })).toMatchObject(
      { ok: false, error: { code: 'SESSION_EXPIRED' } },
    );
  });
});

describe('GET /session', () => {
  it('whose session, since when, alive or not; never the token', async () => {
    const health = createSessionHealthCheck({
      env: env({ BROKER_AUTH: 'jkey', BROKER_BASE_URL: `${emulator.url}/NorenWClientTP` }),
      logger,
    });
    const res = (await health(httpEvent('/session'))) as APIGatewayProxyStructuredResultV2;
    expect(res.statusCode).toBe(200);
    const body = bodyOf(res);
    expect(body).toMatchObject({
      alive: true,
      uid: emulator.uid,
      actid: emulator.actid,
      method: 'totp',
      since: session().renewedAt,
    });
    expect(String(res.body)).not.toContain(session().accessToken);
    await control.expire(session().accessToken);
    expect(bodyOf((await health(httpEvent('/session'))) as APIGatewayProxyStructuredResultV2)).toMatchObject({
      alive: false,
      code: 'SESSION_EXPIRED',
      uid: emulator.uid,
    });
    await control.clearRequests();
    const bad = (await health(httpEvent('/session', { verbose: '1' }))) as APIGatewayProxyStructuredResultV2;
    expect(bad.statusCode).toBe(400);
    expect(await exchanges('ClientDetails')).toBe(0);
  });
});

describe('leak check', () => {
  it('no token, code, password, seed or secret in any log line or reply of this file', () => {
    const text = output.join('\n');
    for (const secret of [
      emulator.token,
      emulator.oauth.secret,
      emulator.login.password,
      emulator.login.totpSeed,
      emulator.login.apiSecret,
      session().accessToken,
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('session renewed');
  });
});

describe('the end-of-day logout', () => {
  it("ends the broker session and blanks the secret's token; health says logged out for the night; the next login trades", async () => {
    const totp = env({ BROKER_AUTH: 'jkey', BROKER_BASE_URL: `${emulator.url}/NorenWClientTP` });
    await createSessionRenewal({ env: totp, logger })();
    const token = session().accessToken;
    const ended = await createEndOfDayLogout({ env: totp, logger })();
    expect(ended).toMatchObject({ stat: 'Ok', outcome: 'logged-out', uid: emulator.uid });
    expect(session()).toMatchObject({ accessToken: '', loggedOutAt: expect.any(String) });
    // The token is dead at the broker too.
    expect(
      (await fetch(`${emulator.url}/NorenWClientTP/ClientDetails`, {
        method: 'POST',
        body: `jData=${JSON.stringify({ uid: emulator.uid, actid: emulator.actid })}&jKey=${token}`,
      }).then((r) => r.json())) as { stat: string },
    ).toMatchObject({ stat: 'Not_Ok' });
    // Asked at night: logged out for the night, no broker call.
    await control.clearRequests();
    const health = bodyOf(
      (await createSessionHealthCheck({ env: totp, logger })(
        httpEvent('/session'),
      )) as APIGatewayProxyStructuredResultV2,
    );
    expect(health).toMatchObject({
      alive: false,
      code: 'LOGGED_OUT',
      loggedOutAt: expect.any(String),
      uid: emulator.uid,
    });
    expect(String(health.reason)).toContain('Logged out for the night');
    expect(await exchanges('ClientDetails')).toBe(0);
    // Run again (a retried schedule): nothing left to end, still fine.
    expect(await createEndOfDayLogout({ env: totp, logger })()).toMatchObject({ stat: 'Ok', outcome: 'already' });
    // The morning login clears the mark; orders go through again.
    await createSessionRenewal({ env: totp, logger })();
    expect(session().loggedOutAt).toBeUndefined();
    expect(await placeWith({ BROKER_BASE_URL: `${emulator.url}/NorenWClientTP`, BROKER_AUTH: 'jkey' })).toMatchObject({
      ok: true,
    });
  });
});
