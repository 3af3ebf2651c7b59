/**
 * Contract tests of session acquisition over real HTTP on 127.0.0.1: the OAuth authorize page and its redirect,
 * GenAcsTok (code -> access token) and QuickAuth (password + TOTP). Every issued token is a new session of the
 * account; the start token keeps working. Decisions: docs/emulator-extensions.md.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import { type EmulatorControl, emulatorControl, signIn } from '../support/emulator-control.js';
import { control, jdata, pyJson, send, sha256, TIME, totpNow } from './jdata-client.js';

let emu: RunningEmulator;
let ctl: EmulatorControl;
const REDIRECT = 'http://127.0.0.1:1/callback';

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  ctl = emulatorControl(emu.url);
});
afterAll(async () => {
  await emu?.close();
});
beforeEach(async () => {
  await ctl.reset();
  await control(emu.url, 'POST', 'oauth', { redirectUrl: REDIRECT });
});

const authorize = (query: string, prefix = '/OAuthlogin') =>
  send(emu.url, `${prefix}/authorize/oauth?${query}`, undefined, {}, 'GET');
/** The sign-in form posted as a browser does: user id, password and the OTP the authenticator shows now. */
const signInAt = async (path: string, fields: Partial<Record<'lgnusrid' | 'lgnpwd' | 'lgnotp', string>> = {}) => {
  const otp = ((await control(emu.url, 'GET', 'otp')).body as { otp: string }).otp;
  return signIn(`${emu.url}${path}`, {
    uid: fields.lgnusrid ?? emu.uid,
    password: fields.lgnpwd ?? emu.login.password,
    otp: fields.lgnotp ?? otp,
  });
};
/** The browser step done by a script: the code from the redirect. */
const getCode = async (state?: string): Promise<string> => {
  const reply = await signInAt(
    `/OAuthlogin/authorize/oauth?client_id=${emu.oauth.clientId}${state === undefined ? '' : `&state=${state}`}`,
  );
  expect(reply.status).toBe(302);
  return new URL(reply.headers.get('location')!).searchParams.get('code')!;
};
const checksum = (code: string) => sha256(`${emu.oauth.clientId}${emu.oauth.secret}${code}`);
const genAcsTok = (fields: unknown, prefix = '/NorenWClientAPI') => jdata(emu.url, 'GenAcsTok', fields, null, prefix);
const enabledWith = async (token: string) => (await jdata(emu.url, 'GetEnabledGTTs', { uid: emu.uid }, token)).body;
const enabledWithJKey = async (token: string) =>
  (await send(emu.url, '/NorenWClientTP//GetEnabledGTTs', `jData=${pyJson({ uid: emu.uid })}&jKey=${token}`)).body;

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

