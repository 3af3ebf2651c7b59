/**
 * The console's deployed sign-in (console/src/auth/cognito.ts) against a fake on 127.0.0.1 of the managed login's
 * token endpoint, the identity pool's two calls and the API: the code flow with PKCE (the fake checks the verifier
 * against the challenge the page sent), the credentials for the id token, every API call SigV4-signed (recomputed
 * by @smithy/signature-v4), renewal before expiry, a reload, a forged answer refused, sign-out.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type BrowserSurface, startCognitoSession, STORAGE_KEYS } from '../../console/src/auth/cognito.js';
import type { CognitoConfig } from '../../console/src/config.js';
import { authorizationOf, type CapturedRequest, recomputeSignature } from '../../local/permissions/sigv4.js';

const REGION = 'ap-south-1';
const POOL = 'ap-south-1_AbCdEf123';
const CLIENT = '1example23456789';
const IDENTITY_POOL = 'ap-south-1:0a1b2c3d-1111-2222-3333-444455556666';
const EMAIL = 'trader@example.com';

let server: http.Server;
let base: string;
let config: CognitoConfig;

/** What the fake saw and what it holds. */
const fake = {
  challenge: '',
  tokenCalls: [] as URLSearchParams[],
  identityCalls: [] as { target: string; body: Record<string, unknown> }[],
  api: [] as CapturedRequest[],
  issued: 0,
  idToken: '',
  /** Seconds the next id token and credentials live. */
  tokenSeconds: 3600,
  credentialSeconds: 3600,
  /** The fake's clock, epoch ms (the session's `now` too). */
  now: 1_900_000_000_000,
  credentials: new Map<string, { secretAccessKey: string; sessionToken: string }>(),
  /** The refresh token has run out (its twelve hours). */
  refreshRefused: false,
};

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const newIdToken = () => {
  fake.issued += 1;
  fake.idToken = `${b64({ alg: 'none' })}.${b64({ email: EMAIL, n: fake.issued })}.sig`;
  return fake.idToken;
};
const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const answerToken = (form: URLSearchParams, res: http.ServerResponse) => {
  fake.tokenCalls.push(form);
  if (form.get('client_id') !== CLIENT) return json(res, 400, { error: 'invalid_client' });
  if (form.get('grant_type') === 'authorization_code') {
    const verifier = form.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (
      form.get('code') !== 'the-code' ||
      challenge !== fake.challenge ||
      form.get('redirect_uri') !== config.redirectUri
    )
      return json(res, 400, { error: 'invalid_grant' });
    return json(res, 200, {
      id_token: newIdToken(),
      access_token: 'access',
      refresh_token: 'refresh-1',
      expires_in: fake.tokenSeconds,
      token_type: 'Bearer',
    });
  }
  if (form.get('grant_type') === 'refresh_token' && form.get('refresh_token') === 'refresh-1' && !fake.refreshRefused)
    return json(res, 200, { id_token: newIdToken(), access_token: 'access', expires_in: fake.tokenSeconds });
  return json(res, 400, { error: 'invalid_grant' });
};

