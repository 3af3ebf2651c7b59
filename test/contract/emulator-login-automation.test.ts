/**
 * The emulator's login page driven as a real client's automation drives the live one (a 2026 Selenium script in
 * headless Chromium): find the inputs by their ids `lgnusrid`, `lgnpwd`, `lgnotp`, type into them, click the element
 * whose text or value is LOGIN, and read `code` from the URL the browser lands on.
 *
 * Here without a browser: the served HTML is read the same way (ids, the LOGIN button, the form it submits and where
 * to). The same steps in a real headless Chromium (a browser is no unit or contract test) are in
 * test/e2e/emulator-login-chromium.test.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

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
