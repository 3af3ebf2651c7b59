/**
 * What a fired GTT becomes at the emulator, over real HTTP on 127.0.0.1: an order in the order book with its own
 * number and the GTT's remarks (OrderBook), its states newest first (SingleOrdHist), ended as the control surface
 * says (filled by default, rejected with a reason, partly filled, left open) and cancelled at the close of the day
 * when still open, and the last traded price by instrument token (SearchScrip, GetQuotes).
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { type EmulatorFixture, useEmulator } from '../support/emulator-fixture.js';
import { wireGtt, wireOcoLeg } from '../support/wire-order.js';
import { control, jdata, TIME } from './jdata-client.js';

const fixture = useEmulator();
let emu: EmulatorFixture;
beforeEach(() => {
  emu = fixture();
});

const call = async (op: string, fields: Record<string, unknown>) =>
  (await jdata(emu.url, op, { uid: emu.uid, ...fields }, emu.token)).body;
const placeGtt = async (over: Record<string, unknown> = {}) =>
  (await call(
    'PlaceGTTOrder',
    wireGtt({ tsym: 'INFY-EQ', qty: '5', prc: '1500', d: '1490', remarks: 'dip-buy', ...over }, emu),
  )) as { al_id: string };
const ltp = async (value: number, tsym = 'INFY-EQ') =>
  (await control(emu.url, 'POST', 'ltp', { exch: 'NSE', tsym, ltp: value })).body as {
    fired: { al_id: string; norenordno: string; status: string }[];
  };
const nextOrder = (body: Record<string, unknown>) => control(emu.url, 'POST', 'next-order', body);

describe('the order a fired GTT places', () => {
  it("is filled by default at the better of its price and the market's, carries the GTT remarks, has its own number", async () => {
    const { al_id } = await placeGtt();
    expect(await call('OrderBook', {})).toEqual({ stat: 'Not_Ok', emsg: 'no data' });
    const [fired] = (await ltp(1489)).fired;
    expect(fired).toMatchObject({ al_id, status: 'COMPLETE', norenordno: expect.stringMatching(/^\d{14}$/) });
    expect(fired!.norenordno).not.toBe(al_id);
    expect(await call('OrderBook', {})).toEqual([
      {
        stat: 'Ok',
        norenordno: fired!.norenordno,
        uid: emu.uid,
        actid: emu.actid,
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
        avgprc: '1489',
        remarks: 'dip-buy',
        norentm: expect.stringMatching(TIME),
        exch_tm: expect.stringMatching(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/),
        ordersource: 'API',
      },
    ]);
    const history = (await call('SingleOrdHist', { norenordno: fired!.norenordno })) as { status: string }[];
    expect(history.map((h) => h.status)).toEqual(['COMPLETE', 'OPEN', 'PENDING']);
  });

  it('a market order fills at the last traded price; an OCO places its fired leg', async () => {
    // A market GTT placed outside the API's rules (the web app takes them).
    await emu.control.switches({ acceptApiMarketOrders: true });
    await placeGtt({ prctyp: 'MKT', prc: '0', remarks: '' });
    const [fired] = (await ltp(1480.5)).fired;
    const [order] = (await call('OrderBook', {})) as Record<string, string>[];
    expect(order).toMatchObject({
      norenordno: fired!.norenordno,
      prctyp: 'MKT',
      prc: '0',
      avgprc: '1480.5',
      status: 'COMPLETE',
    });
    const oco = (await call('PlaceOCOOrder', {
      ai_t: 'LMT_BOS_O',
      validity: 'GTT',
      tsym: 'TCS-EQ',
      exch: 'NSE',
      remarks: 'exit',
      oivariable: [
        { d: '4000', var_name: 'x' },
        { d: '3500', var_name: 'y' },
      ],
      place_order_params: wireOcoLeg(emu, { tsym: 'TCS-EQ', qty: '2', prc: '4000' }),
      place_order_params_leg2: wireOcoLeg(emu, {
        tsym: 'TCS-EQ',
        prctyp: 'SL-LMT',
        qty: '2',
        prc: '3490',
        trgprc: '3500',
      }),
    })) as { al_id: string };
    await ltp(3700, 'TCS-EQ');
    const [stop] = (await ltp(3499, 'TCS-EQ')).fired;
    expect(stop).toMatchObject({ al_id: oco.al_id, leg: 'y' });
    const book = (await call('OrderBook', {})) as Record<string, string>[];
    // Newest first.
    expect(book[0]).toMatchObject({
      norenordno: stop!.norenordno,
      tsym: 'TCS-EQ',
      trantype: 'S',
      qty: '2',
      prctyp: 'SL-LMT',
      prc: '3490',
      remarks: 'exit',
    });
  });

  it('the next fired orders end as queued: rejected with a reason, partly filled, left open; then filled again', async () => {
    expect(await nextOrder({ status: 'rejected', reason: 'RMS:Blocked for nse_cm ordinary' })).toEqual({
      status: 201,
      body: { queued: 1 },
    });
    expect((await nextOrder({ status: 'partial', fillQty: 2 })).body).toEqual({ queued: 2 });
    expect((await nextOrder({ status: 'open' })).body).toEqual({ queued: 3 });
    for (const d of ['1490', '1480', '1470', '1460']) await placeGtt({ d });
    const fired = [
      (await ltp(1485)).fired,
      (await ltp(1475)).fired,
      (await ltp(1465)).fired,
      (await ltp(1455)).fired,
    ].map((f) => f[0]!);
    expect(fired.map((f) => f.status)).toEqual(['REJECTED', 'OPEN', 'OPEN', 'COMPLETE']);
    const byNumber = new Map(((await call('OrderBook', {})) as Record<string, string>[]).map((o) => [o.norenordno, o]));
    expect(byNumber.get(fired[0]!.norenordno)).toMatchObject({
      status: 'REJECTED',
      rejreason: 'RMS:Blocked for nse_cm ordinary',
      fillshares: '0',
    });
    expect(byNumber.get(fired[0]!.norenordno)).not.toHaveProperty('avgprc');
    expect(byNumber.get(fired[1]!.norenordno)).toMatchObject({ status: 'OPEN', fillshares: '2', avgprc: '1475' });
    expect(byNumber.get(fired[2]!.norenordno)).toMatchObject({ status: 'OPEN', fillshares: '0' });
    expect(byNumber.get(fired[3]!.norenordno)).toMatchObject({ status: 'COMPLETE', fillshares: '5' });
    const rejected = (await call('SingleOrdHist', { norenordno: fired[0]!.norenordno })) as { status: string }[];
    expect(rejected.map((h) => h.status)).toEqual(['REJECTED', 'PENDING']);
  });

  it("the close of the day cancels what is still open, keeping the fill, in every account's book", async () => {
    await nextOrder({ status: 'partial', fillQty: 4 });
    await placeGtt({ qty: '10' });
    const [partial] = (await ltp(1489)).fired;
    expect(partial).toMatchObject({ status: 'OPEN' });
    // Another account's order left open; a filled one stays as it is.
    const other = await emu.control.createAccount({ uid: 'SBX777' });
    await nextOrder({ status: 'open' });
    await jdata(emu.url, 'PlaceGTTOrder', wireGtt({ tsym: 'TCS-EQ', d: '3500' }, other), other.token);
    const [open] = (await ltp(3499, 'TCS-EQ')).fired;
    await placeGtt({ tsym: 'SBIN-EQ', d: '800' });
    const [filled] = (await ltp(799, 'SBIN-EQ')).fired;

    expect(await emu.control.close()).toEqual({ cancelled: [partial!.norenordno, open!.norenordno] });
    const book = (await call('OrderBook', {})) as Record<string, string>[];
    expect(book.find((o) => o.norenordno === partial!.norenordno)).toMatchObject({
      status: 'CANCELED',
      qty: '10',
      fillshares: '4',
      avgprc: '1489',
      remarks: 'dip-buy',
      norentm: expect.stringMatching(TIME),
    });
    expect(book.find((o) => o.norenordno === filled!.norenordno)).toMatchObject({ status: 'COMPLETE' });
    const history = (await call('SingleOrdHist', { norenordno: partial!.norenordno })) as Record<string, string>[];
    expect(history.map((h) => [h.status, h.fillshares])).toEqual([
      ['CANCELED', '4'],
      ['OPEN', '4'],
      ['OPEN', '0'],
      ['PENDING', '0'],
    ]);
    const otherBook = (await jdata(emu.url, 'OrderBook', { uid: other.uid }, other.token)).body;
    expect(otherBook).toEqual([expect.objectContaining({ norenordno: open!.norenordno, status: 'CANCELED' })]);
    // Nothing is open any more.
    expect(await emu.control.close()).toEqual({ cancelled: [] });
  });

  it('the close of one order: only that one; an unknown or settled order is a 404', async () => {
    await nextOrder({ status: 'open' });
    await nextOrder({ status: 'open' });
    await placeGtt({ d: '1490' });
    await placeGtt({ d: '1480' });
    const [first] = (await ltp(1485)).fired;
    const [second] = (await ltp(1475)).fired;
    expect(await emu.control.close(second!.norenordno)).toEqual({ cancelled: [second!.norenordno] });
    const status = async (norenordno: string) =>
      ((await call('SingleOrdHist', { norenordno })) as { status: string }[])[0]!.status;
    expect([await status(first!.norenordno), await status(second!.norenordno)]).toEqual(['OPEN', 'CANCELED']);
    for (const norenordno of [second!.norenordno, '99999999999999']) {
      expect(await control(emu.url, 'POST', 'close', { norenordno })).toEqual({
        status: 404,
        body: { error: `no open order ${norenordno}` },
      });
    }
    expect((await control(emu.url, 'POST', 'close', { norenordno: 7 })).status).toBe(400);
  });

  it.each<[string, Record<string, unknown>]>([
    ['an unknown status', { status: 'lost' }],
    ['a partial fill without a quantity', { status: 'partial' }],
    ['a partial fill of zero', { status: 'partial', fillQty: 0 }],
  ])('%s is refused by the control surface', async (_label, body) => {
    expect((await nextOrder(body)).status).toBe(400);
  });

  it("SingleOrdHist of an unknown or another account's order is refused", async () => {
    expect(await call('SingleOrdHist', { norenordno: '99999999999999' })).toEqual({
      stat: 'Not_Ok',
      emsg: 'Invalid Input : Invalid Order Number',
    });
    expect(await call('SingleOrdHist', {})).toEqual({ stat: 'Not_Ok', emsg: 'Invalid Input : norenordno is Missing' });
  });
});

describe('quotes', () => {
  it('SearchScrip maps a symbol to its token; GetQuotes answers the last traded price by token', async () => {
    const search = (await call('SearchScrip', { exch: 'NSE', stext: 'M%26M-EQ' })) as {
      values: { tsym: string; token: string }[];
    };
    expect(search.values[0]).toMatchObject({ tsym: 'M&M-EQ', token: expect.stringMatching(/^\d+$/) });
    const token = search.values[0]!.token;
    expect(await call('GetQuotes', { exch: 'NSE', token })).toEqual({ stat: 'Not_Ok', emsg: 'no data' });
    await ltp(1555.25, 'M&M-EQ');
    expect(await call('GetQuotes', { exch: 'NSE', token })).toMatchObject({
      stat: 'Ok',
      exch: 'NSE',
      tsym: 'M&M-EQ',
      token,
      lp: '1555.25',
    });
  });
});
