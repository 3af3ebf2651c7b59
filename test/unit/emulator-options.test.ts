/**
 * The emulator's options as arithmetic (emulator/state/option-model.ts, indices.ts, symbol-master.ts): an option is
 * its intrinsic value plus a time value that decays toward expiry and shrinks away from the money, on the tick; the
 * NFO master lists every listed strike of each index's expiries, each contract under a token of its own, built once
 * a day; an index is never ordered.
 */
import { describe, expect, it } from 'vitest';

import { instrumentToken } from '../../emulator/state/formats.js';
import { INDEX_ORDER_REASON, INDICES, listedStrikes, parseIndexContract } from '../../emulator/state/indices.js';
import { contractPriceAt, daysToExpiry, modelPriceOf } from '../../emulator/state/option-model.js';
import { expiriesOf, masterRows, masterSymbolOf } from '../../emulator/state/symbol-master.js';
import { tradingRefusal, UNKNOWN_SYMBOL_REASON } from '../../emulator/state/symbols.js';

// Monday 7 December 2026, 09:30 in India.
const NOW = new Date('2026-12-07T04:00:00Z');
const DAY = 86_400_000;
const later = (days: number) => new Date(NOW.getTime() + days * DAY);

describe('the option model', () => {
  it('a call rises and a put falls with the index; a future is the index', () => {
    const call = (level: number) => modelPriceOf('NFO', 'NIFTY29DEC26C25000', level, NOW)!;
    const put = (level: number) => modelPriceOf('NFO', 'NIFTY29DEC26P25000', level, NOW)!;
    expect(call(25000)).toBe(put(25000));
    expect(call(25100)).toBeGreaterThan(call(25000));
    expect(put(25100)).toBeLessThan(put(25000));
    expect(modelPriceOf('NFO', 'NIFTY29DEC26F', 25012.34, NOW)).toBe(25012.35);
    expect(modelPriceOf('NSE', 'Nifty 50', 25000, NOW)).toBeUndefined();
  });

  it('time value decays toward expiry (as the square root of the days left) to the intrinsic value at the close', () => {
    const contract = parseIndexContract('NFO', 'NIFTY29DEC26C24900')!;
    expect(daysToExpiry(contract.expiry, NOW)).toBe(22.25);
    const prices = [0, 7, 14, 21, 22.25].map((d) => contractPriceAt(contract, 25000, later(d)));
    for (let i = 1; i < prices.length; i++) expect(prices[i]!).toBeLessThan(prices[i - 1]!);
    expect(prices.at(-1)).toBe(100);
    expect(contractPriceAt(contract, 25000, later(30))).toBe(100); // never below intrinsic after the close
    // At the money, four times the days left is twice the time value (to the tick).
    const atm = parseIndexContract('NFO', 'NIFTY29DEC26C25000')!;
    const at = (days: number) => contractPriceAt(atm, 25000, new Date(atm.expiry + 10 * 3_600_000 - days * DAY));
    expect(Math.abs(at(16) - 2 * at(4))).toBeLessThanOrEqual(0.05);
  });

  it('shrinks away from the money, on the tick, never below one tick', () => {
    const put = (strike: number) => modelPriceOf('NFO', `NIFTY29DEC26P${strike}`, 25000, NOW)!;
    expect(put(24500)).toBeGreaterThan(put(24000));
    expect(put(24000)).toBeGreaterThan(put(23000));
    expect(modelPriceOf('NFO', 'NIFTY08DEC26P23000', 25000, NOW)).toBe(0.05);
    for (const strike of [23000, 23550, 24000, 24950]) expect(Math.round(put(strike) * 100) % 5).toBe(0);
  });
});

describe('the NFO master', () => {
  it('expiries: every Tuesday within 100 days, the last of a month monthly', () => {
    const expiries = expiriesOf(NOW);
    expect(expiries[0]).toEqual({ date: Date.UTC(2026, 11, 8), monthly: false });
    expect(expiries.find((e) => e.date === Date.UTC(2026, 11, 29))?.monthly).toBe(true);
    expect(expiries.every((e) => new Date(e.date).getUTCDay() === 2)).toBe(true);
    expect(expiries.filter((e) => e.monthly).map((e) => new Date(e.date).toISOString().slice(0, 10))).toEqual([
      '2026-12-29',
      '2027-01-26',
      '2027-02-23',
    ]);
  });

  it('every row under a token of its own, the one quotes and SearchScrip use; indices by their family token', () => {
    for (const exch of ['NSE', 'NFO']) {
      const rows = masterRows(exch, NOW)!.map((r) => r.split(','));
      expect(new Set(rows.map((r) => r[1])).size, exch).toBe(rows.length);
      for (const r of rows) expect(r[1], r[4]).toBe(instrumentToken(exch, r[4]!));
    }
    for (const index of INDICES) expect(masterSymbolOf(index.exch, index.token, NOW)).toBe(index.tsym);
    expect(masterRows('NFO', NOW)!.length).toBe(3900); // 15 NIFTY weeklies and 3 monthlies of 3 indices, 162 options each; 12 futures
  });

  it('is built once a day', () => {
    expect(masterRows('NFO', later(0.1))).toBe(masterRows('NFO', NOW));
    expect(masterRows('NFO', later(1))).not.toBe(masterRows('NFO', NOW));
  });

  it('the listed strikes: 40 steps either side of the start level', () => {
    const nifty = listedStrikes(INDICES[0]!);
    expect([nifty[0], nifty[40], nifty[80], nifty.length]).toEqual([23000, 25000, 27000, 81]);
  });
});

describe('orders on an index', () => {
  it('are refused whatever the any-symbol switch; an unlisted symbol only without it', () => {
    expect(tradingRefusal('NSE', 'Nifty 50', NOW, false)).toBe(INDEX_ORDER_REASON);
    expect(tradingRefusal('BSE', 'SENSEX', NOW, true)).toBe(INDEX_ORDER_REASON);
    expect(tradingRefusal('NFO', 'NIFTY08DEC26C25010', NOW, false)).toBe(UNKNOWN_SYMBOL_REASON);
    expect(tradingRefusal('NFO', 'NIFTY08DEC26C25010', NOW, true)).toBeUndefined();
    expect(tradingRefusal('NFO', 'NIFTY08DEC26C25050', NOW, false)).toBeUndefined();
  });
});
