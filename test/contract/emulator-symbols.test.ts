/**
 * The emulator's symbol list over real HTTP on 127.0.0.1 (emulator/state/symbols.ts): listed equities and
 * current-expiry NFO index contracts are taken, anything else is refused with the broker's `Invalid Input :` reply
 * and nothing is stored; the `acceptAnySymbol` switch (and `--any-symbol`) takes any symbol, and a reset returns to
 * the list. The exchange's rules: tick and lot (SearchScrip), today's band around the previous close (GetQuotes
 * `uc`/`lc`) and index derivatives' freeze quantities (GetSecurityInfo `frzqty`), and a fired order breaking any
 * of them rejected in the order book.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import { indexContract, LISTED_EQUITIES, MAX_EXPIRY_DAYS } from '../../emulator/state/symbols.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { wireGtt, wireOcoLeg } from '../support/wire-order.js';

let emu: RunningEmulator;
let control: EmulatorControl;

const REFUSED = { stat: 'Not_Ok', emsg: 'Invalid Input : Invalid Trading Symbol' };
const DAY = 86_400_000;
const order = (over: Record<string, string> = {}) =>
  wireGtt({ tsym: 'INFY-EQ', qty: '1', prc: '1500', d: '1490', ...over }, emu);
const call = async (op: string, jData: unknown) => {
  const res = await fetch(`${emu.url}/ClientAPI/${op}`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain', Authorization: `Bearer ${emu.token}` },
    body: `jData=${JSON.stringify(jData)}`,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const pendingSymbols = async () => {
  const body = (await call('GetPendingGTTOrder', { uid: emu.uid })).body;
  return Array.isArray(body) ? (body as { tsym: string }[]).map((o) => o.tsym) : [];
};

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  control = emulatorControl(emu.url);
});
afterAll(async () => {
  await emu?.close();
});
beforeEach(async () => {
  await control.reset();
});

describe('the shipped symbol list', () => {
  it('takes every listed NSE and BSE equity, sent URL-encoded as clients send them', async () => {
    for (const [exch, symbols] of Object.entries(LISTED_EQUITIES)) {
      for (const tsym of symbols)
        expect(
          (await call('PlaceGTTOrder', order({ exch, tsym: encodeURIComponent(tsym) }))).body.stat,
          `${exch}:${tsym}`,
        ).toBe('OI created');
    }
    expect(await pendingSymbols()).toHaveLength(LISTED_EQUITIES.NSE.length + LISTED_EQUITIES.BSE.length);
    expect(LISTED_EQUITIES.NSE).toEqual(
      expect.arrayContaining([
        'RELIANCE-EQ',
        'INFY-EQ',
        'TCS-EQ',
        'SBIN-EQ',
        'M&M-EQ',
        'L&TFH-EQ',
        'WIPRO-EQ',
        'HDFCBANK-EQ',
      ]),
    );
  });

  it('refuses an unknown symbol with the broker reply, and stores nothing', async () => {
    for (const [exch, tsym] of [
      ['NSE', 'NOSUCH-EQ'],
      ['NSE', 'INFY'],
      ['BSE', 'INFY-EQ'],
      ['NSE', 'infy-eq'],
      ['MCX', 'CRUDEOIL'],
    ] as const) {
      expect((await call('PlaceGTTOrder', order({ exch, tsym }))).body, `${exch}:${tsym}`).toEqual(REFUSED);
    }
    expect(await pendingSymbols()).toEqual([]);
    await control.switches({ invalidInputAs400: true });
    expect(await call('PlaceGTTOrder', order({ tsym: 'NOSUCH-EQ' }))).toEqual({ status: 400, body: REFUSED });
  });

  it('a modify to an unknown symbol is refused and leaves the order as it was; so is an OCO', async () => {
    const placed = (await call('PlaceGTTOrder', order())).body.al_id as string;
    expect((await call('ModifyGTTOrder', { ...order({ tsym: 'NOSUCH-EQ' }), al_id: placed })).body).toEqual(REFUSED);
    expect(await pendingSymbols()).toEqual(['INFY-EQ']);
    const leg = (prc: string) => wireOcoLeg(emu, { tsym: 'NOSUCH-EQ', qty: '1', prc });
    const oco = { uid: emu.uid, actid: emu.actid, exch: 'NSE', tsym: 'NOSUCH-EQ', ai_t: 'LMT_BOS_O', validity: 'GTT', remarks: '',
      oivariable: [{ var_name: 'x', d: '1600' }, { var_name: 'y', d: '1400' }], place_order_params: leg('1600'), place_order_params_leg2: leg('1390') }; // prettier-ignore
    expect((await call('PlaceOCOOrder', oco)).body).toEqual(REFUSED);
  });

  it('NFO index futures and options of a current expiry, in the family naming; expired, far or impossible dates refused', async () => {
    const soon = new Date(Date.now() + 7 * DAY);
    for (const tsym of [
      indexContract('NIFTY', soon, 'F'),
      indexContract('BANKNIFTY', soon, 'C52000'),
      indexContract('NIFTY', soon, 'P24000'),
    ]) {
      expect((await call('PlaceGTTOrder', order({ exch: 'NFO', tsym, prd: 'M' }))).body.stat, tsym).toBe('OI created');
    }
    const refused = [
      indexContract('NIFTY', new Date(Date.now() - 2 * DAY), 'F'),
      indexContract('NIFTY', new Date(Date.now() + (MAX_EXPIRY_DAYS + 5) * DAY), 'F'),
      `NIFTY31FEB${String((new Date().getUTCFullYear() % 100) + 1)}F`,
      'NIFTY 25DEC 24000 CE',
      'INFY-EQ',
      indexContract('NIFTY', soon, 'F').replace('NIFTY', 'NIFTYX'),
    ];
    for (const tsym of refused)
      expect((await call('PlaceGTTOrder', order({ exch: 'NFO', tsym, prd: 'M' }))).body, tsym).toEqual(REFUSED);
  });

  it('SearchScrip answers listed symbols only', async () => {
    const found = (await call('SearchScrip', { uid: emu.uid, exch: 'NSE', stext: 'INFY' })).body as {
      values: { tsym: string }[];
    };
    expect(found.values.map((v) => v.tsym)).toEqual(['INFY-EQ']);
    expect((await call('SearchScrip', { uid: emu.uid, exch: 'NSE', stext: 'NOSUCH' })).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'no data',
    });
  });
});

describe("the exchange's rules (tick, lot)", () => {
  it('SearchScrip answers real tick and lot sizes: equities 0.05 and 1, index derivatives their exchange lot', async () => {
    const search = async (exch: string, stext: string) =>
      ((await call('SearchScrip', { uid: emu.uid, exch, stext })).body as { values: Record<string, string>[] })
        .values[0]!;
    expect(await search('NSE', 'RELIANCE')).toMatchObject({ ti: '0.05', ls: '1', pp: '2' });
    const soon = new Date(Date.now() + 7 * DAY);
    expect(await search('NFO', indexContract('NIFTY', soon, 'F'))).toMatchObject({ ti: '0.05', ls: '65' });
    expect(await search('NFO', indexContract('BANKNIFTY', soon, 'C52000'))).toMatchObject({ ls: '30' });
  });

  it('a fired order off the tick or off the lot is rejected by the exchange, placed directly at the emulator', async () => {
    expect((await call('PlaceGTTOrder', order({ prc: '1500.03', d: '1490' }))).body.stat).toBe('OI created');
    const nifty = indexContract('NIFTY', new Date(Date.now() + 7 * DAY), 'F');
    const nfo = wireGtt({ exch: 'NFO', tsym: nifty, prd: 'M', qty: '50', prc: '24000', d: '23990' }, emu);
    expect((await call('PlaceGTTOrder', nfo)).body.stat).toBe('OI created');
    await control.ltp('NSE', 'INFY-EQ', 1489);
    await control.ltp('NFO', nifty, 23980);
    const book = (await call('OrderBook', { uid: emu.uid })).body as unknown as Record<string, string>[];
    const reasons = Object.fromEntries(book.map((o) => [o.tsym, o]));
    expect(reasons['INFY-EQ']).toMatchObject({
      status: 'REJECTED',
      rejreason: 'Price 1500.03 is not a multiple of tick size 0.05',
    });
    expect(reasons[nifty]).toMatchObject({
      status: 'REJECTED',
      rejreason: 'Quantity 50 is not a multiple of lot size 65',
    });
  });
});

describe("the market's day-to-day rules (price band, freeze quantity)", () => {
  const token = async (exch: string, tsym: string) =>
    ((await call('SearchScrip', { uid: emu.uid, exch, stext: tsym })).body as { values: Record<string, string>[] })
      .values[0]!.token!;

  it('GetQuotes answers uc/lc around the previous close: ±10% for a stock, ±20% for an ETF; none without a close', async () => {
    await control.ltp('NSE', 'INFY-EQ', 1510, 1500);
    const quote = (await call('GetQuotes', { uid: emu.uid, exch: 'NSE', token: await token('NSE', 'INFY-EQ') })).body;
    expect(quote).toMatchObject({ stat: 'Ok', lp: '1510', lc: '1350.00', uc: '1650.00' });
    await control.ltp('NSE', 'GOLDBEES-EQ', 101, 100.03);
    const etf = (await call('GetQuotes', { uid: emu.uid, exch: 'NSE', token: await token('NSE', 'GOLDBEES-EQ') })).body;
    expect(etf).toMatchObject({ lc: '80.05', uc: '120.00' });
    await control.ltp('NSE', 'TCS-EQ', 1500);
    const none = (await call('GetQuotes', { uid: emu.uid, exch: 'NSE', token: await token('NSE', 'TCS-EQ') })).body;
    expect(none).not.toHaveProperty('uc');
    expect(none).not.toHaveProperty('lc');
  });

  it("GetSecurityInfo answers an index derivative's freeze quantity (frzqty); an equity has none", async () => {
    const soon = new Date(Date.now() + 7 * DAY);
    const info = async (exch: string, tsym: string) =>
      (await call('GetSecurityInfo', { uid: emu.uid, exch, token: await token(exch, tsym) })).body;
    expect(await info('NFO', indexContract('NIFTY', soon, 'F'))).toMatchObject({ stat: 'Ok', frzqty: '1800' });
    expect(await info('NFO', indexContract('BANKNIFTY', soon, 'C52000'))).toMatchObject({ frzqty: '600' });
    expect(await info('NFO', indexContract('MIDCPNIFTY', soon, 'F'))).toMatchObject({ frzqty: '2800' });
    const equity = await info('NSE', 'INFY-EQ');
    expect(equity).toMatchObject({ stat: 'Ok', tsym: 'INFY-EQ', ls: '1' });
    expect(equity).not.toHaveProperty('frzqty');
    expect((await call('GetSecurityInfo', { uid: emu.uid, exch: 'NSE', token: '1' })).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'no data',
    });
  });

  it('a fired order outside the band of that moment, or above the freeze quantity, is rejected by the exchange', async () => {
    expect((await call('PlaceGTTOrder', order({ prc: '1500', d: '1490' }))).body.stat).toBe('OI created');
    const bank = indexContract('BANKNIFTY', new Date(Date.now() + 7 * DAY), 'F');
    const nfo = wireGtt({ exch: 'NFO', tsym: bank, prd: 'M', qty: '630', prc: '52000', d: '51990' }, emu);
    expect((await call('PlaceGTTOrder', nfo)).body.stat).toBe('OI created');
    // INFY's previous close 1300: today's band 1170-1430, so a buy limit of 1500 cannot be sent.
    await control.ltp('NSE', 'INFY-EQ', 1289, 1300);
    await control.ltp('NFO', bank, 51980);
    const book = (await call('OrderBook', { uid: emu.uid })).body as unknown as Record<string, string>[];
    const reasons = Object.fromEntries(book.map((o) => [o.tsym, o]));
    expect(reasons['INFY-EQ']).toMatchObject({
      status: 'REJECTED',
      rejreason: "Order price 1500 is outside the day's price band 1170.00 - 1430.00 of INFY-EQ",
    });
    expect(reasons[bank]).toMatchObject({
      status: 'REJECTED',
      rejreason: `Order quantity 630 exceeds the freeze quantity 600 of ${bank}`,
    });
  });
});

describe('accepting any symbol', () => {
  it('the switch takes any symbol until a reset returns to the list', async () => {
    await control.switches({ acceptAnySymbol: true });
    expect((await call('PlaceGTTOrder', order({ tsym: 'NOSUCH-EQ' }))).body.stat).toBe('OI created');
    await control.reset();
    expect((await call('PlaceGTTOrder', order({ tsym: 'NOSUCH-EQ' }))).body).toEqual(REFUSED);
  });

  it('an emulator started with acceptAnySymbol takes any symbol from the start', async () => {
    const open = await startEmulator({ port: 0, acceptAnySymbol: true });
    try {
      const res = await fetch(`${open.url}/ClientAPI/PlaceGTTOrder`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain', Authorization: `Bearer ${open.token}` },
        body: `jData=${JSON.stringify({ ...order({ tsym: 'NOSUCH-EQ' }), uid: open.uid, actid: open.actid })}`,
      });
      expect(((await res.json()) as { stat: string }).stat).toBe('OI created');
    } finally {
      await open.close();
    }
  });
});
