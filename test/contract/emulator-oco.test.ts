/**
 * Contract tests of the emulator's extensions over real HTTP on 127.0.0.1: OCO GTTs (place, modify, cancel, pending
 * records, triggering either leg), the triggered history (GetTrgOi), every exchange of the client record, path
 * forms of real deployments, and the exact bodies a Python client sends. Decisions: docs/emulator-extensions.md.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { EmulatorControl } from '../support/emulator-control.js';
import { type EmulatorFixture, gttJData, useEmulator } from '../support/emulator-fixture.js';
import { wireOcoLeg } from '../support/wire-order.js';
import { control as rawControl, jdata, pyJson, quotePlus, send, type Sent, TIME } from './jdata-client.js';

let emu: EmulatorFixture;
let ctl: EmulatorControl;

const EXCHANGES = ['CDS', 'NSE', 'NFO', 'MCX', 'BSE', 'NCX', 'BSTAR', 'BCD', 'BFO', 'NCOM'];
const AL_ID = /^\d{14}$/;

type Fields = Record<string, unknown>;
const leg = (over: Fields = {}): Fields => wireOcoLeg(emu, { tsym: 'RELIANCE-EQ', qty: '10', prc: '2600', ...over });
/** A long position's exit: x = target 2600 (leg 1), y = stop-loss 2400 (leg 2). */
const oco = (over: Fields = {}, leg1: Fields = {}, leg2: Fields = {}): Fields => ({
  uid: emu.uid,
  ai_t: 'LMT_BOS_O',
  validity: 'GTT',
  tsym: 'RELIANCE-EQ',
  exch: 'NSE',
  oivariable: [
    { d: '2600', var_name: 'x' },
    { d: '2400', var_name: 'y' },
  ],
  place_order_params: leg(leg1),
  place_order_params_leg2: leg({ prctyp: 'SL-LMT', prc: '2395', trgprc: '2400', ...leg2 }),
  ...over,
});
const single = (over: Fields = {}): Fields => gttJData(emu, over);

const call = (op: string, fields: unknown, token: string | null = emu.token) => jdata(emu.url, op, fields, token);
const placeOco = async (over: Fields = {}, leg1: Fields = {}, leg2: Fields = {}) =>
  (await call('PlaceOCOOrder', oco(over, leg1, leg2))).body as { stat: string; al_id: string };
const pending = async () => (await call('GetPendingGTTOrder', { uid: emu.uid })).body;
const triggered = async () => (await call('GetTrgOi', { actid: emu.actid })).body;
const ltp = async (price: number, tsym = 'RELIANCE-EQ', exch = 'NSE') =>
  (await rawControl(emu.url, 'POST', 'ltp', { exch, tsym, ltp: price })).body as {
    triggered: string[];
    fired: { al_id: string; leg: string }[];
  };

const fixture = useEmulator();
beforeEach(() => {
  emu = fixture();
  ctl = emu.control;
});

