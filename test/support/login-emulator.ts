/**
 * The session-acquisition contract tests' shared setup: one emulator per file with an OAuth redirect URL registered,
 * reset before each test, and the steps of a sign-in (the authorize page, the browser's form post, the code, its
 * checksum, GenAcsTok) and a check that a token works.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import { control, jdata, pyJson, send, sha256 } from '../contract/jdata-client.js';
import { type EmulatorControl, emulatorControl, signIn } from './emulator-control.js';

export const REDIRECT = 'http://127.0.0.1:1/callback';

/** Starts the emulator for the calling file; `current()` is it and its control once `beforeAll` has run. */
export const useLoginEmulator = () => {
  let emu: RunningEmulator;
  let ctl: EmulatorControl;

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

  const current = () => ({ emu, ctl });
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

  return { current, authorize, signInAt, getCode, checksum, genAcsTok, enabledWith, enabledWithJKey };
};
