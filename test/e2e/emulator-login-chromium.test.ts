/**
 * The emulator's login page driven as a real client's automation drives the live one (a 2026 Selenium script in
 * headless Chromium): a real headless Chromium through chromedriver's W3C WebDriver protocol finds the inputs by
 * their ids `lgnusrid`, `lgnpwd`, `lgnotp`, types into them, clicks the element whose text or value is LOGIN, and
 * reads `code` from the URL it lands on. Needs Debian `chromium` and `chromium-driver` on the PATH; skipped, saying
 * so, when either is absent. The same page read without a browser is test/contract/emulator-login-automation.test.ts.
 * Bounded by one budget for the browser's start and one per page, each waited for by condition, never by time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';

let emu: RunningEmulator;
let ctl: EmulatorControl;
/** Where the page redirects: a loopback page that answers 200, so the browser lands somewhere real. */
let landing: http.Server;
let landingUrl: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  ctl = emulatorControl(emu.url);
  landing = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>landed</title><p>landed</p>');
  });
  await new Promise<void>((resolve) => landing.listen(0, '127.0.0.1', resolve));
  landingUrl = `http://127.0.0.1:${(landing.address() as AddressInfo).port}/callback`;
  await ctl.oauthRedirect(landingUrl);
});
afterAll(async () => {
  await emu?.close();
  await new Promise((resolve) => landing?.close(resolve));
});

const PAGES = [
  ['the OAuth page', '/OAuthlogin/authorize/oauth?client_id=DEMO01_U'],
  ['the investor-entry-level form', '/OAuthlogin/investor-entry-level/login?api_key=DEMO01_U&route_to=DEMO01'],
  ["Flattrade's page", '/?app_key=DEMO01_U'],
] as const;

const onPath = (names: string[]): string | undefined => {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const name of names) {
      const file = path.join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
  }
  return undefined;
};
const CHROMIUM = onPath(['chromium', 'chromium-browser']);
const CHROMEDRIVER = onPath(['chromedriver']);
const browserMissing =
  CHROMIUM && CHROMEDRIVER
    ? ''
    : ` (skipped: ${[CHROMIUM ? '' : 'chromium', CHROMEDRIVER ? '' : 'chromedriver'].filter(Boolean).join(' and ')} not on the PATH; apt-get install chromium chromium-driver)`;

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
/** One generous bound for chromedriver and Chromium to start, and one for each page, on a loaded machine. */
const BROWSER_BUDGET_MS = 120_000;
/** The hooks' and tests' own bound: past the budget, so the budget's message is the one shown. */
const TEST_BOUND_MS = BROWSER_BUDGET_MS + 15_000;

describe.skipIf(browserMissing !== '')(`the sign-in page in headless Chromium${browserMissing}`, () => {
  let driver: ChildProcess | undefined;
  let base = '';
  let session = '';

  const wd = async (method: string, route: string, body?: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`${base}${route}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(BROWSER_BUDGET_MS),
    });
    const json = (await res.json()) as { value: Record<string, unknown> };
    if (!res.ok) throw new Error(`WebDriver ${method} ${route}: HTTP ${res.status} ${JSON.stringify(json.value)}`);
    return json.value;
  };
  const find = async (using: string, value: string) =>
    String((await wd('POST', `/session/${session}/element`, { using, value }))[ELEMENT]);

  beforeAll(async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = http.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    base = `http://127.0.0.1:${port}`;
    driver = spawn(CHROMEDRIVER!, [`--port=${port}`], { stdio: 'ignore' });
    await vi.waitFor(
      async () => {
        if (!(await wd('GET', '/status')).ready) throw new Error('chromedriver is not ready');
      },
      { timeout: BROWSER_BUDGET_MS, interval: 200 },
    );
    const created = await wd('POST', '/session', {
      capabilities: {
        alwaysMatch: {
          browserName: 'chrome',
          'goog:chromeOptions': {
            binary: CHROMIUM,
            args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
          },
        },
      },
    });
    session = String(created.sessionId);
  }, TEST_BOUND_MS);

  afterAll(async () => {
    try {
      if (session) await wd('DELETE', `/session/${session}`);
    } finally {
      driver?.kill();
    }
  }, TEST_BOUND_MS);

  it.each(PAGES)(
    '%s: typed into by id, LOGIN clicked, lands on the redirect with a code',
    async (_label, page) => {
      await wd('POST', `/session/${session}/url`, { url: `${emu.url}${page}` });
      const user = await find('css selector', '#lgnusrid');
      await wd('POST', `/session/${session}/element/${user}/clear`, {});
      await wd('POST', `/session/${session}/element/${user}/value`, { text: emu.uid });
      const pwd = await find('css selector', '#lgnpwd');
      await wd('POST', `/session/${session}/element/${pwd}/value`, { text: emu.login.password });
      const otp = await find('css selector', '#lgnotp');
      await wd('POST', `/session/${session}/element/${otp}/value`, { text: await ctl.otp() });
      // As the script finds it: a button, input or link whose text contains LOGIN or whose value is LOGIN.
      const login = await find(
        'xpath',
        "//*[self::button or self::input or self::a][contains(translate(normalize-space(.), 'login', 'LOGIN'), 'LOGIN') or translate(@value, 'login', 'LOGIN')='LOGIN']",
      );
      await wd('POST', `/session/${session}/element/${login}/click`, {});
      // Where the browser lands, waited for (the click starts a navigation and returns before it ends).
      const landed = await vi.waitFor(
        async () => {
          const url = String(await wd('GET', `/session/${session}/url`));
          if (!url.startsWith(landingUrl)) throw new Error(`landed on ${url}, not on ${landingUrl}`);
          return url;
        },
        { timeout: BROWSER_BUDGET_MS, interval: 100 },
      );
      expect(new URL(landed).searchParams.get('code')).toMatch(/^[0-9a-f-]{36}$/);
    },
    TEST_BOUND_MS,
  );
});
