/**
 * Contract tests of the broker emulator over real HTTP on 127.0.0.1: what a client written for the real broker
 * sends, and the exact shapes and texts it gets back (docs/explanation/broker-wire.md): success and failure shapes, session
 * checks. The GTT writes and reads, whose texts and keys differ by dialect, run in every dialect in
 * emulator-gtt.test.ts; many places at once in test/integration/emulator-concurrency.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { EmulatorControl } from '../support/emulator-control.js';
import { type EmulatorFixture, useEmulator } from '../support/emulator-fixture.js';
import { plainClient, type Sent, TIME } from '../support/plain-client.js';

let emu: EmulatorFixture;
let control: EmulatorControl;
const { order, post, call, place, pending } = plainClient(() => emu);

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
      ai_ts: [
        ...['LTP_A_O', 'LTP_B_O', 'CH_PER_A_O', 'CH_PER_B_O', 'ATP_A_O', 'ATP_B_O', 'OI_A_O', 'OI_B_O'],
        ...['TOI_A_O', 'TOI_B_O', 'VOLUME_A_O', 'LTP_A_52HIGH', 'LTP_B_52LOW', 'LMT_BOS_O'],
      ].map((ai_t) => ({ ai_t })),
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
