/**
 * The managed login's OAuth 2.0 code flow with PKCE (RFC 7636, S256) as a browser without a client secret does it:
 * the verifier and its challenge, the authorize and logout URLs, the code and refresh-token exchanges at
 * `<authUrl>/oauth2/token`, and when a token or credentials count as expiring. No token is ever logged.
 */
import type { CognitoConfig } from '../config.js';

/** The scopes asked for: the id token (identity pool login) and the user's email (who is signed in). */
export const SCOPES = 'openid email';
/** Renew this long before an expiry: a call signed now must still be valid when API Gateway checks it. */
export const RENEW_MARGIN_MS = 5 * 60_000;

export const base64Url = (bytes: Uint8Array): string => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

export type RandomBytes = (length: number) => Uint8Array;
export const cryptoRandom: RandomBytes = (length) => crypto.getRandomValues(new Uint8Array(length));

interface Pkce {
  /** 64 characters of [A-Za-z0-9_-] (RFC 7636: 43 to 128 of the unreserved set). */
  verifier: string;
  /** BASE64URL(SHA-256(verifier)), for `code_challenge_method=S256`. */
  challenge: string;
}

export const pkceChallenge = async (verifier: string): Promise<string> =>
  base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));

export const createPkce = async (random: RandomBytes = cryptoRandom): Promise<Pkce> => {
  const verifier = base64Url(random(48));
  return { verifier, challenge: await pkceChallenge(verifier) };
};

/** A fresh opaque state (256 bits) that ties the answer to the request this tab made. */
export const createState = (random: RandomBytes = cryptoRandom): string => base64Url(random(32));

const endpoint = (config: CognitoConfig, path: string): URL => new URL(path, config.authUrl.replace(/\/?$/, '/'));

export const authorizeUrl = (config: CognitoConfig, state: string, challenge: string): string => {
  const url = endpoint(config, 'oauth2/authorize');
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: config.userPoolClientId,
    redirect_uri: config.redirectUri,
    scope: SCOPES,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
};

export const logoutUrl = (config: CognitoConfig): string => {
  const url = endpoint(config, 'logout');
  url.search = new URLSearchParams({ client_id: config.userPoolClientId, logout_uri: config.redirectUri }).toString();
  return url.toString();
};

export interface Tokens {
  idToken: string;
  /** The id token's expiry, epoch milliseconds. */
  expiresAt: number;
  /** Absent when a refresh answers without a new one (Cognito keeps the old one valid). */
  refreshToken?: string;
}

interface TokenAnswer {
  id_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
  error?: unknown;
}

const postToken = async (
  config: CognitoConfig,
  form: Record<string, string>,
  fetchFn: typeof fetch,
  now: number,
): Promise<Tokens> => {
  const response = await fetchFn(endpoint(config, 'oauth2/token').toString(), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: config.userPoolClientId, ...form }).toString(),
  });
  const answer = (await response.json().catch(() => ({}))) as TokenAnswer;
  if (!response.ok || typeof answer.id_token !== 'string') {
    // The error code only (invalid_grant...): never the answer, which may hold tokens.
    const code = typeof answer.error === 'string' ? answer.error : `HTTP ${response.status}`;
    throw new Error(`sign-in failed at the token endpoint: ${code}`);
  }
  const seconds = typeof answer.expires_in === 'number' ? answer.expires_in : 3600;
  return {
    idToken: answer.id_token,
    expiresAt: now + seconds * 1000,
    ...(typeof answer.refresh_token === 'string' ? { refreshToken: answer.refresh_token } : {}),
  };
};

/** The authorization code and this tab's verifier for the tokens. */
export const exchangeCode = (
  config: CognitoConfig,
  code: string,
  verifier: string,
  fetchFn: typeof fetch,
  now = Date.now(),
): Promise<Tokens> =>
  postToken(
    config,
    { grant_type: 'authorization_code', code, redirect_uri: config.redirectUri, code_verifier: verifier },
    fetchFn,
    now,
  );

export const refreshTokens = async (
  config: CognitoConfig,
  refreshToken: string,
  fetchFn: typeof fetch,
  now = Date.now(),
): Promise<Tokens> => ({
  refreshToken,
  ...(await postToken(config, { grant_type: 'refresh_token', refresh_token: refreshToken }, fetchFn, now)),
});

/** True when `expiresAt` (epoch ms) is within the renewal margin of `now`, or past. */
export const expiresSoon = (expiresAt: number, now: number, margin = RENEW_MARGIN_MS): boolean =>
  expiresAt - now <= margin;

/** The id token's `email` (or `cognito:username`), for display only: the token is not verified here. */
export const userOf = (idToken: string): string | undefined => {
  const payload = idToken.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as Record<string, unknown>;
    const user = claims.email ?? claims['cognito:username'];
    return typeof user === 'string' ? user : undefined;
  } catch {
    return undefined;
  }
};
