/**
 * The deployed console's sign-in (docs/reference/console.md#deployed): the managed login with the code flow and PKCE, the id
 * token exchanged for the identity pool's temporary credentials, and every API call SigV4-signed (service
 * `execute-api`) with them, renewed before they expire. Only this tab's refresh token (and, during a sign-in, its
 * PKCE verifier and state) are kept, in sessionStorage; the id token and the credentials stay in memory. Sign-out
 * clears them and ends the managed login's session.
 */
import { AwsV4Signer } from 'aws4fetch';

import type { CognitoConfig } from '../config.js';
import { identityCredentials, identityEndpoint, type TemporaryCredentials } from './identity.js';
import type { Session } from './index.js';
import {
  authorizeUrl,
  createPkce,
  createState,
  cryptoRandom,
  exchangeCode,
  expiresSoon,
  logoutUrl,
  type RandomBytes,
  refreshTokens,
  type Tokens,
  userOf,
} from './oauth.js';

/** What the session keeps in sessionStorage, by key. */
export const STORAGE_KEYS = {
  verifier: 'gtt.console.pkce',
  state: 'gtt.console.state',
  refreshToken: 'gtt.console.refresh',
} as const;

interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The browser's parts the session uses; a test gives its own. */
export interface BrowserSurface {
  /** The page's URL now (with `?code=&state=` after the managed login). */
  href: () => string;
  /** Leaves the page for `url` (the managed login, its logout). */
  navigate: (url: string) => void;
  /** Replaces the page's URL without loading it (drops the code from the address bar and history). */
  replaceUrl: (url: string) => void;
  storage: KeyValueStore;
  fetch: typeof fetch;
  now: () => number;
  random: RandomBytes;
  /** The identity pool's endpoint; default `https://cognito-identity.<region>.amazonaws.com/`. */
  identityUrl?: string;
}

interface BrowserGlobals {
  location: { href: string; assign(url: string): void };
  history: { replaceState(data: unknown, unused: string, url: string): void };
  sessionStorage: KeyValueStore;
}

const browser = (): BrowserSurface => {
  const g = globalThis as unknown as BrowserGlobals;
  return {
    href: () => g.location.href,
    navigate: (url) => g.location.assign(url),
    replaceUrl: (url) => g.history.replaceState(null, '', url),
    storage: g.sessionStorage,
    fetch: (input, init) => globalThis.fetch(input, init),
    now: () => Date.now(),
    random: cryptoRandom,
  };
};

/** A path (`/gtt-orders?x=1`) is the API's, under its URL's own path if it has one; a full URL is itself. */
export const apiUrlOf = (config: CognitoConfig, input: string | URL): string => {
  const text = String(input);
  return text.startsWith('/') ? `${config.apiUrl.replace(/\/+$/, '')}${text}` : new URL(text).toString();
};

/** Sends the page to the managed login, this tab's verifier and state kept for its answer. */
const signIn = async (config: CognitoConfig, surface: BrowserSurface): Promise<never> => {
  const pkce = await createPkce(surface.random);
  const state = createState(surface.random);
  surface.storage.setItem(STORAGE_KEYS.verifier, pkce.verifier);
  surface.storage.setItem(STORAGE_KEYS.state, state);
  surface.navigate(authorizeUrl(config, state, pkce.challenge));
  // The page is leaving: nothing to resolve.
  return new Promise<never>(() => undefined);
};

/** The tokens from the managed login's answer in the URL, if this is that answer; undefined otherwise. */
const fromRedirect = async (config: CognitoConfig, surface: BrowserSurface): Promise<Tokens | undefined> => {
  const url = new URL(surface.href());
  const code = url.searchParams.get('code');
  const state = url.searchParams.get('state');
  const error = url.searchParams.get('error');
  if (!code && !error) return undefined;
  const expected = surface.storage.getItem(STORAGE_KEYS.state);
  const verifier = surface.storage.getItem(STORAGE_KEYS.verifier);
  surface.storage.removeItem(STORAGE_KEYS.state);
  surface.storage.removeItem(STORAGE_KEYS.verifier);
  for (const name of ['code', 'state', 'error', 'error_description']) url.searchParams.delete(name);
  surface.replaceUrl(url.toString());
  if (error) throw new Error(`the sign-in was refused: ${error}`);
  if (!state || !expected || state !== expected || !verifier) {
    throw new Error('the sign-in answer does not match a sign-in started in this tab: sign in again');
  }
  return exchangeCode(config, code!, verifier, surface.fetch, surface.now());
};

