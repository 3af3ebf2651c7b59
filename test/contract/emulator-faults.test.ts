/**
 * Contract tests of the broker emulator over real HTTP on 127.0.0.1 when the wire is not the happy path
 * (docs/explanation/broker-wire.md): malformed requests never hang or leak a stack trace, special-character symbols round-trip,
 * injected faults behave as told, and the request log redacts the token.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { startEmulator } from '../../emulator/server.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { type EmulatorFixture, useEmulator } from '../support/emulator-fixture.js';
import { plainClient, type Sent } from '../support/plain-client.js';

let emu: EmulatorFixture;
let control: EmulatorControl;
const { order, post, call, place, pending } = plainClient(() => emu);

const fixture = useEmulator();
beforeEach(() => {
  emu = fixture();
  control = emu.control;
});

describe('malformed requests never hang and never leak a stack trace', () => {
  it.each<[string, () => Promise<Sent>, number, RegExp]>([
    ['GET', () => post('PlaceGTTOrder', '', {}, 'GET'), 405, /method GET not allowed/],
    ['an unknown operation', () => post('PlaceBasketOrder', 'jData={}'), 404, /unknown operation PlaceBasketOrder/],
    [
      'an unknown path',
      () =>
        fetch(`${emu.url}/other`, { method: 'POST' }).then(async (r) => ({
          status: r.status,
          body: await r.json(),
          text: '',
        })),
      404,
      /unknown path/,
    ],
    [
      'no jData= prefix',
      () => post('GetEnabledGTTs', '{"uid":"DEMO01"}', { Authorization: 'Bearer x' }),
      200,
      /body must be jData=/,
    ],
    [
      'malformed JSON',
      () => post('GetEnabledGTTs', 'jData={"uid":', { Authorization: 'Bearer x' }),
      200,
      /not valid JSON/,
    ],
    [
      'a JSON array',
      () => post('GetEnabledGTTs', 'jData=[1]', { Authorization: 'Bearer x' }),
      200,
      /must be a JSON object/,
    ],
    [
      'a body over 64 KiB',
      () => post('PlaceGTTOrder', `jData=${JSON.stringify({ pad: 'x'.repeat(70_000) })}`),
      200,
      /exceeds 65536 bytes/,
    ],
  ])('%s', async (_label, send, status, emsg) => {
    const reply = await send();
    expect(reply.status).toBe(status);
    expect(reply.body).toMatchObject({ stat: 'Not_Ok', emsg: expect.stringMatching(emsg) });
    expect(JSON.stringify(reply.body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('accepts application/json and extra fields as real clients send them', async () => {
    const reply = await call(
      'PlaceGTTOrder',
      order({ ordersource: 'API', remarks: 'x', dscqty: '0' }),
      emu.token,
      'application/json',
    );
    expect(reply.body).toMatchObject({ stat: 'OI created' });
  });
});

describe('special-character symbols', () => {
  // Symbols no exchange lists, on purpose: how the wire carries them, not whether the broker knows them.
  beforeEach(async () => {
    await control.switches({ acceptAnySymbol: true });
  });
  it.each(['M&M-EQ', 'L&TFH-EQ', 'NIFTY 25DEC 24000 CE', '%', '+', '=', 'A+B=C 50%'])(
    '%s round-trips encoded either way',
    async (symbol) => {
      await place({ tsym: encodeURIComponent(symbol) });
      if (symbol.includes(' ')) await place({ tsym: encodeURIComponent(symbol).replace(/%20/g, '+') });
      const list = (await pending()) as { tsym: string }[];
      for (const record of list) expect(record.tsym).toBe(symbol);
    },
  );
});

describe('faults', () => {
  const placeRaw = (signal?: AbortSignal) =>
    fetch(`${emu.url}/ClientAPI/PlaceGTTOrder`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Authorization: `Bearer ${emu.token}` },
      body: `jData=${JSON.stringify(order())}`,
      ...(signal ? { signal } : {}),
    });

  it.each<[Parameters<EmulatorControl['fault']>[0]['kind'], number, RegExp]>([
    ['http5xx', 503, /Service Unavailable/],
    ['nonJson', 200, /^<html>gateway error<\/html>$/],
    ['serverTimeout', 200, /"emsg":"Server Timeout : {2}Please try after some time"/],
    ['rateLimit', 200, /Order Recieved 11 in a current second exceeds Limit 10/],
  ])('%s', async (kind, status, body) => {
    await control.fault({ operation: 'PlaceGTTOrder', kind });
    const res = await placeRaw();
    expect(res.status).toBe(status);
    expect(await res.text()).toMatch(body);
    // Not executed, and used up: the next call is normal.
    expect(await pending()).toEqual({ stat: 'Not_Ok', emsg: 'no data' });
    expect((await placeRaw()).status).toBe(200);
  });

  it('drop closes the connection without an answer', async () => {
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'drop' });
    await expect(placeRaw()).rejects.toThrow();
  });

  it('delay longer than the client timeout: not executed when the client gives up', async () => {
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 400 });
    await expect(placeRaw(AbortSignal.timeout(100))).rejects.toThrow();
    // Past the delay: the emulator runs in this process, so its 400 ms timer (set when the request arrived, before
    // the client gave up) fires before this one, however loaded the machine; then it has done what it will do.
    await new Promise((r) => setTimeout(r, 500));
    expect(await pending()).toEqual({ stat: 'Not_Ok', emsg: 'no data' });
  });

  it('late: true carries the order out when the delay ends, though the client gave up (a broker acting late)', async () => {
    // A delay long enough that the read just after the client gives up comes before it ends, even on a loaded machine.
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 2_000, late: true });
    await expect(placeRaw(AbortSignal.timeout(100))).rejects.toThrow();
    expect(await pending()).toEqual({ stat: 'Not_Ok', emsg: 'no data' });
    // When the delay ends the order is there: waited for, not slept on.
    await vi.waitFor(async () => expect((await pending()) as unknown[]).toHaveLength(1), { timeout: 30_000 });
    const bad = await fetch(`${emu.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'PlaceGTTOrder', kind: 'drop', late: true }),
    });
    expect(bad.status).toBe(400);
  });

  it('executed: true carries the order out, then misbehaves', async () => {
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 5_000, executed: true });
    await expect(placeRaw(AbortSignal.timeout(100))).rejects.toThrow();
    expect((await pending()) as unknown[]).toHaveLength(1);
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'drop', executed: true });
    await expect(placeRaw()).rejects.toThrow();
    expect((await pending()) as unknown[]).toHaveLength(2);
  });

  it('close() does not hang with a delayed request in flight', async () => {
    const other = await startEmulator({ port: 0 });
    await emulatorControl(other.url).fault({ operation: '*', kind: 'delay', delayMs: 60_000 });
    const inFlight = fetch(`${other.url}/ClientAPI/Logout`, { method: 'POST', body: 'jData={}' }).catch(() => 'closed');
    await new Promise((r) => setTimeout(r, 50));
    await other.close();
    expect(await inFlight).toBe('closed');
  });

  it('control surface rejects bad fault specs with clear errors', async () => {
    const res = await fetch(`${emu.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'Nope', kind: 'drop' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: expect.stringMatching(/operation must be one of/) });
  });
});

describe('request log', () => {
  it('records each request with the token redacted and says whether the body carried a token', async () => {
    await control.clearRequests();
    await call('GetEnabledGTTs', { uid: emu.uid });
    await call('GetEnabledGTTs', { uid: emu.uid, oops: emu.token });
    const [clean, leaky] = await control.requests();
    expect(clean).toMatchObject({
      operation: 'GetEnabledGTTs',
      authorization: 'Bearer <redacted>',
      authUid: emu.uid,
      bodyContainedToken: false,
      contentType: 'text/plain',
    });
    expect(leaky!.bodyContainedToken).toBe(true);
    expect(JSON.stringify(await control.requests())).not.toContain(emu.token);
  });
});
