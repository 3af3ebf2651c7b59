/** Choosing an option from the day's chain: the expiry, the strike at the underlying's price, and the refusals. */
import { describe, expect, it } from 'vitest';

import {
  type ChainExpiry,
  indexNamed,
  isStrikePick,
  lastEntryAt,
  OptionPickError,
  pickContract,
  pickExpiry,
  strikeStepOf,
} from '../../functions/orders/instruments/option-pick.js';

const chain: ChainExpiry = {
  underlying: 'NIFTY',
  exch: 'NFO',
  expiry: '2026-12-08',
  lot: 65,
  tick: '0.05',
  strikes: [24400, 24450, 24500, 24550, 24600, 24700].map((strike) => ({
    strike,
    CE: { tsym: `NIFTY08DEC26C${strike}`, token: `c${strike}` },
    ...(strike === 24450 ? {} : { PE: { tsym: `NIFTY08DEC26P${strike}`, token: `p${strike}` } }),
  })),
};
/** 2026-12-08 10:00 India time. */
const morning = Date.parse('2026-12-08T04:30:00Z');

describe('option pick', () => {
  it('names indices as traders do, in any case', () => {
    expect(indexNamed(' nifty ')).toMatchObject({ exch: 'NSE', tsym: 'Nifty 50', derivatives: 'NFO' });
    expect(indexNamed('SENSEX')).toMatchObject({ exch: 'BSE', derivatives: 'BFO' });
    expect(indexNamed('NIFTYIT')).toBeUndefined();
  });

  it('takes ATM as the nearest listed strike, the lower one halfway, and offsets by listed strikes', () => {
    expect(pickContract(chain, 24512, 'ATM', 'CE')).toMatchObject({ strike: 24500, atm: 24500, strikeStep: 50 });
    expect(pickContract(chain, 24525, 'ATM', 'CE').strike).toBe(24500);
    expect(pickContract(chain, 24526, 'ATM', 'CE').strike).toBe(24550);
    expect(pickContract(chain, 24512, 'ATM+1', 'CE').tsym).toBe('NIFTY08DEC26C24550');
    expect(pickContract(chain, 24512, 'ATM-2', 'CE').strike).toBe(24400);
    // The put chain lacks 24450: offsets count the puts listed.
    expect(pickContract(chain, 24512, 'ATM-1', 'PE').strike).toBe(24400);
    expect(pickContract(chain, 24650, 24600, 'PE')).toMatchObject({ tsym: 'NIFTY08DEC26P24600', price: 24650 });
  });

  it('refuses strikes the chain does not list, naming the nearest ones', () => {
    expect(() => pickContract(chain, 24500, 24525, 'CE')).toThrow(/nearest listed are 24500 and 24550/);
    expect(() => pickContract(chain, 24500, 24450, 'PE')).toThrow(OptionPickError);
    expect(() => pickContract(chain, 24500, 'ATM+5', 'CE')).toThrow(/past the listed CE strikes/);
  });

  it('reads the strike step from the chain, never a guess', () => {
    expect(strikeStepOf(chain.strikes)).toBe(50);
    expect(strikeStepOf([100, 200, 300, 350].map((strike) => ({ strike })))).toBe(100);
  });

  it('checks the form of a strike pick', () => {
    expect(['ATM', 'ATM+1', 'ATM-12', 24500].every(isStrikePick)).toBe(true);
    expect(['ATM+', 'atm', 'ATM+100', -5, 0, '24500'].some(isStrikePick)).toBe(false);
  });

  it('picks the nearest expiry open for entry, the next one within the cutoff', () => {
    const listed = ['2026-12-08', '2026-12-15', '2026-12-29', '2027-01-05', '2027-01-26'];
    expect(pickExpiry(listed, 'nearest', morning, 30)).toBe('2026-12-08');
    const late = Date.parse('2026-12-08T09:31:00Z'); // 15:01 India time
    expect(pickExpiry(listed, 'nearest', late, 30)).toBe('2026-12-15');
    expect(pickExpiry(listed, 'nearest', late, 20)).toBe('2026-12-08');
    expect(() => pickExpiry(listed, '2026-12-08', late, 30)).toThrow(/closed to new entries/);
    expect(pickExpiry(listed, 'next-month', morning, 30)).toBe('2027-01-26');
    expect(() => pickExpiry(listed, '2026-12-09', morning, 30)).toThrow(/no expiry 2026-12-09 is listed/);
    expect(() => pickExpiry(['2026-12-08'], 'next-month', morning, 30)).toThrow(/no expiry is listed in 2027-01/);
    expect(lastEntryAt('2026-12-08', 30)).toBe(Date.parse('2026-12-08T09:30:00Z'));
  });
});
