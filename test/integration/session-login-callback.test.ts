/**
 * Logging in the way the live brokers redirect, through the real OAuth function against the emulator on 127.0.0.1,
 * with the real Secrets Manager and DynamoDB clients on their local endpoints: a redirect with `code` only (the
 * brokers drop `state`) is accepted once, within the login window of a started login; with no login waiting it is
 * refused and nothing is written or called; a code is exchanged at most once; junk callbacks and extra parameters
 * do not end or leak the login, and however many junk callbacks came first, the trader's redirect from another
 * address signs in (each address's broker calls bounded, the flood logged and counted); the start route takes no
 * unknown parameters.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import type { RunningEmulator } from '../../emulator/server.js';
import { createOAuthHandler } from '../../functions/session/oauth.js';
import { MAX_ATTEMPTS_PER_SOURCE, OAuthStateStore } from '../../functions/session/oauth-state.js';
import type { LocalDynamo } from '../../local/dynamodb.js';
import type { LocalSecretsManager } from '../../local/secrets-manager.js';
import { type EmulatorControl, signInAsDemo } from '../support/emulator-control.js';
import { useLoginStack } from '../support/login-stack.js';
import { httpGetEvent as httpEvent, sessionIds } from '../support/session-stack.js';

const IDS = sessionIds('login');
/** Two callers' addresses (documentation ranges): a stranger flooding the callback, and the trader's browser. */
const STRANGER = '203.0.113.7';
const TRADER = '198.51.100.20';
const { session: SESSION, stateTable: STATE_TABLE } = IDS;
const login = useLoginStack(IDS);
const { output, logger, env, bodyOf, session, exchanges, placeWith, loginRoundTrip } = login;