describe('PlaceOCOOrder / ModifyOCOOrder', () => {
  it('place answers OI created with a new 14-digit al_id from the same counter as single GTTs', async () => {
    const first = (await call('PlaceGTTOrder', single())).body as { al_id: string };
    const reply = await call('PlaceOCOOrder', oco());
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      request_time: expect.stringMatching(TIME),
      stat: 'OI created',
      al_id: expect.stringMatching(AL_ID),
    });
    expect(BigInt((reply.body as { al_id: string }).al_id)).toBe(BigInt(first.al_id) + 1n);
  });

  it('the OCO is in the pending list beside single GTTs, in the documented two-leg shape', async () => {
    const gtt = (await call('PlaceGTTOrder', single({ remarks: 'single-note' }))).body as { al_id: string };
    const { al_id } = await placeOco({ remarks: 'oco-note' });
    const list = (await pending()) as Record<string, unknown>[];
    expect(list.map((r) => r.al_id)).toEqual([gtt.al_id, al_id]);
    expect(list[0]).toMatchObject({ ai_t: 'LTP_B_O', remarks: 'single-note', d: '2490' });
    expect(list[0]).not.toHaveProperty('place_order_params_leg2');
    const legRecord = (over: Fields) => ({
      actid: emu.actid,
      trantype: 'S',
      prctyp: 'LMT',
      qty: 10,
      prc: '2600',
      C: 'C',
      s_prdt_ali: 'CNC',
      prd: 'C',
      ordersource: 'API',
      ipaddr: '127.0.0.1',
      trgprc: '',
      ...over,
    });
    expect(list[1]).toEqual({
      stat: 'Ok',
      ai_t: 'LMT_BOS_O',
      al_id,
      tsym: 'RELIANCE-EQ',
      exch: 'NSE',
      token: expect.stringMatching(/^\d+$/),
      remarks: 'oco-note',
      validity: 'GTT',
      norentm: expect.stringMatching(TIME),
      pp: '2',
      ls: '1',
      ti: '0.05',
      brkname: 'GTTSIM',
      actid: emu.actid,
      trantype: 'S',
      prctyp: 'LMT',
      qty: 10,
      prc: '2600',
      C: 'C',
      prd: 'C',
      ordersource: 'API',
      d: '',
      place_order_params: legRecord({}),
      place_order_params_leg2: legRecord({ prctyp: 'SL-LMT', prc: '2395', trgprc: '2400' }),
      oivariable: [
        { var_name: 'x', d: '2600' },
        { var_name: 'y', d: '2400' },
      ],
    });
  });

  it('modify is a full replacement (OI replaced); al_id may come as a JSON number', async () => {
    const { al_id } = await placeOco({ remarks: 'before' });
    const changed = oco(
      {
        al_id,
        validity: 'DAY',
        oivariable: [
          { d: '2700', var_name: 'x' },
          { d: '2300', var_name: 'y' },
        ],
      },
      { qty: '4', prd: 'M' },
      { qty: '4', prd: 'M' },
    );
    expect((await call('ModifyOCOOrder', changed)).body).toEqual({
      request_time: expect.stringMatching(TIME),
      stat: 'OI replaced',
      al_id,
    });
    const [record] = (await pending()) as Record<string, unknown>[];
    expect(record).toMatchObject({
      al_id,
      validity: 'DAY',
      remarks: '',
      qty: 4,
      prd: 'M',
      oivariable: [
        { var_name: 'x', d: '2700' },
        { var_name: 'y', d: '2300' },
      ],
    });
    expect(record!.place_order_params_leg2).toMatchObject({ qty: 4, s_prdt_ali: 'NRML' });
    expect((await call('ModifyOCOOrder', { ...oco(), al_id: Number(al_id) })).body).toMatchObject({
      stat: 'OI replaced',
      al_id,
    });
  });

  it('modify of an unknown, cancelled or single-GTT id is Invalid Oi with no emsg; ModifyGTTOrder does not take an OCO id', async () => {
    expect((await call('ModifyOCOOrder', { ...oco(), al_id: '1' })).body).toEqual({
      request_time: expect.stringMatching(TIME),
      stat: 'Invalid Oi',
      al_id: '1',
    });
    const gtt = (await call('PlaceGTTOrder', single())).body as { al_id: string };
    expect((await call('ModifyOCOOrder', { ...oco(), al_id: gtt.al_id })).body).toMatchObject({
      stat: 'Invalid Oi',
      al_id: gtt.al_id,
    });
    const { al_id } = await placeOco();
    expect((await call('ModifyGTTOrder', { ...single(), al_id })).body).toMatchObject({ stat: 'Invalid Oi', al_id });
    await call('CancelGTTOrder', { uid: emu.uid, al_id });
    expect((await call('ModifyOCOOrder', { ...oco(), al_id })).body).toEqual({
      request_time: expect.stringMatching(TIME),
      stat: 'Invalid Oi',
      al_id,
    });
  });

  it('CancelGTTOrder cancels an OCO (OI deleted); CancelOCOOrder is the same, uid optional; a second cancel is Invalid Oi', async () => {
    const a = await placeOco();
    const b = await placeOco();
    expect((await call('CancelGTTOrder', { uid: emu.uid, al_id: a.al_id })).body).toEqual({
      request_time: expect.stringMatching(TIME),
      stat: 'OI deleted',
      al_id: a.al_id,
    });
    expect((await call('CancelOCOOrder', { al_id: b.al_id })).body).toEqual({
      request_time: expect.stringMatching(TIME),
      stat: 'OI deleted',
      al_id: b.al_id,
    });
    expect(await pending()).toEqual({ stat: 'Not_Ok', emsg: 'no data' });
    expect((await call('CancelOCOOrder', { uid: emu.uid, al_id: a.al_id })).body).toMatchObject({
      stat: 'Invalid Oi',
      al_id: a.al_id,
    });
    expect((await call('CancelGTTOrder', { uid: emu.uid, al_id: b.al_id })).body).toMatchObject({
      stat: 'Invalid Oi',
      al_id: b.al_id,
    });
    // CancelOCOOrder also takes a single GTT (an alias, not a filter), and still checks a uid that is given.
    const gtt = (await call('PlaceGTTOrder', single())).body as { al_id: string };
    expect((await call('CancelOCOOrder', { uid: 'SOMEONE', al_id: gtt.al_id })).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'Session Expired :  Invalid User Id',
    });
    expect((await call('CancelOCOOrder', { al_id: gtt.al_id })).body).toMatchObject({ stat: 'OI deleted' });
  });

  it('validity DAY is accepted; a URL-encoded symbol is decoded like single orders', async () => {
    expect(await placeOco({ validity: 'DAY' })).toMatchObject({ stat: 'OI created' });
    await placeOco({ tsym: 'M%26M-EQ' }, { tsym: 'M&M-EQ' }, { tsym: 'M%26M-EQ' });
    const list = (await pending()) as { tsym: string }[];
    expect(list.map((r) => r.tsym)).toEqual(['RELIANCE-EQ', 'M&M-EQ']);
  });

  const twoEntries = 'Invalid Input : oivariable must be two entries {d, var_name}: x, then y';
  it.each<[string, () => Fields, string]>([
    ['another alert type', () => oco({ ai_t: 'LTP_A_O' }), 'Invalid Input : ai_t must be LMT_BOS_O'],
    ['a validity outside GTT/DAY', () => oco({ validity: 'EOS' }), 'Invalid Input : validity must be one of GTT, DAY'],
    ['no exch', () => oco({ exch: '' }), 'Invalid Input : exch is Missing'],
    [
      'an unknown exchange',
      () => oco({ exch: 'NYSE' }),
      'Invalid Input : exch must be one of CDS, NSE, NFO, MCX, BSE, NCX, BSTAR, BCD, BFO, NCOM',
    ],
    ['another account at top level', () => oco({ actid: 'OTHER' }), 'Invalid Input : Invalid Account Id'],
    ['remarks not a string', () => oco({ remarks: 5 }), 'Invalid Input : remarks must be a string'],
    ['no oivariable', () => oco({ oivariable: undefined }), 'Invalid Input : oivariable is Missing'],
    ['one trigger only', () => oco({ oivariable: [{ d: '2600', var_name: 'x' }] }), twoEntries],
    [
      'y before x',
      () =>
        oco({
          oivariable: [
            { d: '2400', var_name: 'y' },
            { d: '2600', var_name: 'x' },
          ],
        }),
      twoEntries,
    ],
    [
      'a trigger that is a number',
      () =>
        oco({
          oivariable: [
            { d: 2600, var_name: 'x' },
            { d: '2400', var_name: 'y' },
          ],
        }),
      'Invalid Input : oivariable[0].d must be a string',
    ],
    [
      'a zero trigger',
      () =>
        oco({
          oivariable: [
            { d: '2600', var_name: 'x' },
            { d: '0', var_name: 'y' },
          ],
        }),
      'Invalid Input : oivariable[1].d must be a positive number',
    ],
    [
      'no leg 2',
      () => oco({ place_order_params_leg2: undefined }),
      'Invalid Input : place_order_params_leg2 is Missing',
    ],
    [
      'a leg that is not an object',
      () => oco({ place_order_params: 'x' }),
      'Invalid Input : place_order_params must be an object',
    ],
    ['a leg without qty', () => oco({}, { qty: '' }), 'Invalid Input : place_order_params.qty is Missing'],
    ['a leg qty as a number', () => oco({}, { qty: 10 }), 'Invalid Input : place_order_params.qty must be a string'],
    [
      'a leg qty that is not whole',
      () => oco({}, {}, { qty: '1.5' }),
      'Invalid Input : place_order_params_leg2.qty must be a positive whole number',
    ],
    [
      'a leg price that is not a number',
      () => oco({}, { prc: 'abc' }),
      'Invalid Input : place_order_params.prc must be a number',
    ],
    [
      'a leg product outside C/M/H',
      () => oco({}, {}, { prd: 'X' }),
      'Invalid Input : place_order_params_leg2.prd must be one of C, M, H',
    ],
    [
      'a leg side outside B/S',
      () => oco({}, { trantype: 'X' }),
      'Invalid Input : place_order_params.trantype must be one of B, S',
    ],
    [
      'a leg without ordersource',
      () => oco({}, { ordersource: undefined }),
      'Invalid Input : place_order_params.ordersource is Missing',
    ],
    [
      'a leg on another symbol',
      () => oco({}, { tsym: 'TCS-EQ' }),
      'Invalid Input : place_order_params.tsym must be the same symbol as tsym',
    ],
    [
      'a leg on another exchange',
      () => oco({}, {}, { exch: 'BSE' }),
      'Invalid Input : place_order_params_leg2.exch must be the same exchange as exch',
    ],
    ['a leg of another account', () => oco({}, { actid: 'OTHER' }), 'Invalid Input : Invalid Account Id'],
    ['a leg of another user', () => oco({}, {}, { uid: 'OTHER' }), 'Invalid Input : Invalid User Id'],
    [
      'a stop-loss leg without trgprc',
      () => oco({}, {}, { trgprc: '' }),
      'Invalid Input : place_order_params_leg2.trgprc is Missing',
    ],
    [
      'a trgprc that is not a number',
      () => oco({}, { trgprc: 'x' }),
      'Invalid Input : place_order_params.trgprc must be a number',
    ],
  ])('PlaceOCOOrder with %s is Not_Ok with a clear emsg', async (_label, body, emsg) => {
    const reply = await call('PlaceOCOOrder', body());
    expect(reply).toMatchObject({ status: 200, body: { stat: 'Not_Ok', emsg } });
    expect(await pending()).toEqual({ stat: 'Not_Ok', emsg: 'no data' });
  });

  it('ModifyOCOOrder validates the same way, and needs al_id', async () => {
    const { al_id } = await placeOco();
    expect((await call('ModifyOCOOrder', oco())).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'Invalid Input : al_id is Missing',
    });
    expect((await call('ModifyOCOOrder', { ...oco({}, { qty: '0' }), al_id })).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'Invalid Input : place_order_params.qty must be a positive whole number',
    });
    expect((await call('ModifyOCOOrder', { ...oco(), al_id: true })).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'Invalid Input : al_id must be a string',
    });
  });

  it('session rules apply: no token, and a uid that is not the token user', async () => {
    expect((await call('PlaceOCOOrder', oco(), null)).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'Session Expired :  Invalid Session Key',
    });
    expect((await call('PlaceOCOOrder', oco({ uid: 'SOMEONE' }))).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'Session Expired :  Invalid User Id',
    });
  });

  it('200 OCO places at once get 200 distinct al_ids, all listed', async () => {
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => placeOco({ remarks: `r${i}` })));
    expect(replies.every((r) => r.stat === 'OI created')).toBe(true);
    const ids = new Set(replies.map((r) => r.al_id));
    expect(ids.size).toBe(200);
    const listed = (await pending()) as { al_id: string; remarks: string }[];
    expect(new Set(listed.map((r) => r.al_id))).toEqual(ids);
    expect(new Set(listed.map((r) => r.remarks)).size).toBe(200);
  });
});

