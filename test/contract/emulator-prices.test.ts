/**
 * The emulator's market over real HTTP on 127.0.0.1 (docs/reference/emulator.md, "The market"): with `prices: 'start'` every
 * shipped symbol has a last price and a day's band from the first request; the seeded walk moves every priced symbol
 * on the tick and inside its band, the same under the same seed; a price can be cleared again ("no data"); the day's
 * moves answer TPSeries as one-minute bars, newest first. The clock is injected: no wall-clock asserts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import { instrumentToken } from '../../emulator/state/formats.js';
import { LISTED_EQUITIES } from '../../emulator/state/symbols.js';
import { wireGtt } from '../support/wire-order.js';
import { control, jdata } from './jdata-client.js';

const START = Date.parse('2026-12-07T04:00:00Z'); // 09:30 in India
let clock = START;
const now = () => new Date(clock);
const started: RunningEmulator[] = [];
const start = async (options: Parameters<typeof startEmulator>[0]) => {
  const emulator = await startEmulator({ port: 0, now, ...options });
  started.push(emulator);
  return emulator;
};
afterAll(async () => {
  for (const emulator of started) await emulator.close();
});

type Quote = { stat: string; lp?: string; uc?: string; lc?: string; tsym?: string; emsg?: string };
const quote = async (emu: RunningEmulator, tsym: string, exch = 'NSE') =>
  (await jdata(emu.url, 'GetQuotes', { uid: emu.uid, exch, token: instrumentToken(exch, tsym) }, emu.token))
    .body as Quote;
const walk = async (emu: RunningEmulator, steps = 1) =>
  (await control(emu.url, 'POST', 'walk', { steps })).body as { steps: number; fired: unknown[]; filled: unknown[] };
const onTick = (price: string) => Math.round(Number(price) * 100) % 5 === 0;

describe('prices from the start', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    clock = START;
    emu = await start({ prices: 'start' });
  });

  it('every shipped equity answers a quote with a last price and a band around it, on the tick', async () => {
    for (const exch of ['NSE', 'BSE'] as const) {
      for (const tsym of LISTED_EQUITIES[exch]) {
        const q = await quote(emu, tsym, exch);
        expect(q, `${exch}:${tsym}`).toMatchObject({ stat: 'Ok', tsym });
        expect(Number(q.lc)).toBeLessThan(Number(q.lp));
        expect(Number(q.uc)).toBeGreaterThan(Number(q.lp));
        expect(onTick(q.lp!) && onTick(q.lc!) && onTick(q.uc!), `${tsym} ${q.lp}`).toBe(true);
      }
    }
    expect(await quote(emu, 'M&M-EQ')).toMatchObject({ lp: '1500', lc: '1350.00', uc: '1650.00' });
  });

  it('an index contract is priced when named, a future at its index level', async () => {
    const search = await jdata(
      emu.url,
      'SearchScrip',
      { uid: emu.uid, exch: 'NFO', stext: 'NIFTY29DEC26F' },
      emu.token,
    );
    expect(search.body).toMatchObject({ stat: 'Ok' });
    expect(await quote(emu, 'NIFTY29DEC26F', 'NFO')).toMatchObject({ stat: 'Ok', lp: '25000', lc: '22500.00' });
  });

  it('a price can be cleared (a market that has not opened the symbol): "no data" again; a reset opens it again', async () => {
    expect((await control(emu.url, 'POST', 'ltp', { exch: 'NSE', tsym: 'SBIN-EQ', clear: true })).body).toEqual({
      cleared: true,
    });
    expect(await quote(emu, 'SBIN-EQ')).toEqual({ stat: 'Not_Ok', emsg: 'no data' });
    expect((await control(emu.url, 'POST', 'ltp', { exch: 'NSE', tsym: 'SBIN-EQ', clear: 'yes' })).status).toBe(400);
    await control(emu.url, 'POST', 'reset', {});
    expect(await quote(emu, 'SBIN-EQ')).toMatchObject({ stat: 'Ok', lp: '800' });
  });

  it('a price set by hand far outside the start band starts a new day there; inside it keeps the band', async () => {
    await control(emu.url, 'POST', 'ltp', { exch: 'NSE', tsym: 'WIPRO-EQ', ltp: 1462 });
    expect(await quote(emu, 'WIPRO-EQ')).toMatchObject({ lp: '1462', lc: '1305.00', uc: '1595.00' });
    await control(emu.url, 'POST', 'ltp', { exch: 'NSE', tsym: 'WIPRO-EQ', ltp: 260 });
    expect(await quote(emu, 'WIPRO-EQ')).toMatchObject({ lp: '260', lc: '234.00', uc: '286.00' });
  });
});

describe('the seeded walk', () => {
  const pricesAfter = async (seed: number, steps: number) => {
    const emu = await start({ prices: 'start', seed });
    await walk(emu, steps);
    return Promise.all(
      ['M&M-EQ', 'INFY-EQ', 'IDEA-EQ', 'RELIANCE'].map(async (t) => quote(emu, t, t.endsWith('-EQ') ? 'NSE' : 'BSE')),
    );
  };

  it('moves every priced symbol on the tick and inside its band, the same under the same seed', async () => {
    clock = START;
    const a = await pricesAfter(42, 200);
    const b = await pricesAfter(42, 200);
    const c = await pricesAfter(43, 200);
    expect(a.map((q) => q.lp)).toEqual(b.map((q) => q.lp));
    expect(a.map((q) => q.lp)).not.toEqual(c.map((q) => q.lp));
    expect(a.find((q) => q.tsym === 'M&M-EQ')!.lp).not.toBe('1500');
    for (const q of [...a, ...c]) {
      expect(onTick(q.lp!), `${q.tsym} ${q.lp}`).toBe(true);
      expect(Number(q.lp)).toBeGreaterThanOrEqual(Number(q.lc));
      expect(Number(q.lp)).toBeLessThanOrEqual(Number(q.uc));
    }
  });

  it('stays in the band however long it walks', async () => {
    const emu = await start({ prices: 'start', seed: 5 });
    await control(emu.url, 'POST', 'ltp', { exch: 'NSE', tsym: 'ITC-EQ', ltp: 450, close: 410 }); // at the top
    for (let i = 0; i < 5; i++) await walk(emu, 1_000);
    const q = await quote(emu, 'ITC-EQ');
    expect(Number(q.lp)).toBeLessThanOrEqual(451);
    expect(Number(q.lp)).toBeGreaterThanOrEqual(369);
  });

  it('fires the GTTs its prices meet, as a price set by hand does', async () => {
    const emu = await start({ prices: 'start', seed: 9 });
    const fields = wireGtt(
      { tsym: 'M&M-EQ', ai_t: 'LTP_A_O', d: '1500.05', prc: '1480', trantype: 'S', qty: '1' },
      emu,
    );
    await jdata(emu.url, 'PlaceGTTOrder', fields, emu.token);
    let fired = 0;
    for (let i = 0; i < 200 && fired === 0; i++) fired += (await walk(emu)).fired.length;
    expect(fired).toBe(1);
  });

  it('with market walk, the emulator walks by itself on its interval (until closed); still by default', async () => {
    const still = await start({ prices: 'start' });
    const walking = await start({ prices: 'start', market: 'walk', walkIntervalMs: 50, seed: 3 });
    let moved = false;
    for (let i = 0; i < 400 && !moved; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      moved = (await quote(walking, 'M&M-EQ')).lp !== '1500';
    }
    expect(moved).toBe(true);
    expect((await quote(still, 'M&M-EQ')).lp).toBe('1500');
    await expect(startEmulator({ port: 0, market: 'run' as 'walk' })).rejects.toThrow(
      /market must be one of still, walk/,
    );
  });
});

describe('the day as TPSeries', () => {
  it('answers the minute bars of the day, newest first, in the family shape; intrv merges them', async () => {
    clock = START;
    const emu = await start({ prices: 'start', seed: 11 });
    const token = instrumentToken('NSE', 'M&M-EQ');
    const ltp = (value: number) => control(emu.url, 'POST', 'ltp', { exch: 'NSE', tsym: 'M&M-EQ', ltp: value });
    clock = START + 60_000;
    await ltp(1510);
    await ltp(1495);
    clock = START + 120_000;
    await ltp(1502);
    const series = async (extra: Record<string, string> = {}) =>
      (
        await jdata(
          emu.url,
          'TPSeries',
          { uid: emu.uid, exch: 'NSE', token, st: String(START / 1_000), ...extra },
          emu.token,
        )
      ).body as Record<string, string>[];
    const bars = await series();
    expect(bars.map((b) => [b.time, b.into, b.inth, b.intl, b.intc])).toEqual([
      ['07-12-2026 09:32:00', '1502.00', '1502.00', '1502.00', '1502.00'],
      ['07-12-2026 09:31:00', '1510.00', '1510.00', '1495.00', '1495.00'],
      ['07-12-2026 09:30:00', '1500.00', '1500.00', '1500.00', '1500.00'],
    ]);
    expect(bars[0]).toMatchObject({ stat: 'Ok', ssboe: String(START / 1_000 + 120), intv: '1' });
    const three = await series({ intrv: '3' });
    expect(three.map((b) => [b.into, b.inth, b.intl, b.intc])).toEqual([['1500.00', '1510.00', '1495.00', '1502.00']]);
    expect(await series({ et: String(START / 1_000 + 60) })).toHaveLength(2);
    expect(await series({ intrv: '7' })).toMatchObject({
      stat: 'Not_Ok',
      emsg: 'Invalid Input : intrv must be one of 1, 3, 5, 10, 15, 30, 60, 120, 240',
    });
    const none = await startEmulator({ port: 0, now });
    started.push(none);
    expect((await jdata(none.url, 'TPSeries', { uid: none.uid, exch: 'NSE', token }, none.token)).body).toEqual({
      stat: 'Not_Ok',
      emsg: 'no data',
    });
  });
});