let emulator: RunningEmulator;
let secrets: LocalSecretsManager;
let dynamo: LocalDynamo;
let control: EmulatorControl;
beforeAll(() => {
  ({ emulator, control, secrets, dynamo } = login.current());
});

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
    expect(await store.attemptPending(TRADER, t + 600_000 + 1_000)).toEqual({ ok: false, reason: 'none' });
    const { state } = await store.issue(t);
    const held = await store.attemptPending(TRADER, t + 599_000);
    expect(held).toEqual({ ok: true, ref: state, attempt: 1, sourceAttempt: 1 });
    // An attempt does not end the login; a completion does, once.
    expect((await store.attemptPending(TRADER, t + 599_000)).ok).toBe(true);
    expect(await store.completePending(state, t + 599_000)).toBe(true);
    expect(await store.completePending(state, t + 599_000)).toBe(false);
    expect(await store.attemptPending(TRADER, t + 599_000)).toEqual({ ok: false, reason: 'none' });
    // Its state was withdrawn with it: a broker echoing it later cannot complete the login a second time.
    expect(await store.consume(state, t + 1_000)).toBe(false);
  });

  it('the store bounds the attempts of one address on one login, not the login: another address is still heard; a newer login starts afresh', async () => {
    const store = new OAuthStateStore(STATE_TABLE, 600, dynamo.url);
    const t = Date.now();
    const first = await store.issue(t);
    for (let i = 1; i <= MAX_ATTEMPTS_PER_SOURCE; i++)
      expect(await store.attemptPending(STRANGER, t)).toEqual({
        ok: true,
        ref: first.state,
        attempt: i,
        sourceAttempt: i,
      });
    const over = MAX_ATTEMPTS_PER_SOURCE + 1;
    expect(await store.attemptPending(STRANGER, t)).toEqual({ ok: false, reason: 'source-exhausted', attempt: over });
    expect(await store.attemptPending(TRADER, t)).toEqual({
      ok: true,
      ref: first.state,
      attempt: over + 1,
      sourceAttempt: 1,
    });
    const second = await store.issue(t);
    expect(await store.attemptPending(STRANGER, t)).toEqual({
      ok: true,
      ref: second.state,
      attempt: 1,
      sourceAttempt: 1,
    });
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
      oauthCallback: {
        outcome: 'code refused',
        code: 'BROKER_REJECTED',
        attempt: 2,
        sourceAttempt: 2,
        sourceLimit: MAX_ATTEMPTS_PER_SOURCE,
      },
    });
    for (const code of junk) expect(output.join('\n')).not.toContain(code);
    // The real redirect, after them: the session is written, once.
    const done = await oauth(httpEvent('/session/oauth/callback', query));
    expect(done.statusCode).toBe(200);
    expect(secrets.getPutCount(SESSION)).toBe(puts + 1);
    // And now the login is over: another callback finds none waiting.
    expect((await oauth(httpEvent('/session/oauth/callback', { code: 'junk-code-0003' }))).statusCode).toBe(400);
  });

  it("a flood of junk callbacks from one address is bounded and cannot block the trader's redirect from another", async () => {
    const oauth = createOAuthHandler({ env: env(), logger });
    const { query } = await loginRoundTrip(oauth);
    const puts = secrets.getPutCount(SESSION);
    output.length = 0;
    await control.clearRequests();
    // Three times the old cap of five attempts per login, from one address.
    const flood = 3 * MAX_ATTEMPTS_PER_SOURCE;
    const statuses: number[] = [];
    for (let i = 1; i <= flood; i++)
      statuses.push(
        (await oauth(httpEvent('/session/oauth/callback', { code: `junk-code-${i}` }, undefined, STRANGER)))
          .statusCode ?? 0,
      );
    // The address's first attempts reach the broker (refused there); the rest are refused here, at no broker call.
    expect(statuses).toEqual([
      ...Array<number>(MAX_ATTEMPTS_PER_SOURCE).fill(422),
      ...Array<number>(flood - MAX_ATTEMPTS_PER_SOURCE).fill(429),
    ]);
    expect(await exchanges()).toBe(MAX_ATTEMPTS_PER_SOURCE);
    const over = bodyOf(
      await oauth(httpEvent('/session/oauth/callback', { code: 'junk-code-over' }, undefined, STRANGER)),
    );
    expect(over.error).toMatchObject({ code: 'RATE_LIMITED' });
    expect(over.error!.message).toContain('the login still waits for a redirect from elsewhere');
    // Logged, with the count of callbacks this login had and the address; never the codes.
    const limited = output.filter((line) => line.includes('oauth callback refused: too many attempts from one source'));
    expect(limited).toHaveLength(flood - MAX_ATTEMPTS_PER_SOURCE + 1);
    expect(JSON.parse(limited.at(-1)!)).toMatchObject({
      level: 'WARN',
      oauthCallback: {
        outcome: 'source limit',
        source: STRANGER,
        attempt: flood + 1,
        sourceLimit: MAX_ATTEMPTS_PER_SOURCE,
      },
    });
    expect(output.join('\n')).not.toContain('junk-code-over');
    expect(secrets.getPutCount(SESSION)).toBe(puts);
    // The trader's real redirect, from the trader's browser, after all of them: signed in, once.
    const done = await oauth(httpEvent('/session/oauth/callback', query, 'text/html', TRADER));
    expect(done.statusCode).toBe(200);
    expect(String(done.body)).toContain('Broker session renewed');
    expect(secrets.getPutCount(SESSION)).toBe(puts + 1);
    expect(session()).toMatchObject({ uid: emulator.uid, method: 'oauth' });
    expect(await exchanges()).toBe(MAX_ATTEMPTS_PER_SOURCE + 1);
  });

  it('a new start gives the trader (or anyone) a fresh count', async () => {
    const oauth = createOAuthHandler({ env: env(), logger });
    await loginRoundTrip(oauth);
    for (let i = 0; i <= MAX_ATTEMPTS_PER_SOURCE; i++)
      await oauth(httpEvent('/session/oauth/callback', { code: `junk-code-again-${i}` }, undefined, TRADER));
    expect(
      (await oauth(httpEvent('/session/oauth/callback', { code: 'junk-code-again-x' }, undefined, TRADER))).statusCode,
    ).toBe(429);
    const again = await loginRoundTrip(oauth);
    expect((await oauth(httpEvent('/session/oauth/callback', again.query, undefined, TRADER))).statusCode).toBe(200);
  });

  it('each refused callback is counted in OAuthCallbacksRefused, by reason; a login that succeeds publishes nothing', async () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const emf: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      emf.push(
        ...String(chunk)
          .split('\n')
          .filter((l) => l.includes('"OAuthCallbacksRefused"')),
      );
      return true;
    });
    // Metrics read the environment when built: the handler is built after the stub.
    const oauth = createOAuthHandler({ env: env(), logger });
    const { query } = await loginRoundTrip(oauth);
    for (let i = 0; i <= MAX_ATTEMPTS_PER_SOURCE; i++)
      await oauth(httpEvent('/session/oauth/callback', { code: `junk-metric-${i}` }, undefined, STRANGER));
    expect((await oauth(httpEvent('/session/oauth/callback', query, undefined, TRADER))).statusCode).toBe(200);
    await oauth(httpEvent('/session/oauth/callback', { code: 'junk-metric-late' }, undefined, STRANGER));
    const reasons = emf.map(
      (line) => JSON.parse(line) as { Reason: string; OAuthCallbacksRefused: number; Function: string },
    );
    expect(reasons.map((m) => m.Reason)).toEqual([
      ...Array<string>(MAX_ATTEMPTS_PER_SOURCE).fill('CodeRefused'),
      'SourceLimit',
      'NoLogin',
    ]);
    expect(reasons[0]).toMatchObject({ OAuthCallbacksRefused: 1, Function: 'OAuthCallback' });
  });

  it('the start route refuses unknown query parameters and starts nothing', async () => {
    const oauth = createOAuthHandler({ env: env(), logger });
    const res = bodyOf(await oauth(httpEvent('/session/oauth/start', { x: '1' })));
    expect(res.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'x' }] });
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('what the callbacks leave behind', () => {
  it('no token, code, password or secret in any log line or reply of this file', () => {
    const text = output.join('\n');
    expect(text.length).toBeGreaterThan(0);
    for (const secret of [emulator.token, emulator.oauth.secret, emulator.login.password, emulator.login.apiSecret])
      expect(text).not.toContain(secret);
    const token = session().accessToken;
    if (token) expect(text).not.toContain(token);
  });
});