describe('triggering via the LTP control', () => {
  it('the target leg (x) fires when the price rises to it: only that leg, the OCO leaves pending, GetTrgOi shows it', async () => {
    await ltp(2500);
    const { al_id } = await placeOco();
    expect(await ltp(2450)).toEqual({ triggered: [], fired: [] });
    expect(await ltp(2600)).toEqual({
      triggered: [al_id],
      fired: [
        { al_id, kind: 'oco', leg: 'x', d: '2600', norenordno: expect.stringMatching(/^\d{14}$/), status: 'COMPLETE' },
      ],
    });
    expect(await pending()).toEqual({ stat: 'Not_Ok', emsg: 'no data' });
    expect(await ltp(2300)).toEqual({ triggered: [], fired: [] }); // the other leg never fires
    const history = (await triggered()) as Record<string, unknown>[];
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      stat: 'TRIGGERED',
      al_id,
      ai_t: 'LMT_BOS_O',
      norentm: expect.stringMatching(TIME),
      trg_leg: 'x',
      trg_d: '2600',
      trg_ltp: '2600',
      oivariable: [
        { var_name: 'x', d: '2600' },
        { var_name: 'y', d: '2400' },
      ],
      place_order_params: { prctyp: 'LMT', prc: '2600' },
      place_order_params_leg2: { prctyp: 'SL-LMT', trgprc: '2400' },
    });
    expect((await call('CancelGTTOrder', { uid: emu.uid, al_id })).body).toMatchObject({ stat: 'Invalid Oi' });
  });

  it('the stop-loss leg (y) fires when the price falls to it', async () => {
    await ltp(2500);
    const { al_id } = await placeOco();
    expect((await ltp(2401)).triggered).toEqual([]);
    expect((await ltp(2399.5)).fired).toEqual([
      { al_id, kind: 'oco', leg: 'y', d: '2400', norenordno: expect.stringMatching(/^\d{14}$/), status: 'COMPLETE' },
    ]);
    expect(await ltp(2700)).toEqual({ triggered: [], fired: [] });
    expect(await triggered()).toEqual([
      expect.objectContaining({ al_id, stat: 'TRIGGERED', trg_leg: 'y', trg_d: '2400', trg_ltp: '2399.5' }),
    ]);
  });

  it('with no price known at entry, x is the upper bound when x > y and the lower bound otherwise', async () => {
    const longExit = await placeOco(); // x 2600 above y 2400
    const shortExit = await placeOco(
      {
        tsym: 'TCS-EQ',
        oivariable: [
          { d: '3400', var_name: 'x' },
          { d: '3600', var_name: 'y' },
        ],
      },
      { tsym: 'TCS-EQ', trantype: 'B' },
      { tsym: 'TCS-EQ', trantype: 'B', trgprc: '3600' },
    );
    expect((await ltp(2600)).fired).toEqual([expect.objectContaining({ al_id: longExit.al_id, leg: 'x' })]);
    expect((await ltp(3600, 'TCS-EQ')).fired).toEqual([expect.objectContaining({ al_id: shortExit.al_id, leg: 'y' })]);
  });

  it('with a price known at entry, each leg fires when the price crosses it from that side', async () => {
    await ltp(2000); // both triggers above the price: both fire on a rise, the nearer first
    const { al_id } = await placeOco();
    expect((await ltp(2450)).fired).toEqual([expect.objectContaining({ al_id, leg: 'y', d: '2400' })]);
  });

  it('a gap through both triggers fires only the leg nearer the previous price', async () => {
    await ltp(2000);
    const { al_id } = await placeOco();
    expect((await ltp(2700)).fired).toEqual([
      { al_id, kind: 'oco', leg: 'y', d: '2400', norenordno: expect.stringMatching(/^\d{14}$/), status: 'COMPLETE' },
    ]);
    expect(((await triggered()) as unknown[]).length).toBe(1);
  });

  it('a modify decides the legs again from the price at that time', async () => {
    await ltp(2500);
    const { al_id } = await placeOco(); // x 2600 fires on a rise, y 2400 on a fall
    const lower = oco(
      {
        al_id,
        oivariable: [
          { d: '2300', var_name: 'x' },
          { d: '2200', var_name: 'y' },
        ],
      },
      {},
      { trgprc: '2200' },
    );
    expect((await call('ModifyOCOOrder', lower)).body).toMatchObject({ stat: 'OI replaced' });
    // Both new triggers are below the price at the modify: both fire on a fall, x (2300) first.
    expect((await ltp(2450)).fired).toEqual([]);
    expect((await ltp(2650)).fired).toEqual([]);
    expect((await ltp(2300)).fired).toEqual([
      { al_id, kind: 'oco', leg: 'x', d: '2300', norenordno: expect.stringMatching(/^\d{14}$/), status: 'COMPLETE' },
    ]);
  });

  it('single GTTs keep their rule (LTP_B_O below, LTP_A_O above) and show in GetTrgOi as leg x', async () => {
    const below = (await call('PlaceGTTOrder', single({ ai_t: 'LTP_B_O', d: '2490', remarks: 'dip' }))).body as {
      al_id: string;
    };
    const above = (await call('PlaceGTTOrder', single({ ai_t: 'LTP_A_O', d: '2600' }))).body as { al_id: string };
    expect((await ltp(2490)).fired).toEqual([
      {
        al_id: below.al_id,
        kind: 'gtt',
        leg: 'x',
        d: '2490',
        norenordno: expect.stringMatching(/^\d{14}$/),
        status: 'COMPLETE',
      },
    ]);
    expect(await triggered()).toEqual([
      expect.objectContaining({
        stat: 'TRIGGERED',
        al_id: below.al_id,
        ai_t: 'LTP_B_O',
        d: '2490',
        remarks: 'dip',
        qty: 10,
        norentm: expect.stringMatching(TIME),
        trg_leg: 'x',
        trg_d: '2490',
        trg_ltp: '2490',
        oivariable: [{ var_name: 'x', d: '2490' }],
      }),
    ]);
    await ltp(2600);
    expect(((await triggered()) as { al_id: string }[]).map((r) => r.al_id)).toEqual([below.al_id, above.al_id]);
  });
});

