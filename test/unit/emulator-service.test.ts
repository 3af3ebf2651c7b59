/** The emulator's request -> reply logic, called directly without a socket. */
import { TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';

import { LOG_BODY_BYTES, LOG_TOTAL_BYTES } from '../../emulator/control/request-log.js';
import { nextSessionEnd, sha256Hex } from '../../emulator/login/session-login.js';
import { BrokerEmulator } from '../../emulator/service.js';
import { compactRequestTime, decodeSymbol, requestTime } from '../../emulator/state/formats.js';
import { ocoDirections, ocoFiringLeg } from '../../emulator/state/oco.js';
import type { OcoOrder } from '../../emulator/state/state.js';
import { wireGtt } from '../support/wire-order.js';

const emulator = () => new BrokerEmulator({ token: 'unit-token-123' });
const send = (emu: BrokerEmulator, op: string, jData: unknown, token = 'unit-token-123') =>
  JSON.parse(
    emu.handle({
      method: 'POST',
      path: `/ClientAPI/${op}`,
      headers: { authorization: `Bearer ${token}` },
      body: `jData=${JSON.stringify(jData)}`,
    }).body,
  ) as Record<string, unknown>;

describe('emulator service', () => {
  it('formats request_time in IST in both shapes of section 4', () => {
    const at = new Date(Date.UTC(2026, 10, 22, 18, 45, 7)); // 00:15:07 on 23-11-2026 in IST
    expect(requestTime(at)).toBe('00:15:07 23-11-2026');
    expect(compactRequestTime(at)).toBe('23112026001507');
  });

  it('decodes symbols like a form decoder and keeps undecodable text', () => {
    expect(decodeSymbol('M%26M-EQ')).toBe('M&M-EQ');
    expect(decodeSymbol('NIFTY+25DEC+24000+CE')).toBe('NIFTY 25DEC 24000 CE');
    expect(decodeSymbol('%2B%3D%25')).toBe('+=%');
    expect(decodeSymbol('50%')).toBe('50%');
  });

  it('never reuses an al_id, even after reset', () => {
    const emu = emulator();
    const order = wireGtt({ tsym: 'INFY-EQ', qty: '1', prc: '1', d: '1' }, { uid: 'DEMO01', actid: 'DEMO01' });
    const first = send(emu, 'PlaceGTTOrder', order).al_id as string;
    emu.reset();
    const second = send(emu, 'PlaceGTTOrder', order).al_id as string;
    expect(BigInt(second)).toBeGreaterThan(BigInt(first));
  });

  it('keeps the token out of the request log', () => {
    const emu = emulator();
    send(emu, 'GetEnabledGTTs', { uid: 'DEMO01' });
    expect(JSON.stringify(emu.requestLog())).not.toContain('unit-token-123');
    expect(emu.requestLog()[0]).toMatchObject({ authorization: 'Bearer <redacted>', authUid: 'DEMO01' });
  });

  it('answers an unknown operation without touching state', () => {
    const reply = emulator().handle({ method: 'POST', path: '/ClientAPI/Nope', headers: {}, body: '' });
    expect(reply.status).toBe(404);
    expect(JSON.parse(reply.body)).toEqual({ stat: 'Not_Ok', emsg: 'Invalid Input : unknown operation Nope' });
  });
});

describe('emulator service: extensions', () => {
  const login = (emu: BrokerEmulator, fields: Record<string, unknown>, op = 'QuickAuth') =>
    JSON.parse(
      emu.handle({
        method: 'POST',
        path: `/NorenWClientTP//${op}`,
        headers: {},
        body: `jData=${JSON.stringify(fields)}`,
      }).body,
    ) as Record<string, unknown>;

  it('issues 14-digit al_ids: YYMMDD (IST) then an 8-digit counter that a restart later that day never reissues', () => {
    const order = wireGtt({ tsym: 'INFY-EQ', qty: '1', prc: '1', d: '1' }, { uid: 'DEMO01', actid: 'DEMO01' });
    const at = new Date(Date.UTC(2026, 0, 14, 20, 0, 0)); // 01:30:00.00 on 15-01-2026 in IST: 540,000 hundredths
    const first = new BrokerEmulator({ token: 'unit-token-123', now: () => at });
    expect(send(first, 'PlaceGTTOrder', order).al_id).toBe('26011500540001');
    expect(send(first, 'PlaceGTTOrder', order).al_id).toBe('26011500540002');
    // A sandbox restarted one second later starts past everything the first could issue at 10 orders a second.
    const later = new BrokerEmulator({ token: 'unit-token-123', now: () => new Date(at.getTime() + 1_000) });
    expect(send(later, 'PlaceGTTOrder', order).al_id).toBe('26011500540101');
    // The last instant of the day still fits 14 digits.
    const late = new BrokerEmulator({
      token: 'unit-token-123',
      now: () => new Date(Date.UTC(2026, 0, 15, 18, 29, 59, 999)),
    });
    expect(send(late, 'PlaceGTTOrder', order).al_id).toBe('26011508640000');
  });

  it.each<[string, string, string, number | undefined, boolean, boolean]>([
    ['no price, x above y: x upper, y lower', '2600', '2400', undefined, true, false],
    ['no price, x below y: x lower, y upper', '2400', '2600', undefined, false, true],
    ['no price, equal: x lower, y upper', '2500', '2500', undefined, false, true],
    ['price between: each from its side', '2600', '2400', 2500, true, false],
    ['price between, reversed legs', '2400', '2600', 2500, false, true],
    ['price below both: both rise', '2600', '2400', 2000, true, true],
    ['price above both: both fall', '2600', '2400', 3000, false, false],
    ['price on x: x by the no-price rule', '2600', '2400', 2600, true, false],
  ])('OCO directions: %s', (_label, x, y, ltp, xRises, yRises) => {
    expect(ocoDirections(x, y, ltp)).toEqual({ xRises, yRises });
  });

  it('an OCO fires one leg; a gap through both fires the one nearer the previous price', () => {
    const order = { x: '2600', y: '2700', xRises: true, yRises: true } as OcoOrder;
    expect(ocoFiringLeg(order, 2599, 2000)).toBeUndefined();
    expect(ocoFiringLeg(order, 2650, 2000)).toBe('x');
    expect(ocoFiringLeg(order, 2800, 2000)).toBe('x');
    expect(ocoFiringLeg(order, 2800, 3000)).toBe('y');
    expect(ocoFiringLeg(order, 2800, undefined)).toBe('x');
    expect(ocoFiringLeg({ ...order, x: '2650', y: '2650' }, 2800, 2000)).toBe('x');
  });

  it('session end for expires_in: the next 05:00 IST', () => {
    expect(nextSessionEnd(new Date('2026-01-15T10:00:00Z'))).toBe(String(Date.parse('2026-01-15T23:30:00Z') / 1000));
    expect(nextSessionEnd(new Date('2026-01-15T23:29:59Z'))).toBe(String(Date.parse('2026-01-15T23:30:00Z') / 1000));
    expect(nextSessionEnd(new Date('2026-01-15T23:30:00Z'))).toBe(String(Date.parse('2026-01-16T23:30:00Z') / 1000));
  });

  it('QuickAuth takes the TOTP of the previous, current and next 30 s window only', () => {
    let now = new Date('2026-01-15T10:00:10Z');
    const emu = new BrokerEmulator({
      token: 'unit-token-123',
      now: () => now,
      password: 'password-1',
      totpSeed: 'JBSWY3DPEHPK3PXPJBSWY3DP',
      apiSecret: 'secret-12',
    });
    const otpAt = (ms: number) =>
      new TOTP({ secret: 'JBSWY3DPEHPK3PXPJBSWY3DP', algorithm: 'SHA1', digits: 6, period: 30 }).generate({
        timestamp: ms,
      });
    const fields = (factor2: string) => ({
      source: 'API',
      apkversion: '1.0.0',
      uid: 'DEMO01',
      pwd: sha256Hex('password-1'),
      factor2,
      vc: 'DEMO01_U',
      appkey: sha256Hex('DEMO01|secret-12'),
      imei: 'x',
    });
    const t = now.getTime();
    const valid = new Set([otpAt(t - 30_000), otpAt(t), otpAt(t + 30_000)]);
    for (const otp of valid) expect(login(emu, fields(otp)).stat).toBe('Ok');
    for (const dt of [-90_000, -60_000, 60_000, 90_000]) {
      const otp = otpAt(t + dt);
      if (!valid.has(otp)) expect(login(emu, fields(otp)).emsg).toBe('Invalid Input : Invalid OTP');
    }
    now = new Date(t + 120_000);
    expect(login(emu, fields(otpAt(t))).emsg).toBe('Invalid Input : Invalid OTP');
  });

  it('an OAuth code expires after 5 minutes', () => {
    let now = new Date('2026-01-15T10:00:00Z');
    const emu = new BrokerEmulator({
      token: 'unit-token-123',
      now: () => now,
      oauthSecret: 'oauth-secret-1',
      oauthRedirectUrl: 'http://127.0.0.1:1/cb',
    });
    const code = () => {
      const form = new URLSearchParams({
        lgnusrid: 'DEMO01',
        lgnpwd: emu.credentials.password,
        lgnotp: emu.login.currentOtp(),
      }).toString();
      const reply = emu.handle({
        method: 'POST',
        path: '/OAuthlogin/authorize/oauth?client_id=DEMO01_U',
        headers: {},
        body: form,
      });
      return new URL(reply.headers!.location!).searchParams.get('code')!;
    };
    const exchange = (c: string) =>
      login(emu, { code: c, checksum: sha256Hex(`DEMO01_Uoauth-secret-1${c}`), uid: 'DEMO01' }, 'GenAcsTok');
    const fresh = code();
    const stale = code();
    now = new Date(now.getTime() + 5 * 60_000 - 1);
    expect(exchange(fresh).stat).toBe('Ok');
    now = new Date(now.getTime() + 1);
    expect(exchange(stale)).toEqual({ stat: 'Not_Ok', emsg: 'Invalid Input : INVALID_VERIFIER', uid: 'DEMO01' });
  });

  it('keeps the request log under its byte cap however many large requests come', () => {
    const emu = emulator();
    const body = `jData=${JSON.stringify({ uid: 'DEMO01', pad: 'z'.repeat(5 * 1024) })}`;
    const count = Math.ceil(LOG_TOTAL_BYTES / LOG_BODY_BYTES) + 500;
    for (let i = 0; i < count; i++)
      emu.handle({ method: 'POST', path: '/ClientAPI/GetEnabledGTTs', headers: {}, body });
    const log = emu.requestLog();
    expect(Buffer.byteLength(JSON.stringify(log))).toBeLessThanOrEqual(LOG_TOTAL_BYTES);
    expect(log.length).toBeLessThan(count);
    expect(log.at(-1)!.seq).toBe(count);
    expect(log.every((e) => e.bodyTruncated && e.bodyLength === Buffer.byteLength(body))).toBe(true);
  });

  it('redacts secret fields in bodies whatever their JSON spacing or type', () => {
    const emu = emulator();
    emu.handle({
      method: 'POST',
      path: '/ClientAPI/QuickAuth',
      headers: {},
      body: 'jData={"pwd" : "abc", "factor2":123456,"appkey":"k","checksum":null, "code":"c1"}',
    });
    const [entry] = emu.requestLog();
    expect(entry!.body).toBe(
      'jData={"pwd" : "<redacted>", "factor2":"<redacted>","appkey":"<redacted>","checksum":"<redacted>", "code":"<redacted>"}',
    );
    expect(entry!.jData).toEqual({
      pwd: '<redacted>',
      factor2: '<redacted>',
      appkey: '<redacted>',
      checksum: '<redacted>',
      code: '<redacted>',
    });
  });
});