const answerIdentity = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => {
  const target = String(req.headers['x-amz-target']).replace('AWSCognitoIdentityService.', '');
  const parsed = JSON.parse(body) as Record<string, unknown>;
  fake.identityCalls.push({ target, body: parsed });
  const logins = parsed.Logins as Record<string, string>;
  if (logins[`cognito-idp.${REGION}.amazonaws.com/${POOL}`] !== fake.idToken)
    return json(res, 400, { __type: 'com.amazonaws.cognito.identity#NotAuthorizedException', message: 'x' });
  if (target === 'GetId') {
    if (parsed.IdentityPoolId !== IDENTITY_POOL) return json(res, 400, { __type: 'ResourceNotFoundException' });
    return json(res, 200, { IdentityId: `${REGION}:identity-1` });
  }
  const accessKeyId = `ASIAFAKE${fake.credentials.size + 1}`;
  const issued = { secretAccessKey: `secret-${accessKeyId}`, sessionToken: `session-${accessKeyId}` };
  fake.credentials.set(accessKeyId, issued);
  return json(res, 200, {
    IdentityId: parsed.IdentityId,
    Credentials: {
      AccessKeyId: accessKeyId,
      SecretKey: issued.secretAccessKey,
      SessionToken: issued.sessionToken,
      Expiration: Math.floor(fake.now / 1000) + fake.credentialSeconds,
    },
  });
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/oauth2/token') return answerToken(new URLSearchParams(body), res);
      if (path === '/identity/') return answerIdentity(req, body, res);
      fake.api.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      return json(res, 200, { ok: true });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  config = {
    mode: 'cognito',
    region: REGION,
    apiUrl: `${base}/api`,
    userPoolId: POOL,
    userPoolClientId: CLIENT,
    identityPoolId: IDENTITY_POOL,
    authUrl: base,
    redirectUri: 'https://d111111abcdef8.cloudfront.net/',
  };
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** A tab: its URL, its sessionStorage, where it went. */
const tab = (href = config.redirectUri, storage = new Map<string, string>()) => {
  const visited: string[] = [];
  const replaced: string[] = [];
  let current = href;
  const surface: BrowserSurface = {
    href: () => current,
    navigate: (url) => visited.push(url),
    replaceUrl: (url) => {
      replaced.push(url);
      current = url;
    },
    storage: {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
      removeItem: (key) => void storage.delete(key),
    },
    fetch: (input, init) => fetch(input, init),
    now: () => fake.now,
    random: (n) => crypto.getRandomValues(new Uint8Array(n)),
    identityUrl: `${base}/identity/`,
  };
  return { surface, storage, visited, replaced, goTo: (url: string) => (current = url) };
};

/** Starts the sign-in in a tab and comes back with the code, as the managed login would. */
const signedIn = async () => {
  const t = tab();
  void startCognitoSession(config, t.surface);
  await expect.poll(() => t.visited.length).toBe(1);
  const authorize = new URL(t.visited[0]!);
  fake.challenge = authorize.searchParams.get('code_challenge')!;
  const back = new URL(config.redirectUri);
  back.searchParams.set('code', 'the-code');
  back.searchParams.set('state', authorize.searchParams.get('state')!);
  t.goTo(back.toString());
  return { t, session: await startCognitoSession(config, t.surface) };
};

beforeEach(() => {
  Object.assign(fake, {
    tokenCalls: [],
    identityCalls: [],
    api: [],
    tokenSeconds: 3600,
    credentialSeconds: 3600,
    refreshRefused: false,
  });
  fake.credentials.clear();
});

describe('the sign-in', () => {
  it('without a session, sends the page to the managed login with a S256 challenge and keeps only the verifier and state', async () => {
    const t = tab();
    const pending = startCognitoSession(config, t.surface);
    await expect.poll(() => t.visited.length).toBe(1);
    const url = new URL(t.visited[0]!);
    expect(`${url.origin}${url.pathname}`).toBe(`${base}/oauth2/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBe(t.storage.get(STORAGE_KEYS.state));
    const verifier = t.storage.get(STORAGE_KEYS.verifier)!;
    expect(url.searchParams.get('code_challenge')).toBe(createHash('sha256').update(verifier).digest('base64url'));
    expect([...t.storage.keys()].sort()).toEqual([STORAGE_KEYS.state, STORAGE_KEYS.verifier].sort());
    // The page is leaving: the session never settles.
    expect(await Promise.race([pending.then(() => 'settled'), new Promise((r) => setTimeout(r, 50, 'pending'))])).toBe(
      'pending',
    );
  });

  it('exchanges the code with the verifier, gets credentials for the id token, keeps only the refresh token', async () => {
    const { t, session } = await signedIn();
    expect(session.user).toBe(EMAIL);
    expect(fake.tokenCalls.map((f) => f.get('grant_type'))).toEqual(['authorization_code']);
    expect(fake.identityCalls.map((c) => c.target)).toEqual(['GetId', 'GetCredentialsForIdentity']);
    // The code and state are gone from the address bar; sessionStorage holds the refresh token and nothing else.
    expect(t.replaced.at(-1)).toBe(config.redirectUri);
    expect([...t.storage.entries()]).toEqual([[STORAGE_KEYS.refreshToken, 'refresh-1']]);
    expect(JSON.stringify([...t.storage.values()])).not.toContain(fake.idToken.split('.')[1]);
  });

  it('refuses an answer whose state this tab did not send, without calling the token endpoint', async () => {
    const t = tab(`${config.redirectUri}?code=the-code&state=forged`, new Map([[STORAGE_KEYS.state, 'mine']]));
    await expect(startCognitoSession(config, t.surface)).rejects.toThrow(/does not match a sign-in started/);
    expect(fake.tokenCalls).toEqual([]);
    expect(t.replaced.at(-1)).toBe(config.redirectUri);
  });

  it("names the token endpoint's error code, never its answer", async () => {
    const t = tab(
      `${config.redirectUri}?code=wrong&state=s`,
      new Map([
        [STORAGE_KEYS.state, 's'],
        [STORAGE_KEYS.verifier, 'v'.repeat(64)],
      ]),
    );
    await expect(startCognitoSession(config, t.surface)).rejects.toThrow(
      'sign-in failed at the token endpoint: invalid_grant',
    );
  });
});

describe('signed calls', () => {
  it("signs every call to the API with the identity's credentials, as API Gateway checks them", async () => {
    const { session } = await signedIn();
    const body = JSON.stringify({ tsym: 'INFY-EQ', qty: 1 });
    const response = await session.fetch('/gtt-orders?dryRun=true', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k-1' },
      body,
    });
    expect(response.status).toBe(200);
    const [request] = fake.api;
    expect(request!.url).toBe('/api/gtt-orders?dryRun=true');
    expect(request!.body).toBe(body);
    const auth = authorizationOf(request!);
    expect(auth).toMatchObject({ accessKeyId: 'ASIAFAKE1', region: REGION, service: 'execute-api' });
    expect(auth.signedHeaders).toContain('idempotency-key');
    const issued = fake.credentials.get('ASIAFAKE1')!;
    expect(request!.headers['x-amz-security-token']).toBe(issued.sessionToken);
    expect(await recomputeSignature(request!, { accessKeyId: 'ASIAFAKE1', ...issued })).toBe(auth.signature);
  });

  it('renews the credentials before they expire, once for calls made together', async () => {
    const { session } = await signedIn();
    await session.fetch('/kill-switch');
    // Six minutes before the credentials' end: still fine.
    fake.now += 54 * 60_000;
    await session.fetch('/kill-switch');
    expect(fake.identityCalls.filter((c) => c.target === 'GetCredentialsForIdentity')).toHaveLength(1);
    // Four minutes before: renewed, once for two calls; the id token (an hour too) is refreshed first.
    fake.now += 2 * 60_000;
    await Promise.all([session.fetch('/kill-switch'), session.fetch('/session')]);
    expect(fake.identityCalls.filter((c) => c.target === 'GetCredentialsForIdentity')).toHaveLength(2);
    expect(fake.tokenCalls.map((f) => f.get('grant_type'))).toEqual(['authorization_code', 'refresh_token']);
    expect(fake.api.slice(-2).map((r) => authorizationOf(r).accessKeyId)).toEqual(['ASIAFAKE2', 'ASIAFAKE2']);
    fake.now -= 56 * 60_000;
  });

  it('renews the credentials alone while the id token is still good', async () => {
    fake.credentialSeconds = 900;
    const { session } = await signedIn();
    fake.now += 11 * 60_000;
    await session.fetch('/kill-switch');
    expect(fake.tokenCalls.map((f) => f.get('grant_type'))).toEqual(['authorization_code']);
    expect(authorizationOf(fake.api.at(-1)!).accessKeyId).toBe('ASIAFAKE2');
    fake.now -= 11 * 60_000;
  });
});

describe('the end of the day', () => {
  it('sends the page to the managed login when the refresh token is refused', async () => {
    const { t, session } = await signedIn();
    // The next day: the credentials and the id token have run out, and so has the refresh token.
    fake.refreshRefused = true;
    fake.now += 13 * 3600_000;
    const call = session.fetch('/kill-switch');
    await expect.poll(() => t.visited.length).toBe(2);
    expect(t.visited[1]).toContain('/oauth2/authorize?');
    expect(t.storage.has(STORAGE_KEYS.refreshToken)).toBe(false);
    expect(fake.api).toEqual([]);
    void call;
    fake.now -= 13 * 3600_000;
  });
});

describe('a reload and the sign-out', () => {
  it("resumes the tab's session from its refresh token without the managed login", async () => {
    const { t } = await signedIn();
    const again = tab(config.redirectUri, t.storage);
    const session = await startCognitoSession(config, again.surface);
    expect(again.visited).toEqual([]);
    expect(session.user).toBe(EMAIL);
    expect(fake.tokenCalls.map((f) => f.get('grant_type'))).toEqual(['authorization_code', 'refresh_token']);
  });

  it('signs in again when the refresh token is refused', async () => {
    const t = tab(config.redirectUri, new Map([[STORAGE_KEYS.refreshToken, 'revoked']]));
    void startCognitoSession(config, t.surface);
    await expect.poll(() => t.visited.length).toBe(1);
    expect(t.visited[0]).toContain('/oauth2/authorize?');
    expect(t.storage.has(STORAGE_KEYS.refreshToken)).toBe(false);
  });

  it("clears the tab's storage and ends the managed login's session", async () => {
    const { t, session } = await signedIn();
    session.signOut!();
    expect(t.storage.size).toBe(0);
    const url = new URL(t.visited.at(-1)!);
    expect(`${url.origin}${url.pathname}`).toBe(`${base}/logout`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: CLIENT, logout_uri: config.redirectUri });
  });
});