describe('GetTrgOi', () => {
  it('empty history is Not_Ok "no data" (or [] with the switch); cancelled and pending orders are not in it', async () => {
    await placeOco();
    const gone = await placeOco();
    await call('CancelGTTOrder', { uid: emu.uid, al_id: gone.al_id });
    const reply = await call('GetTrgOi', { actid: emu.actid });
    expect(reply).toMatchObject({ status: 200, body: { stat: 'Not_Ok', emsg: 'no data' } });
    await ctl.switches({ emptyListAsArray: true });
    expect(await triggered()).toEqual([]);
  });

  it.each<[string, Fields, string]>([
    ['another account', { actid: 'OTHER' }, 'Invalid Input : Invalid Account Id'],
    ['no actid', {}, 'Invalid Input : actid is Missing'],
    ['a uid that is not the token user', { actid: 'DEMO01', uid: 'SOMEONE' }, 'Session Expired :  Invalid User Id'],
  ])('%s -> Not_Ok', async (_label, fields, emsg) => {
    expect((await call('GetTrgOi', fields)).body).toEqual({ stat: 'Not_Ok', emsg });
  });

  it("needs a session, and lists only the session account's orders", async () => {
    expect((await call('GetTrgOi', { actid: emu.actid }, null)).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'Session Expired :  Invalid Session Key',
    });
    const other = await ctl.createAccount({ uid: 'OTHER1' });
    await call('PlaceGTTOrder', single({ uid: other.uid, actid: other.actid }), other.token);
    await ltp(2000);
    expect(((await call('GetTrgOi', { actid: other.actid }, other.token)).body as unknown[]).length).toBe(1);
    expect(await triggered()).toEqual({ stat: 'Not_Ok', emsg: 'no data' });
  });
});

