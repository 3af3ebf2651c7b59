/**
 * The emulator's GTT writes and reads over real HTTP on 127.0.0.1, in every dialect it speaks (emulator/wire/dialect.ts,
 * docs/reference/emulator.md "Dialects"): the exact shapes and texts a client written for that broker gets back for a place, the
 * pending list, a modify and a cancel of a single GTT and of an OCO, and a fired GTT in the triggered history. What
 * does not differ between dialects (failures, sessions, faults, the log) is in emulator-shapes.test.ts and
 * emulator-faults.test.ts.
 */
import { describe, expect, it } from 'vitest';

import { EMULATOR_DIALECTS, type EmulatorDialect } from '../../emulator/wire/dialect.js';
import { type EmulatorFixture, gttJData, useEmulator } from '../support/emulator-fixture.js';
import { wireOcoLeg } from '../support/wire-order.js';

const TIME = /^\d{2}:\d{2}:\d{2} \d{2}-\d{2}-\d{4}$/;

/** Each dialect's success texts per write, and the spelling of the record keys it capitalises. */
const WIRE: Record<
  EmulatorDialect,
  { place: string; placeOco: string; modify: string; modifyOco: string; cancel: string; key: (k: string) => string }
> = {
  noren: {
    place: 'OI created',
    placeOco: 'OI created',
    modify: 'OI replaced',
    modifyOco: 'OI replaced',
    cancel: 'OI deleted',
    key: (k) => k,
  },
  '2021': {
    place: 'Oi created',
    placeOco: 'Oi created',
    modify: 'Oi Replacedt',
    modifyOco: 'Oi Replacedt',
    cancel: 'Oi delete success',
    key: (k) => (['al_id', 'token', 'remarks', 'qty', 'prc'].includes(k) ? k[0]!.toUpperCase() + k.slice(1) : k),
  },
  flattrade: {
    place: 'Oi created',
    placeOco: 'OI created',
    modify: 'Oi Replaced',
    modifyOco: 'OI replaced',
    cancel: 'Oi delete success',
    key: (k) => k,
  },
};

