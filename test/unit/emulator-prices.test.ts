/**
 * The emulator's start prices and the walk's step as arithmetic (emulator/state/prices.ts): every listed symbol has
 * a close on the tick, an unlisted one none; an option is worth its intrinsic value and a little time; a step moves
 * a whole number of ticks, at most about 0.1%, and never leaves the band.
 */
import { describe, expect, it } from 'vitest';

import { BrokerEmulator } from '../../emulator/service.js';
import { priceBandOf } from '../../emulator/state/market.js';
import { seededRandom, startCloseOf, walkStep } from '../../emulator/state/prices.js';
import { LISTED_EQUITIES } from '../../emulator/state/symbols.js';

const ticks = (price: number) => Math.round(price * 100) / 5;
// 09:30 in India on Monday 7 December 2026: NIFTY29DEC26 expires in 22.25 days (at 15:30 India time).
const NOW = new Date('2026-12-07T04:00:00Z');

describe('start prices', () => {
  it('every listed equity has a close on the tick, the same on NSE and BSE; an unlisted symbol has none', () => {
    for (const tsym of LISTED_EQUITIES.NSE) {
      const close = startCloseOf('NSE', tsym, NOW)!;
      expect(Number.isInteger(ticks(close)), tsym).toBe(true);
      if (tsym.endsWith('-EQ') && LISTED_EQUITIES.BSE.includes(tsym.slice(0, -3)))
        expect(startCloseOf('BSE', tsym.slice(0, -3), NOW)).toBe(close);
    }
    expect(startCloseOf('NSE', 'NOSUCH-EQ', NOW)).toBeUndefined();
    expect(startCloseOf('MCX', 'GOLD', NOW)).toBeUndefined();
  });

  it('an index starts at its level; an option at its intrinsic value plus a time value that fades away from the money', () => {
    expect(startCloseOf('NSE', 'Nifty 50', NOW)).toBe(25000);
    expect(startCloseOf('BSE', 'SENSEX', NOW)).toBe(82000);
    expect(startCloseOf('NFO', 'NIFTY29DEC26F', NOW)).toBe(25000);
    // atm = 0.003 * 25000 * sqrt(22.25) = 353.77; 1000 away: 353.77 * exp(-1000 / 707.55) = 86.08; 2000 away: 20.95.
    expect(startCloseOf('NFO', 'NIFTY29DEC26C25000', NOW)).toBe(353.75);
    expect(startCloseOf('NFO', 'NIFTY29DEC26C24000', NOW)).toBe(1086.1);
    expect(startCloseOf('NFO', 'NIFTY29DEC26P24000', NOW)).toBe(86.1);
    expect(startCloseOf('NFO', 'NIFTY29DEC26P23000', NOW)).toBe(20.95);
  });

  it('the emulator refuses a prices option it does not know', () => {
    expect(() => new BrokerEmulator({ prices: 'some' as 'start' })).toThrow(/prices must be one of start, none/);
    expect(() => new BrokerEmulator({ seed: 1.5 })).toThrow(/seed must be an integer/);
  });
});

describe('a step of the walk', () => {
  it('moves whole ticks, at most about 0.1% of the price, and the same seed draws the same steps', () => {
    const a = seededRandom(1);
    const b = seededRandom(1);
    let price = 1500;
    for (let i = 0; i < 500; i++) {
      const next = walkStep('NSE', 'M&M-EQ', price, 1500, a);
      expect(walkStep('NSE', 'M&M-EQ', price, 1500, b)).toBe(next);
      expect(Number.isInteger(ticks(next))).toBe(true);
      expect(Math.abs(next - price)).toBeLessThanOrEqual(1.55);
      price = next;
    }
  });

  it('never leaves the band, and never goes below one tick without one', () => {
    const random = () => 0.999; // always the largest step up
    const band = priceBandOf('NSE', 'M&M-EQ', 1500)!;
    let price = 1640;
    for (let i = 0; i < 50; i++) price = walkStep('NSE', 'M&M-EQ', price, 1500, random);
    expect(price).toBe(Number(band.uc));
    let low = 0.2;
    for (let i = 0; i < 10; i++) low = walkStep('NSE', 'IDEA-EQ', low, undefined, () => 0);
    expect(low).toBe(0.05);
  });
});