describe('exchanges', () => {
  it('ClientDetails lists every exchange, and every order operation takes each of them', async () => {
    await ctl.switches({ acceptAnySymbol: true }); // a made-up symbol per exchange: the exchange is the point
    const details = (await call('ClientDetails', { uid: emu.uid, actid: emu.actid })).body as {
      exarr: string[];
      partic_id_list: { exch: string }[];
    };
    expect(details.exarr).toEqual(EXCHANGES);
    expect(details.partic_id_list.map((p) => p.exch)).toEqual(EXCHANGES);
    for (const exch of EXCHANGES) {
      const gtt = (await call('PlaceGTTOrder', single({ exch, tsym: `${exch}-SYM` }))).body as {
        stat: string;
        al_id: string;
      };
      expect(gtt.stat, exch).toBe('OI created');
      expect(
        (await call('ModifyGTTOrder', { ...single({ exch, tsym: `${exch}-SYM`, qty: '2' }), al_id: gtt.al_id })).body,
      ).toMatchObject({ stat: 'OI replaced' });
      const both = { exch, tsym: `${exch}-SYM` };
      const o = await placeOco(both, both, both);
      expect(o.stat, exch).toBe('OI created');
      expect((await call('ModifyOCOOrder', { ...oco(both, both, both), al_id: o.al_id })).body).toMatchObject({
        stat: 'OI replaced',
      });
    }
    expect(((await pending()) as { exch: string }[]).map((r) => r.exch)).toEqual(EXCHANGES.flatMap((e) => [e, e]));
  });
});

