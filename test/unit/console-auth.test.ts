/**
 * The console's sign-in, its pure parts (console/src/auth/oauth.ts, console/src/config.ts): PKCE's S256 challenge
 * (RFC 7636's own example), the managed login's authorize and logout URLs, when tokens count as expiring, the user
 * shown, and config.json's schema. The exchanges against a fake of the endpoints: test/integration/console-sign-in.
 */
import { describe, expect, it } from 'vitest';

import {
  authorizeUrl,
  base64Url,
  createPkce,
  createState,
  expiresSoon,
  logoutUrl,
  pkceChallenge,
  RENEW_MARGIN_MS,
  userOf,
} from '../../console/src/auth/oauth.js';
import { type CognitoConfig, consoleConfigSchema } from '../../console/src/config.js';

export const CONFIG: CognitoConfig = {
  mode: 'cognito',
  region: 'ap-south-1',
  apiUrl: 'https://abc123.execute-api.ap-south-1.amazonaws.com',
  userPoolId: 'ap-south-1_AbCdEf123',
  userPoolClientId: '1example23456789',
  identityPoolId: 'ap-south-1:0a1b2c3d-1111-2222-3333-444455556666',
  authUrl: 'https://gtt-alice.auth.ap-south-1.amazoncognito.com',
  redirectUri: 'https://d111111abcdef8.cloudfront.net/',
};

describe('PKCE', () => {
  it("computes RFC 7636's S256 example challenge", async () => {
    // RFC 7636, appendix B.
    expect(await pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes a 64-character verifier of the unreserved set from 48 random bytes, and its challenge', async () => {
    const pkce = await createPkce((n) => new Uint8Array(n).map((_, i) => (i * 37 + 251) % 256));
    expect(pkce.verifier).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(pkce.challenge).toBe(await pkceChallenge(pkce.verifier));
    expect(pkce.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Real randomness: two verifiers differ.
    expect((await createPkce()).verifier).not.toBe((await createPkce()).verifier);
    expect(createState()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('base64url-encodes without padding, + or /', () => {
    expect(base64Url(new Uint8Array([0xfb, 0xff, 0xfe]))).toBe('-__-');
    expect(base64Url(new Uint8Array([1]))).toBe('AQ');
  });
});

describe("the managed login's URLs", () => {
  it('asks for a code with the S256 challenge, the state and the console as the redirect', () => {
    const url = new URL(authorizeUrl(CONFIG, 'st4te', 'ch4llenge'));
    expect(`${url.origin}${url.pathname}`).toBe('https://gtt-alice.auth.ap-south-1.amazoncognito.com/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: CONFIG.userPoolClientId,
      redirect_uri: CONFIG.redirectUri,
      scope: 'openid email',
      state: 'st4te',
      code_challenge: 'ch4llenge',
      code_challenge_method: 'S256',
    });
  });

  it('signs out back to the console', () => {
    const url = new URL(logoutUrl({ ...CONFIG, authUrl: `${CONFIG.authUrl}/` }));
    expect(`${url.origin}${url.pathname}`).toBe('https://gtt-alice.auth.ap-south-1.amazoncognito.com/logout');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: CONFIG.userPoolClientId,
      logout_uri: CONFIG.redirectUri,
    });
  });
});

describe('expiry', () => {
  it('renews within five minutes of the expiry, or after it', () => {
    const now = 1_000_000_000_000;
    expect(expiresSoon(now + RENEW_MARGIN_MS + 1, now)).toBe(false);
    expect(expiresSoon(now + RENEW_MARGIN_MS, now)).toBe(true);
    expect(expiresSoon(now - 1, now)).toBe(true);
    expect(RENEW_MARGIN_MS).toBe(300_000);
  });

  it("shows the id token's email, or nothing for a token it cannot read", () => {
    const payload = base64Url(new TextEncoder().encode(JSON.stringify({ email: 'trader@example.com', sub: 'x' })));
    expect(userOf(`h.${payload}.s`)).toBe('trader@example.com');
    expect(userOf('not-a-token')).toBeUndefined();
    expect(userOf('h.%%%.s')).toBeUndefined();
  });
});

describe('config.json', () => {
  it('is {"mode":"local"} locally or the deployed ids, nothing else', () => {
    expect(consoleConfigSchema.parse({ mode: 'local' })).toEqual({ mode: 'local' });
    expect(consoleConfigSchema.parse(CONFIG)).toEqual(CONFIG);
    expect(consoleConfigSchema.safeParse({ ...CONFIG, extra: 1 }).success).toBe(false);
    expect(consoleConfigSchema.safeParse({ ...CONFIG, identityPoolId: undefined }).success).toBe(false);
    expect(consoleConfigSchema.safeParse({ mode: 'other' }).success).toBe(false);
  });

  it('refuses plain http but on loopback', () => {
    expect(consoleConfigSchema.safeParse({ ...CONFIG, apiUrl: 'http://abc.example.com' }).success).toBe(false);
    expect(consoleConfigSchema.safeParse({ ...CONFIG, authUrl: 'http://127.0.0.1:4000' }).success).toBe(true);
    expect(consoleConfigSchema.safeParse({ ...CONFIG, region: 'mumbai' }).success).toBe(false);
  });
});
