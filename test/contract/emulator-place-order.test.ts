/**
 * The emulator's PlaceOrder (a regular exchange order, not a GTT) over real HTTP on 127.0.0.1, with the jData
 * NorenRestApiPy's `place_order` sends: the reply `{request_time, stat: "Ok", norenordno}`; the order in OrderBook
 * with its remarks, decided by the market (a marketable limit fills at the price, another rests OPEN and fills when
 * the price reaches it, an IOC one is cancelled, a stop-loss waits for its trigger); the exchange's rules (tick,
 * lot, band) reject it in the book; market orders refused from the API unless switched on; malformed input Not_Ok
 * with `emsg`; a queued outcome applies; a reply lost after the order was placed leaves it in the book.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { indexContract } from '../../emulator/state/symbols.js';
import { type EmulatorFixture, useEmulator } from '../support/emulator-fixture.js';
import { control, jdata, send, TIME } from './jdata-client.js';

const fixture = useEmulator();
let emu: EmulatorFixture;
beforeEach(() => {
  emu = fixture();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions on arbitrary JSON
type Json = Record<string, any>;

/** NorenRestApiPy's place_order jData, field for field (its `trgprc` is `str(None)` for a plain limit order). */
const pyOrder = (over: Record<string, string> = {}) => ({
  ordersource: 'API',
  uid: emu.uid,
  actid: emu.actid,
  trantype: 'B',
  prd: 'C',
  exch: 'NSE',
  tsym: 'INFY-EQ',
  qty: '5',
  dscqty: '0',
  prctyp: 'LMT',
  prc: '1500',
  trgprc: 'None',
  ret: 'DAY',
  remarks: 'square-off gw.0123456789',
  amo: 'NO',
  ...over,
});
const place = async (over: Record<string, string> = {}) =>
  (await jdata(emu.url, 'PlaceOrder', pyOrder(over), emu.token)).body as Json;
const book = async () => (await jdata(emu.url, 'OrderBook', { uid: emu.uid }, emu.token)).body as Json[];
const orderOf = async (norenordno: string) => (await book()).find((o) => o.norenordno === norenordno)!;
const ltp = (value: number, close?: number, tsym = 'INFY-EQ', exch = 'NSE') =>
  control(emu.url, 'POST', 'ltp', { exch, tsym, ltp: value, ...(close === undefined ? {} : { close }) });

