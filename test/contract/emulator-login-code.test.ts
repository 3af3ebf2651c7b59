/**
 * Contract tests of exchanging a sign-in code for a session over real HTTP on 127.0.0.1: Flattrade's token exchange
 * and GenAcsTok (code -> access token). Every issued token is a new session of the account; the start token keeps
 * working. Decisions: docs/explanation/emulator-extensions.md.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import type { RunningEmulator } from '../../emulator/server.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { REDIRECT, useLoginEmulator } from '../support/login-emulator.js';
import { control, sha256, TIME } from './jdata-client.js';

const login = useLoginEmulator();
const { signInAt, getCode, checksum, genAcsTok, enabledWith, enabledWithJKey } = login;
let emu: RunningEmulator;
let ctl: EmulatorControl;
beforeAll(() => {
  ({ emu, ctl } = login.current());
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
