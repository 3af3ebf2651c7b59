/**
 * The emulator's login page driven as a real client's automation drives the live one (a 2026 Selenium script in
 * headless Chromium): find the inputs by their ids `lgnusrid`, `lgnpwd`, `lgnotp`, type into them, click the element
 * whose text or value is LOGIN, and read `code` from the URL the browser lands on.
 *
 * - Without a browser: the served HTML is read the same way (ids, the LOGIN button, the form it submits and where to).
 * - With one (Debian `chromium` and `chromium-driver` on the PATH): a real headless Chromium through chromedriver's
 *   W3C WebDriver protocol, bounded in time. Skipped, saying so, when either binary is absent.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';

let emu: RunningEmulator;
let ctl: EmulatorControl;
/** Where the page redirects: a loopback page that answers 200, so a browser lands somewhere real. */
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

/** An element's opening tag found by id, as `find_element(By.ID, ...)` finds it. */
const byId = (page: string, id: string): string | undefined =>
  new RegExp(`<[a-z]+[^>]*\\sid="${id}"[^>]*>`).exec(page)?.[0];
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

describe('the sign-in page as automation reads it (no browser needed)', () => {
  it.each(PAGES)('%s: inputs by id, a LOGIN button in the form, posting back to the page', async (_label, page) => {
    const url = `${emu.url}${page}`;
    const html = await (await fetch(url)).text();
    for (const id of ['lgnusrid', 'lgnpwd', 'lgnotp']) {
      const tag = byId(html, id);
      expect(tag, `an element with id ${id}`).toMatch(/^<input/);
      // The id and the name agree: what the script types is what the form posts.
      expect(attr(tag!, 'name')).toBe(id);
    }
    expect(attr(byId(html, 'lgnpwd')!, 'type')).toBe('password');
    // The element whose text is LOGIN: a submit button inside the form.
    const form = /<form[^>]*>([\s\S]*?)<\/form>/.exec(html);
    expect(form).not.toBeNull();
    expect(form![1]).toMatch(/<button type="submit"[^>]*>\s*LOGIN\s*<\/button>/);
    expect(html.match(/>\s*LOGIN\s*</g)).toHaveLength(1);
    // The form has no action: a browser posts it to the page's own URL, query included.
    expect(form![0]).not.toMatch(/\saction=/);
    expect(attr(form![0].slice(0, form![0].indexOf('>') + 1), 'method')).toBe('post');
    // Submitted as a browser submits it, it redirects with a code.
    const otp = await ctl.otp();
    const reply = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ lgnusrid: emu.uid, lgnpwd: emu.login.password, lgnotp: otp }).toString(),
    });
    expect(reply.status).toBe(302);
    const location = new URL(reply.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(landingUrl);
    expect(location.searchParams.get('code')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

// ---- a real headless Chromium ----------------------------------------------------------------------------------

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
const BROWSER_BUDGET_MS = 45_000;

describe.skipIf(browserMissing !== '')(`the sign-in page in headless Chromium${browserMissing}`, () => {
  let driver: ChildProcess | undefined;
  let base = '';
  let session = '';

  const wd = async (method: string, route: string, body?: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`${base}${route}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(15_000),
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
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        if ((await wd('GET', '/status')).ready) break;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) throw new Error('chromedriver did not start within 15 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
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
  }, BROWSER_BUDGET_MS);

  afterAll(async () => {
    try {
      if (session) await wd('DELETE', `/session/${session}`);
    } finally {
      driver?.kill();
    }
  });

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
      const deadline = Date.now() + 10_000;
      let landed = '';
      while (Date.now() < deadline) {
        landed = String(await wd('GET', `/session/${session}/url`));
        if (landed.startsWith(landingUrl)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(landed.startsWith(landingUrl), `landed on ${landed}`).toBe(true);
      expect(new URL(landed).searchParams.get('code')).toMatch(/^[0-9a-f-]{36}$/);
    },
    BROWSER_BUDGET_MS,
  );
});
