/**
 * The family's other alert types at the emulator, over real HTTP on 127.0.0.1 (docs/reference/emulator.md, "Alert
 * types"): each fires when the figure it watches reaches `d` (A: at or above, B: at or below), the figures set
 * beside the price (`POST /_emulator/ltp` with `close`, `atp`, `oi`, `toi`, `volume`); OI on an equity is refused.
 * The 52-week types fire on the market's 52-week range, not on `d`: emulator-week52.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { type EmulatorFixture, useEmulator } from '../support/emulator-fixture.js';
import { wireGtt } from '../support/wire-order.js';
import { control, jdata } from './jdata-client.js';

const fixture = useEmulator();
let emu: EmulatorFixture;
beforeEach(() => {
  emu = fixture();
});

const FUTURE = { exch: 'NFO', tsym: 'NIFTY29DEC26F', qty: '65', prc: '25100' };
const EQUITY = { exch: 'NSE', tsym: 'INFY-EQ', qty: '5', prc: '1500' };

const call = async (op: string, fields: Record<string, unknown>) =>
  (await jdata(emu.url, op, { uid: emu.uid, ...fields }, emu.token)).body as Record<string, unknown>;
const place = async (on: typeof FUTURE, ai_t: string, d: string) =>
  call('PlaceGTTOrder', wireGtt({ ...on, trantype: 'B', ai_t, d }, emu));
const tokenOf = async (on: typeof FUTURE) => {
  const found = (await call('SearchScrip', { exch: on.exch, stext: on.tsym })) as {
    values: { tsym: string; token: string }[];
  };
  return found.values.find((v) => v.tsym === on.tsym)!.token;
};
const market = async (on: typeof FUTURE, figures: Record<string, number>) =>
  (
    (await control(emu.url, 'POST', 'ltp', { exch: on.exch, tsym: on.tsym, ...figures })).body as {
      triggered: string[];
    }
  ).triggered;

describe('the emulator fires the other alert types on its market figures', () => {
  it.each([
    // type, instrument, d, figures that do not reach it, figures that do
    ['CH_PER_A_O', EQUITY, '2', { close: 1500, ltp: 1520 }, { ltp: 1530 }],
    ['CH_PER_B_O', EQUITY, '-1.5', { close: 1500, ltp: 1490 }, { ltp: 1477.5 }],
    ['ATP_A_O', EQUITY, '1505', { ltp: 1500, atp: 1504.95 }, { ltp: 1500, atp: 1505 }],
    ['ATP_B_O', EQUITY, '1495', { ltp: 1500, atp: 1496 }, { ltp: 1500, atp: 1494 }],
    ['OI_A_O', FUTURE, '150000', { ltp: 25000, oi: 149935 }, { ltp: 25000, oi: 150020 }],
    ['OI_B_O', FUTURE, '100000', { ltp: 25000, oi: 120000 }, { ltp: 25000, oi: 100000 }],
    ['TOI_A_O', FUTURE, '9000000', { ltp: 25000, toi: 8000000 }, { ltp: 25000, toi: 9000000 }],
    ['TOI_B_O', FUTURE, '5000000', { ltp: 25000, toi: 6000000 }, { ltp: 25000, toi: 4000000 }],
    ['VOLUME_A_O', EQUITY, '250000', { ltp: 1500, volume: 100000 }, { ltp: 1500, volume: 250001 }],
  ])('%s at %s fires only when its figure reaches d', async (ai_t, on, d, below, reached) => {
    await market(on, below);
    const placed = await place(on, ai_t, d);
    expect(placed).toMatchObject({ stat: 'OI created' });
    expect(await market(on, below)).toEqual([]);
    expect(await market(on, reached)).toEqual([placed.al_id]);
  });

  it('a figure the market does not hold for the symbol never fires its type', async () => {
    const placed = await place(FUTURE, 'OI_A_O', '1');
    expect(placed).toMatchObject({ stat: 'OI created' });
    expect(await market(FUTURE, { ltp: 25010 })).toEqual([]);
  });

  it('refuses open interest on an equity and a count that is not whole, in the Invalid Input form', async () => {
    expect(await place(EQUITY, 'OI_A_O', '1000')).toEqual({
      stat: 'Not_Ok',
      emsg: 'Invalid Input : OI_A_O is not valid for NSE: no open interest on an equity',
    });
    expect(await place(FUTURE, 'VOLUME_A_O', '10.5')).toEqual({
      stat: 'Not_Ok',
      emsg: 'Invalid Input : d must be a positive whole number for VOLUME_A_O',
    });
  });

  it('refuses a figure that is not a non-negative number at the control surface', async () => {
    const reply = await control(emu.url, 'POST', 'ltp', { exch: 'NFO', tsym: 'NIFTY29DEC26F', ltp: 25000, oi: 1.5 });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: 'oi, when given, is a non-negative whole number' });
  });

  it('GetEnabledGTTs names every type it fires, the ones beyond LTP among them', async () => {
    const enabled = (await call('GetEnabledGTTs', {})) as { ai_ts: { ai_t: string }[] };
    const named = enabled.ai_ts.map((a) => a.ai_t);
    for (const ai_t of ['CH_PER_B_O', 'ATP_A_O', 'OI_B_O', 'TOI_A_O', 'VOLUME_A_O', 'LTP_A_52HIGH', 'LTP_B_52LOW'])
      expect(named).toContain(ai_t);
    expect(named).not.toContain('VOLUME_B_O');
  });

  it('GetQuotes answers the figures set beside the price as ap, oi, toi and v, and none it was not given', async () => {
    await market(FUTURE, { ltp: 25000, atp: 24990.5, oi: 150020, toi: 9000000, volume: 321000 });
    const quoted = await call('GetQuotes', { exch: FUTURE.exch, token: await tokenOf(FUTURE) });
    expect(quoted).toMatchObject({ stat: 'Ok', lp: '25000', ap: '24990.5', oi: '150020', toi: '9000000', v: '321000' });
    await market(EQUITY, { ltp: 1500 });
    const bare = await call('GetQuotes', { exch: EQUITY.exch, token: await tokenOf(EQUITY) });
    expect(bare).toMatchObject({ stat: 'Ok', lp: '1500' });
    for (const name of ['ap', 'oi', 'toi', 'v']) expect(bare).not.toHaveProperty(name);
  });
});
