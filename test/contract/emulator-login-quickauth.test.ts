/**
 * Contract tests of QuickAuth (password + TOTP) over real HTTP on 127.0.0.1: the body a Python client posts, new
 * session tokens, refusals, and the credentials set at start. Decisions: docs/explanation/emulator-extensions.md.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { useLoginEmulator } from '../support/login-emulator.js';
import { pyJson, send, sha256, TIME, totpNow } from './jdata-client.js';

const login = useLoginEmulator();
const { enabledWith, enabledWithJKey } = login;
let emu: RunningEmulator;
let ctl: EmulatorControl;
beforeAll(() => {
  ({ emu, ctl } = login.current());
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
