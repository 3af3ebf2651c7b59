/** The emulator's control surface (/_emulator/...), as tests use it. */
import type { LoggedRequest } from '../../emulator/service.js';

export interface FaultSpec {
  operation: string;
  kind:
    | 'delay'
    | 'http5xx'
    | 'nonJson'
    | 'drop'
    | 'serverTimeout'
    | 'rateLimit'
    | 'notOk'
    | 'otherInstrument'
    | 'swappedLegs';
  times?: number;
  delayMs?: number;
  status?: number;
  message?: string;
  executed?: boolean;
  /** A delay whose work is carried out when it ends, even if the client gave up. */
  late?: boolean;
}

export const emulatorControl = (baseUrl: string) => {
  const send = (method: string, path: string, body?: unknown) =>
    fetch(`${baseUrl}/_emulator/${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    // The emulator runs in the test's own process: after a long synchronous step (a CDK synth) its idle-socket timer
    // and fetch's reuse of that pooled socket race, and the reused socket is reset before a byte is read. Control
    // calls are idempotent test tooling, so that one case is sent again on a fresh connection; nothing else is.
    const res = await send(method, path, body).catch((error: unknown) => {
      const code = (error as { cause?: { code?: string } }).cause?.code;
      if (code !== 'ECONNRESET') throw error;
      return send(method, path, body);
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`emulator control ${method} ${path}: HTTP ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return {
    reset: () => call<unknown>('POST', 'reset'),
    requests: async () => (await call<{ requests: LoggedRequest[] }>('GET', 'requests')).requests,
    clearRequests: () => call<unknown>('DELETE', 'requests'),
    fault: (spec: FaultSpec) => call<{ id: string }>('POST', 'faults', spec),
    clearFaults: () => call<unknown>('DELETE', 'faults'),
    createAccount: (spec: { uid?: string; actid?: string; token?: string } = {}) =>
      call<{ uid: string; actid: string; token: string }>('POST', 'accounts', spec),
    newSession: (uid: string, token?: string) =>
      call<{ uid: string; token: string }>('POST', 'sessions', { uid, token }),
    expire: (token: string) => call<unknown>('POST', 'sessions/expire', { token }),
    orders: async (uid: string) =>
      (
        await call<{ orders: { al_id: string; state: string; tsym: string; remarks?: string }[] }>(
          'GET',
          `orders?uid=${encodeURIComponent(uid)}`,
        )
      ).orders,
    switches: (values: Record<string, boolean>) => call<unknown>('POST', 'switches', values),
    /**
     * Moves a symbol's last traded price (pending GTTs it crosses fire); `close` sets its previous close (the band),
     * `figures` what the other alert types watch beside it (the 52-week high and low set before the price).
     */
    ltp: (
      exch: string,
      tsym: string,
      ltp: number,
      close?: number,
      figures: {
        atp?: number;
        oi?: number;
        toi?: number;
        volume?: number;
        week52High?: number;
        week52Low?: number;
      } = {},
    ) =>
      call<{ fired: { al_id: string; norenordno: string; status: string }[] }>('POST', 'ltp', {
        exch,
        tsym,
        ltp,
        ...(close === undefined ? {} : { close }),
        ...figures,
      }),
    /** The close of the trading day: open orders (or only the one named) cancelled, keeping what filled. */
    close: (norenordno?: string) =>
      call<{ cancelled: string[] }>('POST', 'close', norenordno === undefined ? {} : { norenordno }),
    /** Where the emulator's authorize page sends the browser after login (the app's registered redirect URL). */
    oauthRedirect: (redirectUrl: string) => call<unknown>('POST', 'oauth', { redirectUrl }),
    /** What the demo account's authenticator shows now. */
    otp: async () => (await call<{ otp: string }>('GET', 'otp')).otp,
  };
};

/**
 * A trader signing in on a broker login page, as a browser does: the form (user id, password, OTP) posted back to
 * the page's own address. Answers the raw reply (a 302 to the redirect URL on success).
 */
export const signIn = async (
  loginUrl: string | URL,
  credentials: { uid: string; password: string; otp: string },
): Promise<Response> =>
  fetch(loginUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      lgnusrid: credentials.uid,
      lgnpwd: credentials.password,
      lgnotp: credentials.otp,
    }).toString(),
  });

/** Signs in as the emulator's demo account (its password and current OTP) and answers where the page redirects. */
export const signInAsDemo = async (
  emulator: { url: string; uid: string; login: { password: string } },
  loginUrl: string | URL,
): Promise<URL> => {
  const otp = await emulatorControl(emulator.url).otp();
  const reply = await signIn(loginUrl, { uid: emulator.uid, password: emulator.login.password, otp });
  if (reply.status !== 302) throw new Error(`sign-in failed: HTTP ${reply.status} ${await reply.text()}`);
  return new URL(reply.headers.get('location')!);
};

export type EmulatorControl = ReturnType<typeof emulatorControl>;
