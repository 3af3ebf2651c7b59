/**
 * The emulator's symbol list (emulator/state/symbols.ts) on a fixed clock: equities by exchange, and NFO index
 * contracts whose expiry is a real date from today (India time) to 100 days ahead.
 */
import { describe, expect, it } from 'vitest';

import { indexContract, isListedSymbol, searchListed } from '../../emulator/state/symbols.js';

// 10:00 UTC on 23 November 2026 is 15:30 the same day in India.
const NOW = new Date(Date.UTC(2026, 10, 23, 10, 0));

describe('isListedSymbol', () => {
  it.each([
    ['NSE', 'M&M-EQ', true],
    ['NSE', 'L&TFH-EQ', true],
    ['NSE', 'NIFTYBEES-EQ', true],
    ['BSE', 'M&M', true],
    ['NSE', 'M&M', false],
    ['BSE', 'M&M-EQ', false],
    ['NSE', 'm&m-eq', false],
    ['NSE', 'NOSUCH-EQ', false],
    ['MCX', 'CRUDEOIL', false],
    ['NFO', 'INFY-EQ', false],
    ['NSE', 'Nifty 50', true],
    ['NSE', 'NIFTY MID SELECT', true],
    ['BSE', 'SENSEX', true],
    ['NSE', 'SENSEX', false],
    ['NSE', 'NIFTY 50', false],
  ] as const)('%s %s: %s', (exch, tsym, listed) => {
    expect(isListedSymbol(exch, tsym, NOW)).toBe(listed);
  });

  it.each([
    ['NIFTY23NOV26F', true, 'today is still an expiry date'],
    ['NIFTY22NOV26F', false, 'expired yesterday'],
    ['NIFTY25NOV26C24000', true, 'a call'],
    ['BANKNIFTY30DEC26P53000', true, 'a put'],
    ['BANKNIFTY30DEC26P51900', false, 'below the listed window (52000 to 60000)'],
    ['NIFTY25NOV26C27000', true, 'the highest listed strike'],
    ['NIFTY25NOV26C27050', false, 'above the listed window (23000 to 27000)'],
    ['NIFTY25NOV26C24010', false, "off NIFTY's 50 step"],
    ['MIDCPNIFTY25NOV26P12975', true, "on MIDCPNIFTY's 25 step"],
    ['FINNIFTY25NOV26F', true, 'another index'],
    ['NIFTY31NOV26F', false, 'no 31 November'],
    ['NIFTY29FEB27F', false, 'no 29 February in 2027'],
    ['NIFTY03MAR27F', true, '100 days ahead'],
    ['NIFTY04MAR27F', false, '101 days ahead'],
    ['NIFTY25NOV26C0100', false, 'a strike with a leading zero'],
    ['NIFTY25NOV26X24000', false, 'neither call nor put'],
    ['NIFTY 25NOV26 24000 CE', false, 'spaces: not the family naming'],
    ['SENSEX25NOV26F', false, 'a BSE index on NFO'],
  ] as const)('NFO %s: %s (%s)', (tsym, listed, _why) => {
    expect(isListedSymbol('NFO', tsym, NOW)).toBe(listed);
  });

  it('the day turns at midnight India time, not UTC', () => {
    const justAfterIndiaMidnight = new Date(Date.UTC(2026, 10, 23, 18, 31)); // 00:01 on 24 November in India
    expect(isListedSymbol('NFO', 'NIFTY23NOV26F', justAfterIndiaMidnight)).toBe(false);
    expect(isListedSymbol('NFO', 'NIFTY24NOV26F', justAfterIndiaMidnight)).toBe(true);
  });

  it('indexContract writes the names the list takes', () => {
    expect(indexContract('NIFTY', NOW, 'F')).toBe('NIFTY23NOV26F');
    expect(indexContract('BANKNIFTY', new Date(Date.UTC(2026, 11, 29)), 'C52000')).toBe('BANKNIFTY29DEC26C52000');
  });

  it('searchListed finds listed names only', () => {
    expect(searchListed('NSE', 'bank', NOW)).toEqual([
      'Nifty Bank',
      'HDFCBANK-EQ',
      'ICICIBANK-EQ',
      'AXISBANK-EQ',
      'KOTAKBANK-EQ',
      'BANKBEES-EQ',
    ]);
    expect(searchListed('NFO', 'NIFTY25NOV26F', NOW)).toEqual(['NIFTY25NOV26F']);
    expect(searchListed('NFO', 'NIFTY22NOV26F', NOW)).toEqual([]);
    expect(searchListed('NFO', 'NIFTY25NOV26C24010', NOW)).toEqual([]);
    expect(searchListed('BSE', 'sensex', NOW)).toEqual(['SENSEX']);
    expect(searchListed('CDS', 'USDINR', NOW)).toEqual([]);
  });
});
