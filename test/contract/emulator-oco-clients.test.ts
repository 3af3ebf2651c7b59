/**
 * Contract tests of the emulator's OCO GTTs over real HTTP on 127.0.0.1 as real clients reach them: every exchange of
 * the client record, the path forms of real deployments, and the exact bodies a Python client sends. Decisions:
 * docs/explanation/emulator-extensions.md.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { EmulatorControl } from '../support/emulator-control.js';
import { type EmulatorFixture, useEmulator } from '../support/emulator-fixture.js';
import { AL_ID, EXCHANGES, ocoClient } from '../support/oco-client.js';
import { pyJson, quotePlus, send, type Sent, TIME } from './jdata-client.js';

let emu: EmulatorFixture;
let ctl: EmulatorControl;
const { oco, single, call, placeOco, pending } = ocoClient(() => emu);

const fixture = useEmulator();
beforeEach(() => {
  emu = fixture();
  ctl = emu.control;
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
