/**
 * Contract tests of the emulator's login pages over real HTTP on 127.0.0.1: the OAuth authorize page in each form
 * the brokers serve, its sign-in and redirect with the code, refused sign-ins, and the OAuth app's settings.
 * Decisions: docs/explanation/emulator-extensions.md.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import { type EmulatorControl, signIn } from '../support/emulator-control.js';
import { REDIRECT, useLoginEmulator } from '../support/login-emulator.js';
import { control, send } from './jdata-client.js';

const login = useLoginEmulator();
const { authorize, signInAt } = login;
let emu: RunningEmulator;
let ctl: EmulatorControl;
beforeAll(() => {
  ({ emu, ctl } = login.current());
});

describe('login pages', () => {
  it.each([
    ['the OAuth page', `/OAuthlogin/authorize/oauth?client_id=DEMO01_U`],
    ['the OAuth page under another prefix', `/NorenWeb2.0/authorize/oauth?client_id=DEMO01_U`],
    ['the OAuth page with api_key', `/OAuthlogin/authorize/oauth?api_key=DEMO01_U`],
    ['the /OAuthlogin?api_key= form', `/OAuthlogin?api_key=DEMO01_U`],
    ['the investor-entry-level form', `/OAuthlogin/investor-entry-level/login?api_key=DEMO01_U&route_to=DEMO01`],
    ["Flattrade's page", `/?app_key=DEMO01_U`],
  ])(
    '%s shows the sign-in form (user id, password, OTP) and signs in with the demo credentials',
    async (_label, path) => {
      const page = await send(emu.url, path, undefined, {}, 'GET');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      // As the live page, for the automation that drives it: inputs found by id, a button labelled LOGIN.
      expect(page.text).toMatch(
        /<form method="post"[^>]*>.*id="lgnusrid" name="lgnusrid".*id="lgnpwd" name="lgnpwd" type="password".*id="lgnotp" name="lgnotp".*<button type="submit"[^>]*>LOGIN<\/button><\/form>/s,
      );
      // No action: the form posts back to the page's own URL, query and all.
      expect(page.text).not.toMatch(/<form[^>]*action=/);
      if (path.includes('route_to')) expect(page.text).toContain('id="lgnusrid" name="lgnusrid" value="DEMO01"');
      const reply = await signInAt(path);
      expect(reply.status).toBe(302);
      const location = new URL(reply.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get('code')).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
      // Flattrade's redirect names the client too.
      expect(location.searchParams.get('client')).toBe(path.includes('app_key') ? emu.uid : null);
    },
  );

  it('redirects with the code only (the live brokers drop state); the echoOAuthState switch passes state through', async () => {
    const dropped = new URL(
      (await signInAt(`/OAuthlogin/authorize/oauth?client_id=DEMO01_U&state=xyz`)).headers.get('location')!,
    );
    expect([...dropped.searchParams.keys()]).toEqual(['code']);
    await ctl.switches({ echoOAuthState: true });
    const echoed = new URL(
      (await signInAt(`/OAuthlogin/authorize/oauth?client_id=DEMO01_U&state=xyz`)).headers.get('location')!,
    );
    expect(echoed.searchParams.get('state')).toBe('xyz');
    expect(echoed.searchParams.get('code')).not.toBe(dropped.searchParams.get('code'));
  });

  it('keeps a query the registered URL already has', async () => {
    await control(emu.url, 'POST', 'oauth', { redirectUrl: 'http://127.0.0.1:1/cb?app=gtt&state=fixed' });
    await ctl.switches({ echoOAuthState: true });
    const location = new URL(
      (await signInAt(`/OAuthlogin/authorize/oauth?client_id=${emu.oauth.clientId}&state=other`)).headers.get(
        'location',
      )!,
    );
    expect(Object.fromEntries(location.searchParams)).toEqual({ app: 'gtt', state: 'fixed', code: expect.any(String) });
  });

  it.each<[string, Partial<Record<'lgnusrid' | 'lgnpwd' | 'lgnotp', string>>, RegExp]>([
    ['an unknown user', { lgnusrid: 'NOBODY' }, /Invalid user id or password/],
    ['a wrong password', { lgnpwd: 'not-the-password' }, /Invalid user id or password/],
    ['a wrong OTP', { lgnotp: '000000' }, /Invalid OTP/],
    ['no OTP', { lgnotp: '' }, /Invalid OTP/],
  ])('%s: an error page (401), no redirect, no code', async (_label, fields, text) => {
    const before = emu.emulator.state.oauthCodes.size;
    const reply = await signInAt(
      `/OAuthlogin/authorize/oauth?client_id=DEMO01_U`,
      fields.lgnotp === '000000' ? { lgnotp: (await ctl.otp()) === '000000' ? '999999' : '000000' } : fields,
    );
    expect(reply.status).toBe(401);
    expect(await reply.text()).toMatch(text);
    expect(reply.headers.get('location')).toBeNull();
    expect(emu.emulator.state.oauthCodes.size).toBe(before);
  });

  it.each<[string, string, number, RegExp]>([
    ['an unknown client id', 'client_id=OTHER_U', 400, /Unknown client_id OTHER_U/],
    ['no client id', '', 400, /Unknown client_id null/],
  ])('%s is an error page, no form', async (_label, query, status, text) => {
    const reply = await authorize(query);
    expect(reply.status).toBe(status);
    expect(reply.text).toMatch(text);
    expect(reply.text).not.toContain('<form');
  });

  it('no longer signs in without credentials (the old auto=1 shortcut is just a page)', async () => {
    const reply = await authorize(`client_id=${emu.oauth.clientId}&uid=${emu.uid}&auto=1`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('location')).toBeNull();
  });

  it('the request log never shows the password or the OTP of a sign-in', async () => {
    await ctl.clearRequests();
    await signInAt(`/OAuthlogin/authorize/oauth?client_id=DEMO01_U`);
    const log = JSON.stringify(await ctl.requests());
    expect(log).not.toContain(emu.login.password);
    expect(log).not.toContain(encodeURIComponent(emu.login.password));
  });

  it('without a registered redirect URL it says how to set one; the control route checks the URL', async () => {
    const bare = await startEmulator({ port: 0 });
    try {
      const otp = ((await control(bare.url, 'GET', 'otp')).body as { otp: string }).otp;
      const reply = await signIn(`${bare.url}/OAuthlogin/authorize/oauth?client_id=${bare.oauth.clientId}`, {
        uid: bare.uid,
        password: bare.login.password,
        otp,
      });
      expect(reply.status).toBe(400);
      expect(await reply.text()).toContain('POST /_emulator/oauth');
      expect(await control(bare.url, 'GET', 'oauth')).toEqual({
        status: 200,
        body: { clientId: 'DEMO01_U', redirectUrl: null },
      });
      expect(await control(bare.url, 'POST', 'oauth', { redirectUrl: 'ftp://x/y' })).toMatchObject({
        status: 400,
        body: { error: expect.stringMatching(/http\(s\)/) },
      });
      expect(await control(bare.url, 'POST', 'oauth', {})).toMatchObject({ status: 400 });
      expect(await control(bare.url, 'POST', 'oauth', { redirectUrl: 'http://127.0.0.1:9/cb' })).toEqual({
        status: 200,
        body: { clientId: 'DEMO01_U', redirectUrl: 'http://127.0.0.1:9/cb' },
      });
    } finally {
      await bare.close();
    }
  });

  it('options set the app at start', async () => {
    const custom = await startEmulator({
      port: 0,
      oauthClientId: 'APP42',
      oauthSecret: 'sekrit-0001',
      oauthRedirectUrl: 'https://example.test/cb',
    });
    try {
      expect(custom.oauth).toEqual({ clientId: 'APP42', secret: 'sekrit-0001' });
      const otp = ((await control(custom.url, 'GET', 'otp')).body as { otp: string }).otp;
      const reply = await signIn(`${custom.url}/OAuthlogin/authorize/oauth?client_id=APP42`, {
        uid: custom.uid,
        password: custom.login.password,
        otp,
      });
      expect(reply.headers.get('location')).toMatch(/^https:\/\/example\.test\/cb\?code=/);
    } finally {
      await custom.close();
    }
  });
});