describe.each(EMULATOR_DIALECTS)('GTT writes and reads in the %s dialect', (dialect) => {
  const fixture = useEmulator({ dialect });
  const wire = WIRE[dialect];
  const id = wire.key('al_id');
  let emu: EmulatorFixture;

  const call = async (op: string, jData: unknown) => {
    emu = fixture();
    const res = await fetch(`${emu.url}/ClientAPI/${op}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Authorization: `Bearer ${emu.token}` },
      body: `jData=${JSON.stringify(jData)}`,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const order = (over: Record<string, string> = {}) => gttJData(fixture(), over);
  const place = async (over: Record<string, string> = {}) =>
    String((await call('PlaceGTTOrder', order(over))).body[id]);
  const pending = async () => (await call('GetPendingGTTOrder', { uid: fixture().uid })).body;

  it('PlaceGTTOrder answers its text with a new digit id and request_time HH:MM:SS DD-MM-YYYY', async () => {
    const reply = await call('PlaceGTTOrder', order());
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      request_time: expect.stringMatching(TIME),
      stat: wire.place,
      [id]: expect.stringMatching(/^\d+$/),
    });
  });

  it('GetPendingGTTOrder lists every 2.3 field, qty a JSON number in both places', async () => {
    const alId = await place({ remarks: 'note', ordersource: 'WEB', dscqty: '0' });
    const list = (await pending()) as unknown as Record<string, unknown>[];
    expect(list).toHaveLength(1);
    const record = list[0]!;
    for (const field of ['stat', 'ai_t', 'al_id', 'tsym', 'exch', 'token', 'remarks', 'validity', 'norentm', 'pp']) {
      expect(record).toHaveProperty(wire.key(field));
    }
    for (const field of ['ls', 'ti', 'brkname', 'actid', 'trantype', 'prctyp', 'qty', 'prc', 'C', 'prd']) {
      expect(record).toHaveProperty(wire.key(field));
    }
    for (const field of ['ordersource', 'd', 'place_order_params', 'oivariable'])
      expect(record).toHaveProperty(wire.key(field));
    expect(record).toMatchObject({
      stat: 'Ok',
      [id]: alId,
      [wire.key('qty')]: 10,
      [wire.key('prc')]: '2500.5',
      d: '2490',
      [wire.key('remarks')]: 'note',
      ordersource: 'WEB',
      tsym: 'RELIANCE-EQ',
    });
    expect(record.place_order_params).toMatchObject({
      qty: 10,
      prd: 'C',
      s_prdt_ali: 'CNC',
      actid: fixture().actid,
      ipaddr: '127.0.0.1',
    });
    expect(record.oivariable).toEqual([{ var_name: 'x', d: '2490' }]);
    expect(record.norentm).toMatch(TIME);
  });

  it('ModifyGTTOrder replaces the order; CancelGTTOrder deletes it; both echo the id; then Invalid Oi', async () => {
    const alId = await place();
    const modified = await call('ModifyGTTOrder', { ...order({ qty: '3', d: '2480' }), al_id: alId });
    expect(modified.body).toEqual({ request_time: expect.stringMatching(TIME), stat: wire.modify, [id]: alId });
    expect(((await pending()) as unknown as Record<string, unknown>[])[0]).toMatchObject({
      [id]: alId,
      [wire.key('qty')]: 3,
      d: '2480',
    });
    const cancelled = await call('CancelGTTOrder', { uid: fixture().uid, al_id: alId });
    expect(cancelled.body).toEqual({ request_time: expect.stringMatching(TIME), stat: wire.cancel, [id]: alId });
    expect(await pending()).toEqual({ stat: 'Not_Ok', emsg: 'no data' });
    expect((await call('CancelGTTOrder', { uid: fixture().uid, al_id: alId })).body).toMatchObject({
      stat: 'Invalid Oi',
    });
  });

  it('an OCO: PlaceOCOOrder, ModifyOCOOrder and CancelOCOOrder answer their texts', async () => {
    const account = fixture();
    const oco = {
      uid: account.uid,
      ai_t: 'LMT_BOS_O',
      validity: 'GTT',
      tsym: 'RELIANCE-EQ',
      exch: 'NSE',
      oivariable: [
        { d: '2600', var_name: 'x' },
        { d: '2400', var_name: 'y' },
      ],
      place_order_params: wireOcoLeg(account),
      place_order_params_leg2: wireOcoLeg(account, { prc: '2395' }),
    };
    const placed = (await call('PlaceOCOOrder', oco)).body;
    expect(placed).toMatchObject({ stat: wire.placeOco, [id]: expect.stringMatching(/^\d+$/) });
    const alId = String(placed[id]);
    expect((await call('ModifyOCOOrder', { ...oco, al_id: alId })).body).toMatchObject({
      stat: wire.modifyOco,
      [id]: alId,
    });
    expect((await call('CancelOCOOrder', { uid: account.uid, al_id: alId })).body).toMatchObject({
      stat: wire.cancel,
      [id]: alId,
    });
  });

  it('a last traded price that meets the trigger fires the GTT: it leaves the pending list for GetTrgOi', async () => {
    const below = await place({ ai_t: 'LTP_B_O', d: '2490' });
    const above = await place({ ai_t: 'LTP_A_O', d: '2600' });
    const { control } = fixture();
    expect(await control.ltp('NSE', 'RELIANCE-EQ', 2500)).toEqual({ triggered: [], fired: [], filled: [] });
    expect(await control.ltp('NSE', 'RELIANCE-EQ', 2490)).toEqual({
      triggered: [below],
      fired: [
        {
          al_id: below,
          kind: 'gtt',
          leg: 'x',
          d: '2490',
          norenordno: expect.stringMatching(/^\d{14}$/),
          status: 'COMPLETE',
        },
      ],
      filled: [],
    });
    expect(await control.ltp('NSE', 'RELIANCE-EQ', 2600)).toMatchObject({ triggered: [above] });
    expect(await pending()).toEqual({ stat: 'Not_Ok', emsg: 'no data' });
    const fired = (await call('GetTrgOi', { actid: fixture().actid })).body as unknown as Record<string, unknown>[];
    expect(fired.map((r) => r[id]).sort()).toEqual([below, above].sort());
  });
});