describe('PlaceOrder: the reply and the order in the book', () => {
  it('answers {request_time, stat: Ok, norenordno}; a marketable limit fills at the price and keeps its remarks', async () => {
    await ltp(1490);
    const reply = await place();
    expect(reply).toEqual({ request_time: expect.stringMatching(TIME), stat: 'Ok', norenordno: expect.any(String) });
    expect(reply.norenordno).toMatch(/^\d{14}$/);
    expect(await book()).toEqual([
      expect.objectContaining({
        norenordno: reply.norenordno,
        exch: 'NSE',
        tsym: 'INFY-EQ',
        trantype: 'B',
        qty: '5',
        prc: '1500',
        prctyp: 'LMT',
        prd: 'C',
        ret: 'DAY',
        status: 'COMPLETE',
        fillshares: '5',
        avgprc: '1490',
        remarks: 'square-off gw.0123456789',
      }),
    ]);
    const history = (await jdata(emu.url, 'SingleOrdHist', { uid: emu.uid, norenordno: reply.norenordno }, emu.token))
      .body as Json[];
    expect(history.map((h) => h.status)).toEqual(['COMPLETE', 'OPEN', 'PENDING']);
  });

  it('a limit the market has not reached rests OPEN and fills at its limit when the price reaches it', async () => {
    await ltp(1520);
    const { norenordno } = await place({ trantype: 'S', prc: '1530' });
    expect(await orderOf(norenordno)).toMatchObject({ status: 'OPEN', fillshares: '0' });
    const moved = (await ltp(1531)).body;
    expect(moved.filled).toEqual([expect.objectContaining({ norenordno, avgprc: '1530' })]);
    expect(await orderOf(norenordno)).toMatchObject({ status: 'COMPLETE', fillshares: '5', avgprc: '1530' });
  });

  it('an IOC limit not marketable is cancelled at once; a stop-loss waits for its trigger', async () => {
    await ltp(1520);
    const ioc = await place({ prc: '1500', ret: 'IOC' });
    expect(await orderOf(ioc.norenordno)).toMatchObject({ status: 'CANCELED', fillshares: '0' });
    const stop = await place({ trantype: 'S', prctyp: 'SL-LMT', prc: '1495', trgprc: '1500' });
    expect(await orderOf(stop.norenordno)).toMatchObject({ status: 'TRIGGER_PENDING', trgprc: '1500' });
    await ltp(1499);
    expect(await orderOf(stop.norenordno)).toMatchObject({ status: 'COMPLETE', avgprc: '1499' });
  });

  it('the exchange rejects an order off the tick, off the lot or outside the band: REJECTED with its reason', async () => {
    await ltp(1500, 1500);
    const tick = await place({ prc: '1500.03' });
    const band = await place({ prc: '1700' });
    const nifty = indexContract('NIFTY', new Date(Date.now() + 7 * 86_400_000), 'F');
    await ltp(24000, undefined, nifty, 'NFO');
    const lot = await place({ exch: 'NFO', tsym: nifty, prd: 'M', qty: '50', prc: '24000' });
    for (const reply of [tick, band, lot]) expect(reply).toMatchObject({ stat: 'Ok', norenordno: expect.any(String) });
    expect(await orderOf(tick.norenordno)).toMatchObject({
      status: 'REJECTED',
      rejreason: 'Price 1500.03 is not a multiple of tick size 0.05',
    });
    expect(await orderOf(band.norenordno)).toMatchObject({
      status: 'REJECTED',
      rejreason: expect.stringMatching(/outside the day's price band 1350.00 - 1650.00/),
    });
    expect(await orderOf(lot.norenordno)).toMatchObject({
      status: 'REJECTED',
      rejreason: 'Quantity 50 is not a multiple of lot size 65',
    });
  });

  it('a market order is refused from the API (ALGO_CHK) unless switched on; then it fills at the price', async () => {
    await ltp(1488.5);
    expect(await place({ prctyp: 'MKT', prc: '0' })).toEqual({
      stat: 'Not_Ok',
      emsg: 'ALGO_CHK: MKT Order type not allowed for API order',
    });
    await emu.control.switches({ acceptApiMarketOrders: true });
    const { norenordno } = await place({ prctyp: 'MKT', prc: '0' });
    expect(await orderOf(norenordno)).toMatchObject({ status: 'COMPLETE', prc: '0', avgprc: '1488.5' });
  });

  it('a queued next-order outcome applies to it', async () => {
    await ltp(1490);
    await control(emu.url, 'POST', 'next-order', { status: 'rejected', reason: 'RMS:Margin Exceeds' });
    const { norenordno } = await place();
    expect(await orderOf(norenordno)).toMatchObject({ status: 'REJECTED', rejreason: 'RMS:Margin Exceeds' });
  });
});

describe('PlaceOrder: bad input is Not_Ok with emsg, nothing in the book', () => {
  it.each([
    ['no trantype', { trantype: '' }, 'Invalid Input : trantype is Missing'],
    ['an unknown side', { trantype: 'X' }, 'Invalid Input : trantype must be one of B, S'],
    ['an unknown price type', { prctyp: 'DS' }, 'Invalid Input : prctyp must be one of LMT, MKT, SL-LMT, SL-MKT'],
    ['qty 0', { qty: '0' }, 'Invalid Input : qty must be a positive whole number'],
    ['a limit without a price', { prc: '0' }, 'Invalid Input : prc must be a positive price for price type LMT'],
    ['a stop without a trigger', { prctyp: 'SL-LMT', trgprc: '' }, 'Invalid Input : trgprc is Missing'],
    ['another account', { actid: 'OTHER1' }, 'Invalid Input : Invalid Account Id'],
    ['an unlisted symbol', { tsym: 'NOSUCH-EQ' }, 'Invalid Input : Invalid Trading Symbol'],
    ['an unknown retention', { ret: 'GTC' }, 'Invalid Input : ret must be one of DAY, IOC, EOS'],
  ])('%s', async (_label, over, emsg) => {
    expect(await place(over)).toEqual({ stat: 'Not_Ok', emsg });
    expect(await book()).toEqual({ stat: 'Not_Ok', emsg: 'no data' });
  });

  it('an expired session is Not_Ok too, and a jData that is not JSON', async () => {
    expect((await jdata(emu.url, 'PlaceOrder', pyOrder(), 'not-the-token-at-all')).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'Session Expired :  Invalid Session Key',
    });
    const raw = await send(emu.url, '/ClientAPI/PlaceOrder', 'jData={not json', {
      Authorization: `Bearer ${emu.token}`,
    });
    expect(raw.body).toEqual({ stat: 'Not_Ok', emsg: 'Invalid Input : jData is not valid JSON' });
  });
});

describe('PlaceOrder: a reply lost after the order was placed', () => {
  it('an executed drop fault: the client hears nothing, the order is in the book with its remarks', async () => {
    await ltp(1490);
    await emu.control.fault({ operation: 'PlaceOrder', kind: 'drop', executed: true, times: 1 });
    await expect(place()).rejects.toThrow();
    expect(await book()).toEqual([
      expect.objectContaining({ status: 'COMPLETE', remarks: 'square-off gw.0123456789' }),
    ]);
    const logged = (await emu.control.requests()).filter((r) => r.operation === 'PlaceOrder');
    expect(logged).toHaveLength(1);
  });
});
