/**
 * The daily login exactly as a trader runs it against `npm start`: `gtt login` prints the broker's login page, the
 * trader signs in there (user id, password, OTP), the page redirects to the local callback, a new token lands in
 * the local session secret, `gtt login` sees it, and orders go through. Both ways a broker may redirect: with `code`
 * only (the live brokers, the emulator's default) and with `state` echoed (the emulator's switch).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { signIn } from '../support/emulator-control.js';
import { CONDITION_BOUND_MS, type Started, startScript, waitUntil } from '../support/processes.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let started: Started;
let api: string;
let emulator: string;
let password: string;

beforeAll(async () => {
  started = await startScript(
    'local/start.ts',
    ['--port', '0'],
    /gtt-gateway local API\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*broker emulator\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*password (\S+)[\s\S]*Login on loopback[\s\S]*session --url/,
  );
  api = started.match[1]!;
  emulator = started.match[2]!;
  password = started.match[3]!;
});

afterAll(async () => {
  await started?.stop();
});

const otp = async () => ((await (await fetch(`${emulator}/_emulator/otp`)).json()) as { otp: string }).otp;

/** `gtt login` as a child process: resolves with its login page once printed, and its exit once it ends. */
const gttLogin = async () => {
  const login = await startScript(
    'client/cli.ts',
    // It waits for the login as long as the harness waits for anything; it ends as soon as the login is done.
    ['login', '--url', api, '--wait', String(CONDITION_BOUND_MS / 1000)],
    /Open this page[^\n]*\n\n\s+(http\S+)/,
  );
  const exited = new Promise<number | null>((resolve) => login.child.once('exit', (code) => resolve(code)));
  return { page: login.match[1]!, exited, output: login.output };
};

describe('npm start: the daily login', () => {
  it.each([
    ['code only, as the live brokers redirect', false],
    ['state echoed, as a broker may', true],
  ])(
    '%s: gtt login -> sign in -> callback -> a new session, announced, and orders go through',
    async (_label, echo) => {
      await fetch(`${emulator}/_emulator/switches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ echoOAuthState: echo }),
      });
      const before = (await (await fetch(`${api}/session`)).json()) as { alive: boolean; since?: string };
      const login = await gttLogin();
      expect(login.page.startsWith(`${emulator}/OAuthlogin/authorize/oauth?`)).toBe(true);

      // The broker's page, signed in as a browser does, redirects to our callback.
      const signedIn = await signIn(login.page, { uid: 'DEMO01', password, otp: await otp() });
      expect(signedIn.status).toBe(302);
      const callback = new URL(signedIn.headers.get('location')!);
      expect(`${callback.origin}${callback.pathname}`).toBe(`${api}/session/oauth/callback`);
      expect(callback.searchParams.has('state')).toBe(echo);

      const page = await fetch(callback, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Broker session renewed');
      // The same link again is refused.
      expect((await fetch(callback)).status).toBe(400);

      expect(await login.exited).toBe(0);
      expect(login.output()).toContain('logged in:');
      const after = (await (await fetch(`${api}/session`)).json()) as {
        alive: boolean;
        since?: string;
        method?: string;
        uid?: string;
      };
      expect(after).toMatchObject({ alive: true, method: 'oauth', uid: 'DEMO01' });
      expect(after.since).not.toBe(before.since);

      // The new session is announced on the lifecycle bus (npm start prints each event), without the token.
      const renewals = () =>
        (started.output().match(/event +Session Renewed +oauth +\(gateway, [0-9a-f]{12}\)/g) ?? []).length;
      await waitUntil(
        () => renewals() >= (echo ? 2 : 1),
        () => started.output(),
      );
      expect(renewals()).toBe(echo ? 2 : 1);

      const placed = await fetch(`${api}/gtt-orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': `oauth-e2e-${String(echo)}` },
        body: JSON.stringify(SAMPLE_ORDER),
      });
      expect(placed.status).toBe(201);
    },
  );
});
