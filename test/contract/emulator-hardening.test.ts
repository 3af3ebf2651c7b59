/**
 * Security hardening of the emulator, over real HTTP on 127.0.0.1: caller-chosen tokens cannot rebind a session or
 * garble redaction, and no password, secret, OTP, code or issued token ever reaches the request log. The log's bound
 * in bytes (thousands of large requests) is in test/integration/emulator-volume.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { type EmulatorControl, signInAsDemo } from '../support/emulator-control.js';
import { type EmulatorFixture, useEmulator } from '../support/emulator-fixture.js';
import { control, jdata, pyJson, send, sha256, totpNow } from './jdata-client.js';

const fixture = useEmulator();
let emu: EmulatorFixture;
let ctl: EmulatorControl;
beforeEach(() => {
  emu = fixture();
  ctl = emu.control;
});

describe('caller-chosen tokens on /_emulator/accounts and /_emulator/sessions', () => {
  it.each<[string, Record<string, unknown>, number, RegExp]>([
    ['the demo token (would rebind it)', { uid: 'NEW1' }, 409, /already in use/],
    ['a 1-character token', { uid: 'NEW1', token: 'a' }, 400, /at least 8 characters/],
    ['a 7-character token', { uid: 'NEW1', token: 'abcdefg' }, 400, /at least 8 characters/],
    ['a token with a space', { uid: 'NEW1', token: 'abcd efgh' }, 400, /printable characters without spaces/],
    ['a token that is not a string', { uid: 'NEW1', token: 12345678 }, 400, /non-empty string/],
  ])('POST /accounts with %s is refused and creates nothing', async (_label, spec, status, error) => {
    const body = { ...spec, ...(spec.token === undefined ? { token: emu.token } : {}) };
    expect(await control(emu.url, 'POST', 'accounts', body)).toEqual({
      status,
      body: { error: expect.stringMatching(error) },
    });
    // Nothing was created, and the demo token still belongs to the demo account.
    expect((await control(emu.url, 'POST', 'accounts', { uid: 'NEW1' })).status).toBe(201);
    expect((await jdata(emu.url, 'GetEnabledGTTs', { uid: emu.uid }, emu.token)).body).toMatchObject({ stat: 'Ok' });
  });

  it('POST /sessions refuses a token issued before (live or dead) and short ones; 8 characters are fine', async () => {
    const other = await ctl.createAccount({ uid: 'OTHER1', token: 'other-token-1' });
    expect(await control(emu.url, 'POST', 'sessions', { uid: emu.uid, token: other.token })).toMatchObject({
      status: 409,
    });
    expect(await control(emu.url, 'POST', 'sessions', { uid: emu.uid, token: 'x' })).toMatchObject({ status: 400 });
    await ctl.expire(other.token);
    expect(await control(emu.url, 'POST', 'sessions', { uid: 'OTHER1', token: other.token })).toMatchObject({
      status: 409,
    });
    expect(await control(emu.url, 'POST', 'sessions', { uid: emu.uid, token: '8chars!!' })).toEqual({
      status: 201,
      body: { uid: emu.uid, token: '8chars!!' },
    });
    expect((await jdata(emu.url, 'GetEnabledGTTs', { uid: 'OTHER1' }, other.token)).body).toMatchObject({
      stat: 'Not_Ok',
    });
  });
});

describe('no secret reaches the request log', () => {
  it('passwords, OTPs, app keys, codes, checksums, secrets and issued tokens are all redacted', async () => {
    await control(emu.url, 'POST', 'oauth', { redirectUrl: 'http://127.0.0.1:1/cb' });
    await ctl.clearRequests();
    const otp = totpNow(emu.login.totpSeed);
    const appkey = sha256(`${emu.uid}|${emu.login.apiSecret}`);
    const login = {
      source: 'API',
      apkversion: '1.0.0',
      uid: emu.uid,
      pwd: sha256(emu.login.password),
      factor2: otp,
      vc: 'DEMO01_U',
      appkey,
      imei: 'i',
    };
    const ok = (await send(emu.url, '/NorenWClientTP//QuickAuth', `jData=${pyJson(login)}`)).body as {
      susertoken: string;
    };
    await send(emu.url, '/NorenWClientTP//QuickAuth', `jData=${pyJson({ ...login, pwd: emu.login.password })}`); // a clear password by mistake
    await send(emu.url, '/NorenWClientTP//QuickAuth', `jData=${JSON.stringify({ ...login, factor2: 123456 })}`);

    const code = (
      await signInAsDemo(emu, `${emu.url}/OAuthlogin/authorize/oauth?client_id=${emu.oauth.clientId}`)
    ).searchParams.get('code')!;
    const checksum = sha256(`${emu.oauth.clientId}${emu.oauth.secret}${code}`);
    await jdata(emu.url, 'GenAcsTok', { code, checksum: 'bad', uid: emu.uid }, null, '/NorenWClientAPI');
    const tokens = (await jdata(emu.url, 'GenAcsTok', { code, checksum, uid: emu.uid }, null, '/NorenWClientAPI'))
      .body as Record<string, string>;
    expect(tokens.access_token).toBeDefined();
    // The new tokens at work, in the header and (wrongly) in a body.
    await jdata(emu.url, 'GetEnabledGTTs', { uid: emu.uid, note: tokens.refresh_token }, tokens.access_token!);
    await send(emu.url, '/ClientAPI/GetEnabledGTTs', `jData={"uid":"DEMO01"}&jKey=${ok.susertoken}`);
    await send(
      emu.url,
      '/ClientAPI/GetEnabledGTTs',
      `jData={"uid":"DEMO01","secret":"${emu.oauth.secret}"}&jKey=not-a-known-token`,
    );

    const log = await ctl.requests();
    expect(log).toHaveLength(9);
    const text = JSON.stringify(log);
    const secrets = {
      password: emu.login.password,
      passwordHash: sha256(emu.login.password),
      totpSeed: emu.login.totpSeed,
      apiSecret: emu.login.apiSecret,
      appkey,
      oauthSecret: emu.oauth.secret,
      code,
      checksum,
      quickAuthToken: ok.susertoken,
      accessToken: tokens.access_token!,
      refreshToken: tokens.refresh_token!,
      demoToken: emu.token,
      unknownJKey: 'not-a-known-token',
    };
    for (const [name, secret] of Object.entries(secrets)) expect(text.includes(secret), name).toBe(false);
    expect(text).not.toContain(`"factor2":"${otp}"`);
    expect(text).not.toContain(`"factor2": "${otp}"`);
    const [quick, clear, numeric, authorize, badGen, gen] = log;
    expect(quick!.jData).toMatchObject({
      pwd: '<redacted>',
      factor2: '<redacted>',
      appkey: '<redacted>',
      uid: emu.uid,
      imei: 'i',
    });
    expect(quick!.reply).toMatchObject({ stat: 'Ok', susertoken: '<redacted>' });
    expect(quick!.body).toContain('"pwd": "<redacted>"');
    expect(clear!.jData).toMatchObject({ pwd: '<redacted>' });
    expect(numeric!.body).toContain('"factor2":"<redacted>"');
    expect(authorize).toMatchObject({
      operation: 'OAuthAuthorize',
      status: 302,
      reply: { location: 'http://127.0.0.1:1/cb?code=<redacted>' },
    });
    expect(badGen!.jData).toEqual({ code: '<redacted>', checksum: '<redacted>', uid: emu.uid });
    expect(gen!.reply).toMatchObject({
      stat: 'Ok',
      access_token: '<redacted>',
      refresh_token: '<redacted>',
      susertoken: '<redacted>',
    });
    for (const entry of log) expect(entry.authorization ?? '').not.toMatch(/Bearer (?!<redacted>)/);
  });
});
