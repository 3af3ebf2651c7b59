/**
 * Which sessions a login writes, through the real session functions against the emulator on 127.0.0.1 (and, where
 * the emulator cannot play the part, a tiny broker of our own on loopback), with the real Secrets Manager and
 * DynamoDB clients on their local endpoints: a session of another account is never written; GenAcsTok read as real
 * clients read it (no `stat`, `AccountId`); every login page form; Flattrade's flavour; the TOTP login in jKey mode;
 * `GET /session`; the end-of-day logout; and no secret in any log line or reply of this file.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { RunningEmulator } from '../../emulator/server.js';
import { fromDirectInvocation } from '../../functions/base/contract/errors.js';
import { createEndOfDayLogout } from '../../functions/session/end-of-day.js';
import { createSessionHealthCheck } from '../../functions/session/health.js';
import { createOAuthHandler } from '../../functions/session/oauth.js';
import { createSessionRenewal } from '../../functions/session/totp-login.js';
import type { LocalSecretsManager } from '../../local/secrets-manager.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { useLoginStack } from '../support/login-stack.js';
import { httpGetEvent as httpEvent, sessionIds } from '../support/session-stack.js';

const IDS = sessionIds('login');
const { session: SESSION, app: APP } = IDS;
const login = useLoginStack(IDS);
const { output, logger, env, bodyOf, session, exchanges, placeWith, appSecret, loginRoundTrip } = login;

let emulator: RunningEmulator;
let secrets: LocalSecretsManager;
let control: EmulatorControl;
beforeAll(() => {
  ({ emulator, control, secrets } = login.current());
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
    // A schedule's failure leaves as the named error; its message is the contract's body.
    await expect(
      createSessionRenewal({ env: env({ BROKER_AUTH: 'bearer' }), logger })().catch((e: unknown) =>
        Promise.reject(fromDirectInvocation(e)),
      ),
    ).rejects.toMatchObject({
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
