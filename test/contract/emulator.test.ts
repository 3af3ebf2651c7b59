/**
 * Contract tests of the broker emulator over real HTTP on 127.0.0.1: what a client written for the real broker
 * sends, and the exact shapes and texts it gets back (docs/broker-wire.md). The GTT writes and reads, whose texts
 * and keys differ by dialect, run in every dialect in emulator-gtt.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { startEmulator } from '../../emulator/server.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { type EmulatorFixture, gttJData, useEmulator } from '../support/emulator-fixture.js';

let emu: EmulatorFixture;
let control: EmulatorControl;

const TIME = /^\d{2}:\d{2}:\d{2} \d{2}-\d{2}-\d{4}$/;
const order = (over: Record<string, string> = {}) => gttJData(emu, over);

interface Sent {
  status: number;
  body: unknown;
  text: string;
}
const post = async (op: string, body: string, headers: Record<string, string> = {}, method = 'POST'): Promise<Sent> => {
  const res = await fetch(`${emu.url}/ClientAPI/${op}`, { method, headers, ...(method === 'GET' ? {} : { body }) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, text };
};
const call = (op: string, jData: unknown, token: string | null = emu.token, contentType = 'text/plain') =>
  post(op, `jData=${JSON.stringify(jData)}`, {
    'Content-Type': contentType,
    ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
  });
const place = async (over: Record<string, string> = {}) =>
  (await call('PlaceGTTOrder', order(over))).body as { al_id: string; stat: string };
const pending = async () => (await call('GetPendingGTTOrder', { uid: emu.uid })).body;

const fixture = useEmulator();
beforeEach(() => {
  emu = fixture();
  control = emu.control;
});

describe('operations: success shapes', () => {
  it('GetPendingGTTOrder for an empty account answers Not_Ok "no data" (or [] with the switch)', async () => {
    expect(await pending()).toEqual({ stat: 'Not_Ok', emsg: 'no data' });
    await control.switches({ emptyListAsArray: true });
    expect(await pending()).toEqual([]);
  });

  it('GetEnabledGTTs answers request_time DDMMYYYYHHMMSS and the supported alert kinds', async () => {
    const reply = await call('GetEnabledGTTs', { uid: emu.uid });
    expect(reply.body).toEqual({
      stat: 'Ok',
      request_time: expect.stringMatching(/^\d{14}$/),
      ai_ts: [{ ai_t: 'LTP_A_O' }, { ai_t: 'LTP_B_O' }, { ai_t: 'LMT_BOS_O' }],
    });
  });

  it('ClientDetails answers the full 2.5 record', async () => {
    const reply = (await call('ClientDetails', { uid: emu.uid, actid: emu.actid })).body as Record<string, unknown>;
    for (const field of [
      'stat',
      'request_time',
      'actid',
      'cliname',
      'act_sts',
      'creatdte',
      'creattme',
      'm_num',
      'email',
      'pan',
      'dob',
      'addr',
      'addroffice',
      'addrcity',
      'addrstate',
      'partic_id_list',
      'eqt_asba',
      'der_asba',
      'fx_asba',
      'com_asba',
      'mandate_id_list',
      'exarr',
      'bankdetails',
      'dp_acct_num',
    ]) {
      expect(reply).toHaveProperty(field);
    }
    expect(reply).toMatchObject({
      stat: 'Ok',
      actid: emu.actid,
      eqt_asba: 'false',
      exarr: expect.arrayContaining(['NSE', 'NFO', 'BSE', 'MCX']),
    });
    expect(reply.emsg).toBeUndefined();
  });

  it('Logout answers Ok with request_time and ends the session everywhere', async () => {
    expect((await call('Logout', { uid: emu.uid })).body).toEqual({
      stat: 'Ok',
      request_time: expect.stringMatching(TIME),
    });
    for (const op of [
      'PlaceGTTOrder',
      'GetPendingGTTOrder',
      'GetEnabledGTTs',
      'ModifyGTTOrder',
      'CancelGTTOrder',
      'ClientDetails',
      'Logout',
    ]) {
      expect((await call(op, { uid: emu.uid })).body).toEqual({
        stat: 'Not_Ok',
        emsg: 'Session Expired :  Invalid Session Key',
      });
    }
  });
});

describe('operations: failure shapes', () => {
  it.each<[string, Record<string, string>, string]>([
    ['a missing field', { qty: '' }, 'Invalid Input : qty is Missing'],
    [
      'an exchange no account lists',
      { exch: 'NYSE' },
      'Invalid Input : exch must be one of CDS, NSE, NFO, MCX, BSE, NCX, BSTAR, BCD, BFO, NCOM',
    ],
    ['a product outside 2.2', { prd: 'X' }, 'Invalid Input : prd must be one of C, M, H'],
    ['a non-numeric quantity', { qty: 'ten' }, 'Invalid Input : qty must be a positive whole number'],
    ['a zero trigger', { d: '0' }, 'Invalid Input : d must be a positive number'],
    ['another account', { actid: 'OTHER' }, 'Invalid Input : Invalid Account Id'],
    ['an unknown validity', { validity: 'DAY' }, 'Invalid Input : validity must be one of GTT'],
  ])('PlaceGTTOrder with %s is Not_Ok with a clear emsg', async (_label, change, emsg) => {
    const reply = await call('PlaceGTTOrder', order(change));
    expect(reply).toMatchObject({ status: 200, body: { stat: 'Not_Ok', emsg } });
  });

  it('a number instead of a numeric string is refused like the broker does', async () => {
    const reply = await call('PlaceGTTOrder', { ...order(), qty: 10 });
    expect(reply.body).toEqual({ stat: 'Not_Ok', emsg: 'Invalid Input : qty must be a string' });
  });

  it('Invalid Input failures can come with HTTP 400 (switch)', async () => {
    await control.switches({ invalidInputAs400: true });
    expect(await call('PlaceGTTOrder', order({ qty: '' }))).toMatchObject({ status: 400, body: { stat: 'Not_Ok' } });
  });

  it("modify or cancel of an unknown, cancelled or other account's al_id is Invalid Oi", async () => {
    const { al_id } = await place();
    expect((await call('ModifyGTTOrder', { ...order(), al_id: '1' })).body).toEqual({
      request_time: expect.stringMatching(TIME),
      stat: 'Invalid Oi',
      al_id: '1',
    });
    expect((await call('CancelGTTOrder', { uid: emu.uid, al_id })).body).toMatchObject({ stat: 'OI deleted' });
    expect((await call('CancelGTTOrder', { uid: emu.uid, al_id })).body).toMatchObject({ stat: 'Invalid Oi', al_id });
    expect((await call('ModifyGTTOrder', { ...order(), al_id })).body).toMatchObject({ stat: 'Invalid Oi' });
    const other = await control.createAccount({ uid: 'OTHER1' });
    const theirs = (await call('PlaceGTTOrder', { ...order(), uid: other.uid, actid: other.actid }, other.token))
      .body as { al_id: string };
    expect((await call('CancelGTTOrder', { uid: emu.uid, al_id: theirs.al_id })).body).toMatchObject({
      stat: 'Invalid Oi',
    });
  });

  it('a failed list is an object, not an array', async () => {
    expect(await call('GetPendingGTTOrder', { uid: emu.uid }, 'wrong-token')).toMatchObject({
      body: { stat: 'Not_Ok' },
    });
  });
});

describe('session checks', () => {
  it.each<[string, () => Promise<Sent>, string]>([
    [
      'no Authorization header',
      () => call('GetEnabledGTTs', { uid: 'DEMO01' }, null),
      'Session Expired :  Invalid Session Key',
    ],
    [
      'an unknown token',
      () => call('GetEnabledGTTs', { uid: 'DEMO01' }, 'not-a-token'),
      'Session Expired :  Invalid Session Key',
    ],
    [
      'a uid that is not the token user',
      () => call('GetEnabledGTTs', { uid: 'SOMEONE' }),
      'Session Expired :  Invalid User Id',
    ],
    ['a missing uid', () => call('GetEnabledGTTs', {}), 'Session Expired :  Invalid User Id'],
    [
      'the token only inside jData',
      () => call('GetEnabledGTTs', { uid: 'DEMO01', jKey: emu.token, accessToken: emu.token }, null),
      'Session Expired :  Invalid Session Key',
    ],
    [
      'a non-Bearer scheme',
      () => post('GetEnabledGTTs', 'jData={"uid":"DEMO01"}', { Authorization: `Basic ${emu.token}` }),
      'Session Expired :  Invalid Session Key',
    ],
  ])('%s -> Not_Ok with the broker text', async (_label, send, emsg) => {
    expect((await send()).body).toEqual({ stat: 'Not_Ok', emsg });
  });

  it('an expired token fails; another session of the same user keeps working', async () => {
    const second = await control.newSession(emu.uid);
    await control.expire(emu.token);
    expect((await call('GetEnabledGTTs', { uid: emu.uid })).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'Session Expired :  Invalid Session Key',
    });
    expect((await call('GetEnabledGTTs', { uid: emu.uid }, second.token)).body).toMatchObject({ stat: 'Ok' });
  });

  it('the jKey form works only with the compatibility switch', async () => {
    const body = `jData=${JSON.stringify({ uid: emu.uid })}&jKey=${emu.token}`;
    expect((await post('GetEnabledGTTs', body, { 'Content-Type': 'application/x-www-form-urlencoded' })).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'Session Expired :  Invalid Session Key',
    });
    await control.switches({ acceptJKey: true });
    expect((await post('GetEnabledGTTs', body, {})).body).toMatchObject({ stat: 'Ok' });
    // A symbol with an encoded & still splits correctly at the last &jKey=.
    const placeBody = `jData=${JSON.stringify(order({ tsym: 'M%26M-EQ' }))}&jKey=${emu.token}`;
    expect((await post('PlaceGTTOrder', placeBody, {})).body).toMatchObject({ stat: 'OI created' });
  });
});

describe('malformed requests never hang and never leak a stack trace', () => {
  it.each<[string, () => Promise<Sent>, number, RegExp]>([
    ['GET', () => post('PlaceGTTOrder', '', {}, 'GET'), 405, /method GET not allowed/],
    ['an unknown operation', () => post('PlaceOrder', 'jData={}'), 404, /unknown operation PlaceOrder/],
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
    await new Promise((r) => setTimeout(r, 500));
    expect(await pending()).toEqual({ stat: 'Not_Ok', emsg: 'no data' });
  });

  it('late: true carries the order out when the delay ends, though the client gave up (a broker acting late)', async () => {
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 300, late: true });
    await expect(placeRaw(AbortSignal.timeout(100))).rejects.toThrow();
    expect(await pending()).toEqual({ stat: 'Not_Ok', emsg: 'no data' });
    await new Promise((r) => setTimeout(r, 450));
    expect((await pending()) as unknown[]).toHaveLength(1);
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

describe('concurrency', () => {
  it('500 places at once get 500 distinct al_ids, all listed', async () => {
    await control.switches({ acceptAnySymbol: true }); // 500 distinct symbols: more than the shipped list holds
    const replies = await Promise.all(Array.from({ length: 500 }, (_, i) => place({ tsym: `SYM${i}-EQ` })));
    const ids = new Set(replies.map((r) => r.al_id));
    expect(replies.every((r) => r.stat === 'OI created')).toBe(true);
    expect(ids.size).toBe(500);
    const listed = (await pending()) as { al_id: string }[];
    expect(new Set(listed.map((r) => r.al_id))).toEqual(ids);
  });
});
