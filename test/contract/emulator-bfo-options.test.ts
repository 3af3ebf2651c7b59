/**
 * SENSEX's options on BFO, over real HTTP on 127.0.0.1 (docs/reference/emulator.md, "Indices and options"): the BFO
 * master (`Strike` column, Symbol `BSXOPT`, the monthly expiries: the month's last Thursday, the current and next two;
 * a few SENSEX50 rows under `SX50OPT`, listed there only), orders and GTTs on SENSEX's options accepted with BSE's
 * lot, their price following BSE `SENSEX` (token 1). The clock is injected: Monday 7 December 2026, 09:30 in India
 * (December's last Thursday is the 31st).
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import { instrumentToken } from '../../emulator/state/formats.js';
import { modelPriceOf } from '../../emulator/state/option-model.js';
import { wireGtt } from '../support/wire-order.js';
import { control, jdata } from './jdata-client.js';

const START = Date.parse('2026-12-07T04:00:00Z');
const now = () => new Date(START);
const started: RunningEmulator[] = [];
afterAll(async () => {
  for (const emulator of started) await emulator.close();
});
let emu: RunningEmulator;
beforeEach(async () => {
  emu = await startEmulator({ port: 0, now, prices: 'start', seed: 11 });
  started.push(emu);
});

const CALL = 'SENSEX26DEC82000CE';
const PUT = 'SENSEX26DEC82000PE';
type Reply = { stat: string; lp?: string; emsg?: string; al_id?: string } & Record<string, unknown>;
const ask = async (op: string, fields: Record<string, unknown>) =>
  (await jdata(emu.url, op, { uid: emu.uid, ...fields }, emu.token)).body as Reply;
const lp = async (tsym: string) =>
  Number((await ask('GetQuotes', { exch: 'BFO', token: instrumentToken('BFO', tsym) })).lp);
const setSensex = async (ltp: number) =>
  (await control(emu.url, 'POST', 'ltp', { exch: 'BSE', tsym: 'SENSEX', ltp })).body as { fired: unknown[] };

describe('the BFO master', () => {
  it("lists SENSEX's monthly options under BSXOPT with a Strike column, and SENSEX50's apart under SX50OPT", async () => {
    const rows = (await (await fetch(`${emu.url}/BFO_symbols.txt`)).text()).split('\r\n');
    expect(rows[0]).toBe('Exchange,Token,LotSize,Symbol,TradingSymbol,Expiry,Instrument,OptionType,Strike,TickSize,');
    expect(rows).toContain(`BFO,${instrumentToken('BFO', CALL)},20,BSXOPT,${CALL},31-DEC-2026,OPTIDX,CE,82000,0.05,`);
    const sensex = rows.filter((r) => r.split(',')[3] === 'BSXOPT');
    expect(new Set(sensex.map((r) => r.split(',')[5]))).toEqual(new Set(['31-DEC-2026', '28-JAN-2027', '25-FEB-2027']));
    expect(sensex).toHaveLength(3 * 81 * 2); // 78000 to 86000 by 100, CE and PE
    const sx50 = rows.filter((r) => r.split(',')[3] === 'SX50OPT');
    expect(sx50.length).toBeGreaterThan(0);
    for (const r of sx50) expect(r.split(',')[4]).toMatch(/^SENSEX50/);
    const zipped = await fetch(`${emu.url}/BFO_symbols.txt.zip`);
    expect([zipped.status, zipped.headers.get('content-type')]).toEqual([200, 'application/zip']);
  });

  it("takes orders on SENSEX's listed options (lot 20); refuses a weekly-looking name, a SENSEX50 one, an off-step strike", async () => {
    const order = { actid: emu.actid, exch: 'BFO', qty: '20', prc: '500', prd: 'M', trantype: 'B', prctyp: 'LMT' };
    expect(await ask('PlaceOrder', { ...order, tsym: CALL, ret: 'DAY' })).toMatchObject({ stat: 'Ok' });
    for (const tsym of ['SENSEX2612382000CE', 'SENSEX5026DEC25000CE', 'SENSEX26DEC82050CE'])
      expect(await ask('PlaceOrder', { ...order, tsym, ret: 'DAY' }), tsym).toEqual({
        stat: 'Not_Ok',
        emsg: 'Invalid Input : Invalid Trading Symbol',
      });
    expect(await ask('SearchScrip', { exch: 'BFO', stext: PUT })).toMatchObject({ stat: 'Ok' });
  });
});

describe("SENSEX's option prices follow BSE SENSEX", () => {
  it('a move of SENSEX reprices its call and put at the model and fires a GTT on the call', async () => {
    const [call, put] = [await lp(CALL), await lp(PUT)];
    expect(call).toBe(modelPriceOf('BFO', CALL, 82000, now()));
    expect(call).toBe(put); // at the money
    const gtt = wireGtt({ exch: 'BFO', tsym: CALL, ai_t: 'LTP_A_O', d: String(call + 300), prc: '900' }, emu);
    const placed = await ask('PlaceGTTOrder', { ...gtt, trantype: 'S', qty: '20', prd: 'M' });
    expect(placed).toMatchObject({ stat: 'OI created' });
    const moved = await setSensex(82600);
    expect(moved.fired).toMatchObject([{ al_id: placed.al_id }]);
    expect(await lp(CALL)).toBe(modelPriceOf('BFO', CALL, 82600, now()));
    expect(await lp(CALL)).toBeGreaterThan(call + 300);
    expect(await lp(PUT)).toBeLessThan(put);
  });
});