describe("Flattrade's token exchange", () => {
  const flattradeCode = async () =>
    new URL((await signInAt(`/?app_key=${emu.oauth.clientId}`)).headers.get('location')!).searchParams.get('code')!;
  const apiToken = (body: unknown) =>
    fetch(`${emu.url}/trade/apitoken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
  const secretOf = (code: string) => sha256(`${emu.oauth.clientId}${code}${emu.oauth.secret}`);

  it('code -> {stat, token, client}; the token works as jKey, not as Bearer; the code is single use', async () => {
    const code = await flattradeCode();
    const reply = await apiToken({ api_key: emu.oauth.clientId, request_code: code, api_secret: secretOf(code) });
    expect(reply).toEqual({
      status: 200,
      body: { stat: 'Ok', token: expect.stringMatching(/^[0-9a-f]{32}$/), client: emu.uid, emsg: '' },
    });
    const token = reply.body.token as string;
    expect(await enabledWithJKey(token)).toMatchObject({ stat: 'Ok' });
    expect(await enabledWith(token)).toEqual({ stat: 'Not_Ok', emsg: 'Session Expired :  Invalid Session Key' });
    expect(
      (await apiToken({ api_key: emu.oauth.clientId, request_code: code, api_secret: secretOf(code) })).body,
    ).toEqual({ stat: 'Not_Ok', emsg: 'Invalid request_code' });
  });

  it.each<[string, (code: string) => Record<string, unknown>, string]>([
    [
      'a wrong api_secret',
      (code) => ({ api_key: 'DEMO01_U', request_code: code, api_secret: sha256(`DEMO01_U${code}wrong`) }),
      'Invalid api_secret',
    ],
    [
      'a wrong api_key',
      (code) => ({ api_key: 'OTHER_U', request_code: code, api_secret: secretOf(code) }),
      'Invalid api_key',
    ],
    ['a GenAcsTok code', () => ({ api_key: 'DEMO01_U', request_code: 'x', api_secret: 'y' }), 'Invalid request_code'],
    [
      'no api_secret',
      (code) => ({ api_key: 'DEMO01_U', request_code: code }),
      'api_key, request_code and api_secret are required',
    ],
  ])('%s -> Not_Ok', async (_label, body, emsg) => {
    const code = await flattradeCode();
    expect((await apiToken(body(code))).body).toEqual({ stat: 'Not_Ok', emsg });
  });

  it('a Flattrade code is no GenAcsTok code, and the other way round', async () => {
    const code = await flattradeCode();
    expect((await genAcsTok({ code, checksum: checksum(code), uid: emu.uid })).body).toMatchObject({
      stat: 'Not_Ok',
      emsg: 'Invalid Input : INVALID_VERIFIER',
    });
    const oauthCode = await getCode();
    expect(
      (await apiToken({ api_key: 'DEMO01_U', request_code: oauthCode, api_secret: secretOf(oauthCode) })).body,
    ).toEqual({ stat: 'Not_Ok', emsg: 'Invalid request_code' });
  });
});

describe('GenAcsTok', () => {
  it('exchanges a code for a new session token, in the documented reply shape', async () => {
    const code = await getCode();
    const reply = await genAcsTok({ code, checksum: checksum(code), uid: emu.uid });
    expect(reply.status).toBe(200);
    const body = reply.body as Record<string, unknown>;
    expect(body).toEqual({
      stat: 'Ok',
      request_time: expect.stringMatching(TIME),
      USERID: emu.uid,
      uid: emu.uid,
      actid: emu.actid,
      uname: 'DEMO TRADER',
      email: 'demo01@example.com',
      access_token: expect.stringMatching(/^[0-9a-f]{32}$/),
      refresh_token: expect.stringMatching(/^[0-9a-f]{32}$/),
      expires_in: expect.stringMatching(/^\d{10}$/),
      scope: 'all',
      susertoken: body.access_token,
      lastaccesstime: expect.stringMatching(/^\d{10}$/),
      brkname: 'GTTSIM',
      brnchid: 'HO',
      exarr: ['CDS', 'NSE', 'NFO', 'MCX', 'BSE', 'NCX', 'BSTAR', 'BCD', 'BFO', 'NCOM'],
      prarr: [
        { prd: 'C', s_prdt_ali: 'CNC', exch: expect.any(Array) },
        { prd: 'M', s_prdt_ali: 'NRML', exch: expect.any(Array) },
        { prd: 'H', s_prdt_ali: 'CO', exch: expect.any(Array) },
      ],
      orarr: ['MKT', 'LMT', 'SL-LMT', 'SL-MKT', 'DS', '2L', '3L'],
    });
    // expires_in: the next 05:00 IST, within a day.
    const expiresIn = Number(body.expires_in) * 1000;
    expect(expiresIn).toBeGreaterThan(Date.now());
    expect(expiresIn - Date.now()).toBeLessThanOrEqual(24 * 3600 * 1000);
    expect(new Date(expiresIn + 5.5 * 3600 * 1000).toISOString()).toMatch(/T05:00:00/);
    // A new session: the access token works, the start token too; the refresh token is no session.
    expect(await enabledWith(body.access_token as string)).toMatchObject({ stat: 'Ok' });
    expect(await enabledWith(emu.token)).toMatchObject({ stat: 'Ok' });
    expect(await enabledWith(body.refresh_token as string)).toEqual({
      stat: 'Not_Ok',
      emsg: 'Session Expired :  Invalid Session Key',
    });
  });

  it('a code is single use', async () => {
    const code = await getCode();
    expect((await genAcsTok({ code, checksum: checksum(code), uid: emu.uid })).body).toMatchObject({ stat: 'Ok' });
    expect((await genAcsTok({ code, checksum: checksum(code), uid: emu.uid })).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'Invalid Input : INVALID_VERIFIER',
      uid: emu.uid,
    });
  });

  it.each<[string, (code: string) => Record<string, unknown>, string]>([
    ['no uid', (code) => ({ code, checksum: checksum(code) }), ''],
    [
      'another uid than the code was issued to',
      (code) => ({ code, checksum: checksum(code), uid: 'OTHER1' }),
      'OTHER1',
    ],
    [
      'an unknown code',
      () => ({
        code: '00000000-0000-4000-8000-000000000000',
        checksum: checksum('00000000-0000-4000-8000-000000000000'),
        uid: 'DEMO01',
      }),
      'DEMO01',
    ],
    [
      'a wrong checksum',
      (code) => ({ code, checksum: sha256(`${emu.oauth.clientId}wrong${code}`), uid: 'DEMO01' }),
      'DEMO01',
    ],
    ['an upper-case checksum', (code) => ({ code, checksum: checksum(code).toUpperCase(), uid: 'DEMO01' }), 'DEMO01'],
    [
      'a checksum with separators',
      (code) => ({ code, checksum: sha256(`${emu.oauth.clientId}|${emu.oauth.secret}|${code}`), uid: 'DEMO01' }),
      'DEMO01',
    ],
    ['no checksum', (code) => ({ code, uid: 'DEMO01' }), 'DEMO01'],
    ['no code', (code) => ({ checksum: checksum(code), uid: 'DEMO01' }), 'DEMO01'],
  ])('%s -> INVALID_VERIFIER (and the code still works afterwards)', async (_label, fields, uid) => {
    await ctl.createAccount({ uid: 'OTHER1' });
    const code = await getCode();
    expect(await genAcsTok(fields(code))).toMatchObject({
      status: 200,
      body: { stat: 'Not_Ok', emsg: 'Invalid Input : INVALID_VERIFIER', uid },
    });
    expect((await genAcsTok({ code, checksum: checksum(code), uid: emu.uid })).body).toMatchObject({ stat: 'Ok' });
  });

  it.each([
    ['off (the default: refused, as reported of Shoonya in June 2026)', false],
    ['on (accepted, as a 2026 Selenium client sends it)', true],
  ])('{code, checksum} without uid, genAcsTokWithoutUid %s', async (_label, on) => {
    if (on) await ctl.switches({ genAcsTokWithoutUid: true });
    const code = await getCode();
    const reply = await genAcsTok({ code, checksum: checksum(code) });
    if (!on) {
      expect(reply).toMatchObject({
        status: 200,
        body: { stat: 'Not_Ok', emsg: 'Invalid Input : INVALID_VERIFIER', uid: '' },
      });
      // The refusal leaves the code as it was: the exchange with uid still works.
      expect((await genAcsTok({ code, checksum: checksum(code), uid: emu.uid })).body).toMatchObject({ stat: 'Ok' });
      return;
    }
    const body = reply.body as Record<string, unknown>;
    expect(body).toMatchObject({ stat: 'Ok', uid: emu.uid, USERID: emu.uid, actid: emu.actid });
    expect(await enabledWith(String(body.access_token))).toMatchObject({ stat: 'Ok' });
    // The switch does not loosen the rest: a wrong checksum or another uid is still refused.
    const next = await getCode();
    expect((await genAcsTok({ code: next, checksum: checksum(code) })).body).toMatchObject({ stat: 'Not_Ok' });
    expect((await genAcsTok({ code: next, checksum: checksum(next), uid: 'OTHER1' })).body).toMatchObject({
      stat: 'Not_Ok',
    });
    // A reset turns it off again.
    await ctl.reset();
    await control(emu.url, 'POST', 'oauth', { redirectUrl: REDIRECT });
    const last = await getCode();
    expect((await genAcsTok({ code: last, checksum: checksum(last) })).body).toMatchObject({ stat: 'Not_Ok' });
  });

  it('needs no session, answers under any prefix, and honours faults', async () => {
    const code = await getCode();
    await ctl.fault({ operation: 'GenAcsTok', kind: 'serverTimeout' });
    expect((await genAcsTok({ code, checksum: checksum(code), uid: emu.uid }, '/NorenWClientTP')).body).toMatchObject({
      emsg: expect.stringMatching(/^Server Timeout/),
    });
    expect((await genAcsTok({ code, checksum: checksum(code), uid: emu.uid }, '/NorenWClientTP/')).body).toMatchObject({
      stat: 'Ok',
    });
  });
});

describe('QuickAuth', () => {
  const IMEI = 'abc1234';
  /** What NorenRestApiPy's login() posts: `jData=` + json.dumps(values), no jKey, no Bearer, host ending in `/`. */
  const pythonLogin = (over: Record<string, unknown> = {}) => ({
    source: 'API',
    apkversion: '1.0.0',
    uid: emu.uid,
    pwd: sha256(emu.login.password),
    factor2: totpNow(emu.login.totpSeed),
    vc: `${emu.uid}_U`,
    appkey: sha256(`${emu.uid}|${emu.login.apiSecret}`),
    imei: IMEI,
    ...over,
  });
  const quickAuth = (fields: unknown) => send(emu.url, '/NorenWClientTP//QuickAuth', `jData=${pyJson(fields)}`);

  it('logs in with password hash, TOTP and app key: a new session token', async () => {
    const reply = await quickAuth(pythonLogin());
    expect(reply.status).toBe(200);
    const body = reply.body as Record<string, unknown>;
    expect(body).toEqual({
      request_time: expect.stringMatching(TIME),
      stat: 'Ok',
      susertoken: expect.stringMatching(/^[0-9a-f]{32}$/),
      lastaccesstime: expect.stringMatching(/^\d{10}$/),
      actid: emu.actid,
      uname: 'DEMO TRADER',
      email: 'demo01@example.com',
      brkname: 'GTTSIM',
      brnchid: 'HO',
      exarr: expect.arrayContaining(['NSE', 'NFO', 'BSE', 'MCX', 'BFO', 'CDS', 'NCX', 'BCD']),
      prarr: expect.any(Array),
      orarr: expect.any(Array),
    });
    const token = body.susertoken as string;
    // Classic clients send it as jKey, with no switch; as Bearer it is refused (no client does that).
    expect(await enabledWithJKey(token)).toMatchObject({ stat: 'Ok' });
    expect(await enabledWith(token)).toEqual({ stat: 'Not_Ok', emsg: 'Session Expired :  Invalid Session Key' });
    await ctl.switches({ acceptJKeyTokenAsBearer: true });
    expect(await enabledWith(token)).toMatchObject({ stat: 'Ok' });
    await ctl.switches({ acceptJKeyTokenAsBearer: false });
    // Logging it out ends that session only.
    expect(
      (await send(emu.url, '/NorenWClientTP/Logout', `jData=${pyJson({ uid: emu.uid })}&jKey=${token}`)).body,
    ).toMatchObject({ stat: 'Ok' });
    expect(await enabledWithJKey(token)).toMatchObject({ stat: 'Not_Ok' });
    expect(await enabledWith(emu.token)).toMatchObject({ stat: 'Ok' });
  });

  it('two logins give two distinct working tokens', async () => {
    const a = ((await quickAuth(pythonLogin())).body as { susertoken: string }).susertoken;
    const b = ((await quickAuth(pythonLogin())).body as { susertoken: string }).susertoken;
    expect(a).not.toBe(b);
    expect(await enabledWithJKey(a)).toMatchObject({ stat: 'Ok' });
    expect(await enabledWithJKey(b)).toMatchObject({ stat: 'Ok' });
  });

  const missing = 'Invalid Input : uid or pwd or factor2 or imei or apkversion or vc or appkey or source is Missing.';
  it.each<[string, () => Record<string, unknown>, string]>([
    ['a wrong password', () => pythonLogin({ pwd: sha256('not-the-password') }), 'Invalid Input : Wrong Password'],
    ['the password in clear', () => pythonLogin({ pwd: emu.login.password }), 'Invalid Input : Wrong Password'],
    ['a wrong OTP', () => pythonLogin({ factor2: wrongOtp() }), 'Invalid Input : Invalid OTP'],
    ['an OTP from ten minutes ago', () => pythonLogin({ factor2: staleOtp() }), 'Invalid Input : Invalid OTP'],
    [
      'a wrong app key',
      () => pythonLogin({ appkey: sha256(`${emu.uid}|wrong-secret`) }),
      'Invalid Input :  Invalid App Key',
    ],
    [
      'an app key without the separator',
      () => pythonLogin({ appkey: sha256(`${emu.uid}${emu.login.apiSecret}`) }),
      'Invalid Input :  Invalid App Key',
    ],
    ['an unknown user', () => pythonLogin({ uid: 'NOBODY' }), 'Invalid Input : Invalid User Id'],
    ['no imei', () => pythonLogin({ imei: undefined }), missing],
    ['an empty vc', () => pythonLogin({ vc: '' }), missing],
    ['no source', () => pythonLogin({ source: undefined }), missing],
    ['a number as factor2', () => pythonLogin({ factor2: 123456 }), missing],
  ])('%s -> Not_Ok with the broker text', async (_label, fields, emsg) => {
    const body = fields();
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    const reply = await quickAuth(body);
    expect(reply).toMatchObject({
      status: 200,
      body: { request_time: expect.stringMatching(TIME), stat: 'Not_Ok', emsg },
    });
    expect(reply.body).not.toHaveProperty('susertoken');
  });

  it('Invalid Input failures come with HTTP 400 under the switch', async () => {
    await ctl.switches({ invalidInputAs400: true });
    expect((await quickAuth(pythonLogin({ pwd: 'x' }))).status).toBe(400);
  });

  it('credentials come from start options', async () => {
    const custom = await startEmulator({
      port: 0,
      password: 'Passw0rd!',
      totpSeed: 'JBSWY3DPEHPK3PXPJBSWY3DP',
      apiSecret: 'api-secret-1',
    });
    try {
      expect(custom.login).toEqual({
        password: 'Passw0rd!',
        totpSeed: 'JBSWY3DPEHPK3PXPJBSWY3DP',
        apiSecret: 'api-secret-1',
      });
      const fields = {
        source: 'API',
        apkversion: '1.0.0',
        uid: 'DEMO01',
        pwd: sha256('Passw0rd!'),
        factor2: totpNow('JBSWY3DPEHPK3PXPJBSWY3DP'),
        vc: 'DEMO01_U',
        appkey: sha256('DEMO01|api-secret-1'),
        imei: 'x',
      };
      expect(
        (await send(custom.url, '/NorenWClientTP/QuickAuth/', `jData=${JSON.stringify(fields)}`)).body,
      ).toMatchObject({ stat: 'Ok' });
    } finally {
      await custom.close();
    }
  });

  it('refuses weak or malformed settings at start', async () => {
    await expect(startEmulator({ port: 0, password: 'short' })).rejects.toThrow(/password must be 8 to 256/);
    await expect(startEmulator({ port: 0, totpSeed: 'not base32!' })).rejects.toThrow(/totpSeed must be base32/);
    await expect(startEmulator({ port: 0, apiSecret: 'x' })).rejects.toThrow(/apiSecret/);
    await expect(startEmulator({ port: 0, oauthSecret: 'x' })).rejects.toThrow(/oauthSecret/);
    await expect(startEmulator({ port: 0, oauthRedirectUrl: 'nope' })).rejects.toThrow(/redirectUrl/);
    await expect(startEmulator({ port: 0, token: 'abc' })).rejects.toThrow(/token must be 8 to 256/);
  });

  function wrongOtp(): string {
    const valid = [-30_000, 0, 30_000].map((dt) => totpNow(emu.login.totpSeed, Date.now() + dt));
    let candidate = (Number(valid[1]) + 500_000) % 1_000_000;
    while (valid.includes(String(candidate).padStart(6, '0'))) candidate = (candidate + 1) % 1_000_000;
    return String(candidate).padStart(6, '0');
  }
  function staleOtp(): string {
    const valid = [-60_000, -30_000, 0, 30_000, 60_000].map((dt) => totpNow(emu.login.totpSeed, Date.now() + dt));
    const stale = totpNow(emu.login.totpSeed, Date.now() - 600_000);
    return valid.includes(stale) ? wrongOtp() : stale;
  }
});
