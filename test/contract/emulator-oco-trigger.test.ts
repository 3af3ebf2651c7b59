/**
 * Contract tests of the emulator's OCO GTTs over real HTTP on 127.0.0.1: triggering either leg through the LTP
 * control, single GTTs' trigger rule beside them, and the triggered history (GetTrgOi). Decisions:
 * docs/explanation/emulator-extensions.md.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { EmulatorControl } from '../support/emulator-control.js';
import { type EmulatorFixture, useEmulator } from '../support/emulator-fixture.js';
import { type Fields, ocoClient } from '../support/oco-client.js';
import { TIME } from './jdata-client.js';

let emu: EmulatorFixture;
let ctl: EmulatorControl;
const { oco, single, call, placeOco, pending, triggered, ltp } = ocoClient(() => emu);

const fixture = useEmulator();
beforeEach(() => {
  emu = fixture();
  ctl = emu.control;
});

describe('triggering via the LTP control', () => {
  it('the target leg (x) fires when the price rises to it: only that leg, the OCO leaves pending, GetTrgOi shows it', async () => {
    await ltp(2500);
    const { al_id } = await placeOco();
    expect(await ltp(2450)).toEqual({ triggered: [], fired: [], filled: [] });
    expect(await ltp(2600)).toEqual({
      triggered: [al_id],
      fired: [
        { al_id, kind: 'oco', leg: 'x', d: '2600', norenordno: expect.stringMatching(/^\d{14}$/), status: 'COMPLETE' },
      ],
      filled: [],
    });
    expect(await pending()).toEqual({ stat: 'Not_Ok', emsg: 'no data' });
    expect(await ltp(2300)).toEqual({ triggered: [], fired: [], filled: [] }); // the other leg never fires
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
    expect(await ltp(2700)).toEqual({ triggered: [], fired: [], filled: [] });
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
      // The target's limit moves with its trigger: a sell at 2295 trades when the market is at 2300.
      { prc: '2295' },
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

describe('the swappedLegs fault: the leg-mapping trap', () => {
  it('keeps the OCO with its triggers swapped, answered as usual; the target-level price fires the stop-loss order', async () => {
    const refused = await ctl.fault({ operation: 'PlaceGTTOrder', kind: 'swappedLegs' }).catch((e: Error) => e);
    expect(String(refused)).toMatch(/swappedLegs fault is for PlaceOCOOrder only/);
    await ltp(2500);
    await ctl.fault({ operation: 'PlaceOCOOrder', kind: 'swappedLegs' });
    const placed = await placeOco();
    expect(placed.stat).toBe('OI created');
    const [held] = (await pending()) as Fields[];
    // Leg 1 (the target's order, a limit at 2600) now rests at the stop-loss's trigger, and the other way round.
    expect(held).toMatchObject({
      al_id: placed.al_id,
      oivariable: [
        { var_name: 'x', d: '2400' },
        { var_name: 'y', d: '2600' },
      ],
      place_order_params: { prctyp: 'LMT' },
      place_order_params_leg2: { prctyp: 'SL-LMT', trgprc: '2400' },
    });
    expect((await ltp(2600)).fired).toEqual([expect.objectContaining({ al_id: placed.al_id, leg: 'y', d: '2600' })]);
    // The next OCO is kept as sent: the fault was for one request.
    const next = await placeOco();
    const kept = ((await pending()) as Fields[]).find((o) => o.al_id === next.al_id)!;
    expect(kept.oivariable).toEqual([
      { var_name: 'x', d: '2600' },
      { var_name: 'y', d: '2400' },
    ]);
  });
});
