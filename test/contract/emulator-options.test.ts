/**
 * Options by the underlying, over real HTTP on 127.0.0.1 (docs/reference/emulator.md, "Indices and options"): the
 * indices are instruments (a quote by their family token, SearchScrip, the NSE master's INDEX rows), never ordered;
 * the NFO master lists each index's options at its listed strikes; a strike off the step or outside the window is
 * no symbol; an option's price follows its index (a move by hand, the walk) and fires the GTTs it meets; its time
 * value decays toward expiry. The clock is injected: Monday 7 December 2026, 09:30 in India (NIFTY's nearest weekly
 * expiry is Tuesday 8 December).
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import { instrumentToken } from '../../emulator/state/formats.js';
import { modelPriceOf } from '../../emulator/state/option-model.js';
import { wireGtt } from '../support/wire-order.js';
import { control, jdata } from './jdata-client.js';

const START = Date.parse('2026-12-07T04:00:00Z');
let clock = START;
const now = () => new Date(clock);
const started: RunningEmulator[] = [];
afterAll(async () => {
  for (const emulator of started) await emulator.close();
});
let emu: RunningEmulator;
beforeEach(async () => {
  clock = START;
  emu = await startEmulator({ port: 0, now, prices: 'start', seed: 11 });
  started.push(emu);
});

const CALL = 'NIFTY08DEC26C25000';
const PUT = 'NIFTY08DEC26P25000';
type Reply = { stat: string; lp?: string; tsym?: string; token?: string; uc?: string; emsg?: string } & Record<
  string,
  unknown
>;
const ask = async (op: string, fields: Record<string, unknown>) =>
  (await jdata(emu.url, op, { uid: emu.uid, ...fields }, emu.token)).body as Reply;
const quote = (exch: string, tsym: string) => ask('GetQuotes', { exch, token: instrumentToken(exch, tsym) });
const lp = async (exch: string, tsym: string) => Number((await quote(exch, tsym)).lp);
const setNifty = async (ltp: number) =>
  (await control(emu.url, 'POST', 'ltp', { exch: 'NSE', tsym: 'Nifty 50', ltp })).body as { fired: unknown[] };
const master = async (exch: string) => (await (await fetch(`${emu.url}/${exch}_symbols.txt`)).text()).split('\r\n');

describe('the indices', () => {
  it('answer a quote by their family token at their start level, with no price band', async () => {
    const nifty = await ask('GetQuotes', { exch: 'NSE', token: '26000' });
    expect(nifty).toMatchObject({ stat: 'Ok', exch: 'NSE', tsym: 'Nifty 50', token: '26000', lp: '25000' });
    expect(nifty.uc).toBeUndefined();
    expect(await ask('GetQuotes', { exch: 'BSE', token: '1' })).toMatchObject({ tsym: 'SENSEX', lp: '82000' });
    expect(await ask('GetQuotes', { exch: 'NSE', token: '26074' })).toMatchObject({ tsym: 'NIFTY MID SELECT' });
  });

  it('SearchScrip finds them; the NSE master lists them as INDEX rows', async () => {
    expect(await ask('SearchScrip', { exch: 'NSE', stext: 'nifty 50' })).toMatchObject({
      values: [{ exch: 'NSE', tsym: 'Nifty 50', token: '26000' }],
    });
    expect(await master('NSE')).toContain('NSE,26009,1,BANKNIFTY,Nifty Bank,INDEX,0.05,');
  });

  it('are never ordered: PlaceOrder and PlaceGTTOrder refused', async () => {
    const refused = { stat: 'Not_Ok', emsg: 'Invalid Input : Index is not tradable: order its futures or options' };
    const order = { actid: emu.actid, exch: 'NSE', tsym: 'Nifty 50', qty: '1', prc: '25000', prd: 'C' };
    expect(await ask('PlaceOrder', { ...order, trantype: 'B', prctyp: 'LMT', ret: 'DAY' })).toMatchObject(refused);
    expect(
      await ask('PlaceGTTOrder', wireGtt({ exch: 'NSE', tsym: 'Nifty 50', d: '24900', prc: '24900' }, emu)),
    ).toMatchObject(refused);
  });
});

describe('the NFO master and listed strikes', () => {
  it("lists each index's options: OPTIDX, CE and PE, strike, expiry, lot; NIFTY weekly, the others monthly", async () => {
    const rows = await master('NFO');
    expect(rows[0]).toBe(
      'Exchange,Token,LotSize,Symbol,TradingSymbol,Expiry,Instrument,OptionType,StrikePrice,TickSize,',
    );
    expect(rows).toContain(`NFO,${instrumentToken('NFO', CALL)},65,NIFTY,${CALL},08-DEC-2026,OPTIDX,CE,25000,0.05,`);
    expect(rows).toContain(`NFO,${instrumentToken('NFO', PUT)},65,NIFTY,${PUT},08-DEC-2026,OPTIDX,PE,25000,0.05,`);
    const of = (prefix: string) => rows.filter((r) => r.includes(`,${prefix}`) && r.includes(',OPTIDX,'));
    expect(of('NIFTY08DEC26C')).toHaveLength(81); // 23000 to 27000 by 50
    expect(of('MIDCPNIFTY29DEC26P')).toHaveLength(81); // 12000 to 14000 by 25
    expect(of('BANKNIFTY08DEC26')).toHaveLength(0); // monthly only
    expect(of('BANKNIFTY29DEC26C').map((r) => r.split(',')[8])).toContain('52000');
  });

  it('a strike off the step or outside the window is no symbol: not found, orders refused', async () => {
    for (const tsym of ['NIFTY08DEC26C25010', 'NIFTY08DEC26P27050', 'BANKNIFTY29DEC26C56050']) {
      expect(await ask('SearchScrip', { exch: 'NFO', stext: tsym }), tsym).toMatchObject({ stat: 'Not_Ok' });
      const order = { actid: emu.actid, exch: 'NFO', tsym, qty: '65', prc: '10', prd: 'M', trantype: 'B' };
      expect(await ask('PlaceOrder', { ...order, prctyp: 'LMT', ret: 'DAY' }), tsym).toEqual({
        stat: 'Not_Ok',
        emsg: 'Invalid Input : Invalid Trading Symbol',
      });
    }
    expect(await ask('SearchScrip', { exch: 'NFO', stext: 'NIFTY08DEC26C25050' })).toMatchObject({ stat: 'Ok' });
  });
});

describe('option prices follow the index', () => {
  it('moving NIFTY by hand moves its call up and its put down, and fires a GTT on the call', async () => {
    const [call, put] = [await lp('NFO', CALL), await lp('NFO', PUT)];
    expect(call).toBe(put); // at the money
    const gtt = wireGtt({ exch: 'NFO', tsym: CALL, ai_t: 'LTP_A_O', d: String(call + 100), prc: '300' }, emu);
    const placed = await ask('PlaceGTTOrder', { ...gtt, trantype: 'S', qty: '65', prd: 'M' });
    expect(placed).toMatchObject({ stat: 'OI created' });
    const moved = await setNifty(25300);
    expect(moved.fired).toMatchObject([{ al_id: placed.al_id }]);
    expect(await lp('NFO', CALL)).toBeGreaterThan(call + 200);
    expect(await lp('NFO', PUT)).toBeLessThan(put);
    expect(await lp('NFO', 'NIFTY29DEC26F')).toBe(25300);
  });

  it('a price set by hand on an option holds until its index next moves', async () => {
    await control(emu.url, 'POST', 'ltp', { exch: 'NFO', tsym: CALL, ltp: 500 });
    expect(await lp('NFO', CALL)).toBe(500);
    await setNifty(24990);
    expect(await lp('NFO', CALL)).toBe(modelPriceOf('NFO', CALL, 24990, now()));
    expect(await lp('NFO', CALL)).toBeLessThan(100);
  });

  it('the walk moves an index and its priced options with it', async () => {
    const before = await lp('NFO', CALL);
    let level = 25000;
    for (let i = 0; i < 50 && level === 25000; i++) {
      await control(emu.url, 'POST', 'walk', { steps: 1 });
      level = await lp('NSE', 'Nifty 50');
    }
    expect(level).toBeGreaterThan(0);
    expect(level).not.toBe(25000);
    const after = await lp('NFO', CALL);
    expect(after).toBe(modelPriceOf('NFO', CALL, level, now()));
    expect(Math.sign(after - before)).toBe(Math.sign(level - 25000));
  });

  it('time value decays toward expiry: a nearer expiry is worth less, and a day later the same option too', async () => {
    const [near, next] = [await lp('NFO', CALL), await lp('NFO', 'NIFTY15DEC26C25000')];
    expect(near).toBeLessThan(next);
    clock += 86_400_000; // Tuesday 09:30: six hours to the close of expiry
    await setNifty(25000);
    const expiryDay = await lp('NFO', CALL);
    expect(expiryDay).toBeLessThan(near);
    expect(expiryDay).toBeGreaterThan(0);
    clock = Date.parse('2026-12-08T10:00:00Z'); // 15:30 in India: expired, intrinsic only (at least one tick)
    await setNifty(24950);
    expect(await lp('NFO', CALL)).toBe(0.05);
    expect(await lp('NFO', PUT)).toBe(50);
  });
});