describe('paths of real deployments', () => {
  const enabled = (path: string) =>
    send(emu.url, path, `jData=${JSON.stringify({ uid: emu.uid })}`, { Authorization: `Bearer ${emu.token}` });
  it.each([
    '/ClientAPI/GetEnabledGTTs',
    '/NorenWClientTP/GetEnabledGTTs',
    '/NorenWClientAPI/GetEnabledGTTs',
    '/NorenWClientTP//GetEnabledGTTs',
    '/ClientAPI///GetEnabledGTTs',
    '/ClientAPI/GetEnabledGTTs/',
    '/NorenWClientTP//GetEnabledGTTs/',
  ])('%s is served', async (path) => {
    expect(await enabled(path)).toMatchObject({ status: 200, body: { stat: 'Ok' } });
  });

  it.each<[string, number, RegExp]>([
    ['/NorenWClientTP/Nope/', 404, /unknown operation Nope/],
    ['/GetEnabledGTTs', 404, /unknown path/],
    ['/a/b/GetEnabledGTTs', 404, /unknown path/],
    ['/ClientAPI/GetEnabledGTTs//', 404, /unknown path/],
  ])('%s is refused', async (path, status, emsg) => {
    const reply = await enabled(path);
    expect(reply.status).toBe(status);
    expect(reply.body).toMatchObject({ stat: 'Not_Ok', emsg: expect.stringMatching(emsg) });
  });
});

