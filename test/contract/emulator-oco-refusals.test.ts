/**
 * Contract tests of the emulator's OCO GTTs over real HTTP on 127.0.0.1: what it refuses (bad bodies on place and
 * modify, session rules) and injected faults and the request log on the OCO operations. Decisions:
 * docs/explanation/emulator-extensions.md.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { EmulatorControl } from '../support/emulator-control.js';
import { type EmulatorFixture, useEmulator } from '../support/emulator-fixture.js';
import { type Fields, ocoClient } from '../support/oco-client.js';
import { control as rawControl } from './jdata-client.js';

let emu: EmulatorFixture;
let ctl: EmulatorControl;
const { oco, call, placeOco, pending } = ocoClient(() => emu);

const fixture = useEmulator();
beforeEach(() => {
  emu = fixture();
  ctl = emu.control;
});

describe('PlaceOCOOrder / ModifyOCOOrder', () => {
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
