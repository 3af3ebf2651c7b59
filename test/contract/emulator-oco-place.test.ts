/**
 * Contract tests of the emulator's OCO GTTs over real HTTP on 127.0.0.1: place, the pending record's two-leg shape,
 * modify (full replacement), cancel by either operation. Decisions: docs/explanation/emulator-extensions.md. Many places at
 * once are in test/integration/emulator-concurrency.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { type EmulatorFixture, useEmulator } from '../support/emulator-fixture.js';
import { AL_ID, type Fields, ocoClient } from '../support/oco-client.js';
import { TIME } from './jdata-client.js';

let emu: EmulatorFixture;
const { oco, single, call, placeOco, pending } = ocoClient(() => emu);

const fixture = useEmulator();
beforeEach(() => {
  emu = fixture();
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
});