describe('what a Python client sends (NorenRestApiPy place/modify_gtt_oco_*_order)', () => {
  /** Its place_gtt_oco_mkt_order: the same leg object twice, the leg symbol plain, the top-level one quote_plus-encoded. */
  const pythonPlaceMarketOco = (symbol: string) => {
    const orderParams = {
      tsym: symbol,
      exch: 'NSE',
      trantype: 'S',
      prctyp: 'MKT',
      prd: 'C',
      ret: 'DAY',
      actid: emu.actid,
      uid: emu.uid,
      ordersource: 'API',
      qty: '5',
      prc: '0.0',
    };
    return {
      uid: emu.uid,
      ai_t: 'LMT_BOS_O',
      remarks: 'PLACE_OCO_MKT',
      validity: 'GTT',
      tsym: quotePlus(symbol),
      exch: 'NSE',
      oivariable: [
        { d: '1600.0', var_name: 'x' },
        { d: '1400.0', var_name: 'y' },
      ],
      place_order_params: orderParams,
      place_order_params_leg2: orderParams,
    };
  };
  /** Its modify_gtt_oco_mkt_order: other key order, `ordersource` at the top too, and `al_id` passed as it came (an int). */
  const pythonModifyMarketOco = (symbol: string, alId: number) => {
    const orderParams = {
      ordersource: 'API',
      tsym: symbol,
      exch: 'NSE',
      trantype: 'S',
      prctyp: 'MKT',
      prd: 'C',
      qty: '5',
      uid: emu.uid,
      actid: emu.actid,
      ret: 'DAY',
      prc: '0.0',
    };
    return {
      ordersource: 'API',
      uid: emu.uid,
      ai_t: 'LMT_BOS_O',
      remarks: 'MODIFY_OCO_MKT',
      validity: 'GTT',
      tsym: quotePlus(symbol),
      exch: 'NSE',
      al_id: alId,
      oivariable: [
        { d: '1650.0', var_name: 'x' },
        { d: '1350.0', var_name: 'y' },
      ],
      place_order_params: orderParams,
      place_order_params_leg2: orderParams,
    };
  };
  const pythonLimitOco = (symbol: string) => {
    const legOf = (price: string) => ({
      tsym: symbol,
      exch: 'NSE',
      trantype: 'S',
      prctyp: 'LMT',
      prd: 'C',
      ret: 'DAY',
      actid: emu.actid,
      uid: emu.uid,
      ordersource: 'API',
      qty: '5',
      prc: price,
    });
    return {
      uid: emu.uid,
      ai_t: 'LMT_BOS_O',
      remarks: 'PLACE_OCO_LMT',
      validity: 'GTT',
      tsym: quotePlus(symbol),
      exch: 'NSE',
      oivariable: [
        { d: '1600.0', var_name: 'x' },
        { d: '1400.0', var_name: 'y' },
      ],
      place_order_params: legOf('1601.5'),
      place_order_params_leg2: legOf('1399.5'),
    };
  };
  /** `requests.post(url, data=payload)` with a str payload: no Content-Type header. */
  const pyPost = (op: string, payload: string, headers: Record<string, string> = {}) =>
    send(emu.url, `/NorenWClientTP//${op}`, payload, headers);

  // These clients' market OCOs date from before the 2026 rules: the brokers accepted API market orders then.
  beforeEach(async () => {
    await ctl.switches({ acceptApiMarketOrders: true });
  });

  it('form jData=<json>&jKey=<token> (switch on): PlaceOCOOrder OI created, ModifyOCOOrder with an int al_id OI replaced', async () => {
    // The Python client's bodies with its symbols, one with spaces (not a listed contract): the wire is the point.
    await ctl.switches({ acceptJKey: true, acceptAnySymbol: true });
    for (const symbol of ['M&M-EQ', 'NIFTY 25DEC 24000 CE', 'RELIANCE-EQ']) {
      const placed: Sent = await pyPost(
        'PlaceOCOOrder',
        `jData=${pyJson(pythonPlaceMarketOco(symbol))}&jKey=${emu.token}`,
      );
      expect(placed.body, symbol).toEqual({
        request_time: expect.stringMatching(TIME),
        stat: 'OI created',
        al_id: expect.stringMatching(AL_ID),
      });
      const alId = Number((placed.body as { al_id: string }).al_id);
      const modified = await pyPost(
        'ModifyOCOOrder',
        `jData=${pyJson(pythonModifyMarketOco(symbol, alId))}&jKey=${emu.token}`,
      );
      expect(modified.body, symbol).toEqual({
        request_time: expect.stringMatching(TIME),
        stat: 'OI replaced',
        al_id: String(alId),
      });
    }
    const limit = await pyPost('PlaceOCOOrder', `jData=${pyJson(pythonLimitOco('L&TFH-EQ'))}&jKey=${emu.token}`);
    expect(limit.body).toMatchObject({ stat: 'OI created' });
    const list = (await pending()) as { tsym: string; remarks: string; place_order_params: { prc: string } }[];
    expect(list.map((r) => r.tsym)).toEqual(['M&M-EQ', 'NIFTY 25DEC 24000 CE', 'RELIANCE-EQ', 'L&TFH-EQ']);
    expect(list.map((r) => r.remarks)).toEqual(['MODIFY_OCO_MKT', 'MODIFY_OCO_MKT', 'MODIFY_OCO_MKT', 'PLACE_OCO_LMT']);
    expect(list[3]!.place_order_params.prc).toBe('1601.5');
    expect((list[0] as unknown as { oivariable: unknown }).oivariable).toEqual([
      { var_name: 'x', d: '1650.0' },
      { var_name: 'y', d: '1350.0' },
    ]);
  });

  it('the same bodies with a Bearer header (OAuth deployments)', async () => {
    const bearer = { Authorization: `Bearer ${emu.token}` };
    const placed = await pyPost('PlaceOCOOrder', `jData=${pyJson(pythonPlaceMarketOco('M&M-EQ'))}`, bearer);
    expect(placed.body).toMatchObject({ stat: 'OI created' });
    const alId = Number((placed.body as { al_id: string }).al_id);
    expect(
      (await pyPost('ModifyOCOOrder', `jData=${pyJson(pythonModifyMarketOco('M&M-EQ', alId))}`, bearer)).body,
    ).toMatchObject({ stat: 'OI replaced' });
    expect(
      (await pyPost('CancelGTTOrder', `jData=${pyJson({ uid: emu.uid, al_id: String(alId) })}`, bearer)).body,
    ).toMatchObject({ stat: 'OI deleted' });
  });

  it('since the 2026 rules (acceptApiMarketOrders off, the default) a market leg is refused as the Noren brokers do', async () => {
    await ctl.switches({ acceptApiMarketOrders: false });
    const bearer = { Authorization: `Bearer ${emu.token}` };
    expect((await pyPost('PlaceOCOOrder', `jData=${pyJson(pythonPlaceMarketOco('M&M-EQ'))}`, bearer)).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'ALGO_CHK: MKT Order type not allowed for API order',
    });
    const single = {
      uid: emu.uid,
      actid: emu.actid,
      exch: 'NSE',
      tsym: 'M%26M-EQ',
      qty: '1',
      prc: '0',
      prd: 'C',
      trantype: 'B',
      prctyp: 'SL-MKT',
      ret: 'DAY',
      ai_t: 'LTP_B_O',
      validity: 'GTT',
      d: '1490',
    };
    expect((await pyPost('PlaceGTTOrder', `jData=${pyJson(single)}`, bearer)).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'ALGO_CHK: MKT Order type not allowed for API order',
    });
    expect((await pyPost('PlaceOCOOrder', `jData=${pyJson(pythonLimitOco('L&TFH-EQ'))}`, bearer)).body).toMatchObject({
      stat: 'OI created',
    });
    expect(await pending()).toHaveLength(1);
  });

  it('the jKey form is refused while the switch is off', async () => {
    expect(
      (await pyPost('PlaceOCOOrder', `jData=${pyJson(pythonPlaceMarketOco('M&M-EQ'))}&jKey=${emu.token}`)).body,
    ).toEqual({
      stat: 'Not_Ok',
      emsg: 'Session Expired :  Invalid Session Key',
    });
  });
});