/**
 * The signed-in session: resumes this tab's (its refresh token), finishes a sign-in (the code in the URL) or starts
 * one (the page goes to the managed login and the promise never settles).
 */
export const startCognitoSession = async (
  config: CognitoConfig,
  surface: BrowserSurface = browser(),
): Promise<Session> => {
  let tokens = await fromRedirect(config, surface);
  if (!tokens) {
    const refreshToken = surface.storage.getItem(STORAGE_KEYS.refreshToken);
    if (!refreshToken) return signIn(config, surface);
    tokens = await refreshTokens(config, refreshToken, surface.fetch, surface.now()).catch(() => undefined);
    if (!tokens) {
      surface.storage.removeItem(STORAGE_KEYS.refreshToken);
      return signIn(config, surface);
    }
  }
  if (tokens.refreshToken) surface.storage.setItem(STORAGE_KEYS.refreshToken, tokens.refreshToken);
  const identityUrl = surface.identityUrl ?? identityEndpoint(config.region);
  let current: Tokens = tokens;
  let credentials: TemporaryCredentials = await identityCredentials(
    config,
    current.idToken,
    surface.fetch,
    identityUrl,
  );
  let renewing: Promise<TemporaryCredentials> | undefined;

  /**
   * Fresh credentials: the id token refreshed first if it expires soon, then new credentials for it. A refresh
   * token refused (the day's twelve hours over, signed out elsewhere) sends the page to the managed login.
   */
  const renew = async (): Promise<TemporaryCredentials> => {
    if (expiresSoon(current.expiresAt, surface.now())) {
      const refreshToken = current.refreshToken ?? surface.storage.getItem(STORAGE_KEYS.refreshToken);
      const refreshed = refreshToken
        ? await refreshTokens(config, refreshToken, surface.fetch, surface.now()).catch(() => undefined)
        : undefined;
      if (!refreshed) {
        surface.storage.removeItem(STORAGE_KEYS.refreshToken);
        return signIn(config, surface);
      }
      current = refreshed;
    }
    return identityCredentials(config, current.idToken, surface.fetch, identityUrl);
  };
  const fresh = async (): Promise<TemporaryCredentials> => {
    if (!expiresSoon(credentials.expiresAt, surface.now())) return credentials;
    renewing ??= renew().finally(() => (renewing = undefined));
    credentials = await renewing;
    return credentials;
  };

  const signedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? new Request(input, init) : new Request(apiUrlOf(config, input), init);
    const body = request.body === null ? undefined : await request.clone().text();
    const c = await fresh();
    const signed = await new AwsV4Signer({
      url: request.url,
      method: request.method,
      headers: request.headers,
      ...(body === undefined ? {} : { body }),
      accessKeyId: c.accessKeyId,
      secretAccessKey: c.secretAccessKey,
      sessionToken: c.sessionToken,
      service: 'execute-api',
      region: config.region,
    }).sign();
    return surface.fetch(signed.url.toString(), {
      method: signed.method,
      headers: signed.headers,
      ...(body === undefined ? {} : { body }),
      ...(request.signal ? { signal: request.signal } : {}),
    });
  };

  const user = userOf(current.idToken);
  return {
    fetch: signedFetch as typeof fetch,
    ...(user ? { user } : {}),
    signOut: () => {
      for (const key of Object.values(STORAGE_KEYS)) surface.storage.removeItem(key);
      surface.navigate(logoutUrl(config));
    },
  };
};