describe('faults and the request log cover the new operations', () => {
  it('a fault on PlaceOCOOrder applies to it only; the log names the operation with the token redacted', async () => {
    expect(
      (await rawControl(emu.url, 'POST', 'faults', { operation: 'PlaceOCOOrder', kind: 'rateLimit' })).status,
    ).toBe(201);
    expect((await call('PlaceOCOOrder', oco())).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'Order Recieved 11 in a current second exceeds Limit 10',
    });
    expect(await placeOco()).toMatchObject({ stat: 'OI created' });
    for (const operation of ['ModifyOCOOrder', 'CancelOCOOrder', 'GetTrgOi', 'GenAcsTok', 'QuickAuth']) {
      expect((await rawControl(emu.url, 'POST', 'faults', { operation, kind: 'drop' })).status, operation).toBe(201);
    }
    await ctl.clearFaults();
    const log = await ctl.requests();
    expect(log.map((r) => r.operation)).toEqual(['PlaceOCOOrder', 'PlaceOCOOrder']);
    expect(log[0]).toMatchObject({ authorization: 'Bearer <redacted>', reply: { stat: 'Not_Ok' } }); // not executed: never parsed
    expect(log[1]).toMatchObject({
      authorization: 'Bearer <redacted>',
      authUid: emu.uid,
      jData: { ai_t: 'LMT_BOS_O' },
      reply: { stat: 'OI created' },
    });
    expect(JSON.stringify(log)).not.toContain(emu.token);
  });
});
