/**
 * The symbol master's option columns (functions/instruments/master.ts) and the day's chains made of them
 * (functions/instruments/chain.ts) in the copy's items (functions/orders/instruments/chain-items.ts).
 */
import { describe, expect, it } from 'vitest';

import { chainsOf } from '../../functions/instruments/chain.js';
import { expiryDate, parseMaster } from '../../functions/instruments/master.js';
import {
  chainExpiryItem,
  chainIndexItem,
  chainOfItem,
  expiriesOfItem,
} from '../../functions/orders/instruments/chain-items.js';
import { optionMaster } from '../support/option-master.js';

const HEADER = 'Exchange,Token,LotSize,Symbol,TradingSymbol,Expiry,Instrument,OptionType,StrikePrice,TickSize,';

describe("the master's option columns", () => {
  it('an option row reads its symbol, expiry, instrument, type and strike', () => {
    const text = `${HEADER}\nNFO,71001,65,NIFTY,NIFTY08DEC26C24500,08-DEC-2026,OPTIDX,CE,24500.00,0.05,\n`;
    expect(parseMaster(text).rows).toEqual([
      {
        exch: 'NFO',
        token: '71001',
        tsym: 'NIFTY08DEC26C24500',
        lot: 65,
        tick: '0.05',
        precision: 2,
        symbol: 'NIFTY',
        expiry: '2026-12-08',
        instrument: 'OPTIDX',
        optionType: 'CE',
        strike: 24500,
      },
    ]);
  });

  it('a future keeps no type or strike (XX, -0.01); columns found by name in any order, case and separator', () => {
    const text =
      ' strikeprice | OPTIONTYPE |Instrument|expiry|TickSize|LotSize|TradingSymbol|Token|Exchange|Symbol\n' +
      '-0.01|XX|FUTIDX|29-dec-2026|0.05|65|NIFTY29DEC26F|42697|NFO|NIFTY\n' +
      '24550.5|pe|OPTIDX|29-Dec-2026|0.05|65|NIFTY29DEC26P24550.5|42698|NFO|NIFTY\n';
    const rows = parseMaster(text).rows;
    expect(rows[0]).toMatchObject({ expiry: '2026-12-29', instrument: 'FUTIDX', symbol: 'NIFTY' });
    expect(rows[0]).not.toHaveProperty('optionType');
    expect(rows[0]).not.toHaveProperty('strike');
    expect(rows[1]).toMatchObject({ optionType: 'PE', strike: 24550.5 });
  });

  it("BFO's master: the strike in a `Strike` column; SENSEX's chain by its Symbol BSXOPT, SENSEX50's (SX50OPT) apart", () => {
    const text = [
      'Exchange,Token,LotSize,Symbol,TradingSymbol,Expiry,Instrument,OptionType,Strike,TickSize',
      'BFO,825001,20,BSXOPT,SENSEX26SEP91000PE,24-SEP-2026,OPTIDX,PE,91000,0.05',
      'BFO,825002,20,BSXOPT,SENSEX26SEP91000CE,24-SEP-2026,OPTIDX,CE,91000,0.05',
      'BFO,825003,60,SX50OPT,SENSEX5026SEP27000CE,24-SEP-2026,OPTIDX,CE,27000,0.05',
    ].join('\r\n');
    const rows = parseMaster(text).rows;
    expect(rows[0]).toMatchObject({ symbol: 'BSXOPT', expiry: '2026-09-24', optionType: 'PE', strike: 91000, lot: 20 });
    const chains = chainsOf(rows);
    expect([...chains.keys()].sort()).toEqual(['BFO|BSXOPT', 'BFO|SX50OPT']);
    expect(chains.get('BFO|BSXOPT')![0]!.strikes).toEqual([
      {
        strike: 91000,
        PE: { tsym: 'SENSEX26SEP91000PE', token: '825001' },
        CE: { tsym: 'SENSEX26SEP91000CE', token: '825002' },
      },
    ]);
  });

  it('rows without the columns, or without an expiry, stay as they were', () => {
    const equity =
      'Exchange,Token,LotSize,Symbol,TradingSymbol,Instrument,TickSize,\nNSE,2885,1,RELIANCE,RELIANCE-EQ,EQ,0.05,\n';
    expect(parseMaster(equity).rows).toEqual([
      { exch: 'NSE', token: '2885', tsym: 'RELIANCE-EQ', lot: 1, tick: '0.05', precision: 2 },
    ]);
    const odd = `${HEADER}\nNFO,71002,65,NIFTY,NIFTYODD,31-FEB-2026,OPTIDX,CE,24500,0.05,\nNFO,71003,65,NIFTY,NIFTYX,2026-12-08,OPTIDX,CE,24500,0.05,\n`;
    for (const row of parseMaster(odd).rows)
      expect(Object.keys(row).sort()).toEqual(['exch', 'lot', 'precision', 'tick', 'token', 'tsym']);
  });

  it("expiry dates: the master's DD-MON-YYYY, nothing else", () => {
    expect(expiryDate('08-DEC-2026')).toBe('2026-12-08');
    expect(expiryDate('8-jan-2027')).toBe('2027-01-08');
    for (const bad of ['31-FEB-2026', '08-DEK-2026', '2026-12-08', '', '08/DEC/2026'])
      expect(expiryDate(bad)).toBeUndefined();
  });
});

describe('the chains of a master', () => {
  const rows = parseMaster(optionMaster(['2026-12-15', '2026-12-08'], { from: 24_400, to: 24_600, step: 100 })).rows;

  it('only OPTIDX/OPTSTK with CE/PE make a chain; by underlying, expiries ascending, strikes ascending', () => {
    const chains = chainsOf(rows);
    expect([...chains.keys()].sort()).toEqual(['NFO|INFY', 'NFO|NIFTY']);
    const nifty = chains.get('NFO|NIFTY')!;
    expect(nifty.map((c) => c.expiry)).toEqual(['2026-12-08', '2026-12-15']);
    expect(nifty[0]).toMatchObject({ underlying: 'NIFTY', exch: 'NFO', lot: 65, tick: '0.05' });
    expect(nifty[0]!.strikes.map((s) => s.strike)).toEqual([24_400, 24_500, 24_600]);
    expect(nifty[0]!.strikes[1]).toEqual({
      strike: 24_500,
      CE: { tsym: 'NIFTY08DEC26C24500', token: expect.any(String) },
      PE: { tsym: 'NIFTY08DEC26P24500', token: expect.any(String) },
    });
    expect(chains.get('NFO|INFY')![0]!.strikes).toEqual([{ strike: 1500, CE: expect.any(Object) }]);
  });

  it("an expiry's item reads back as the same chain on its day, and as none on another day", () => {
    const chain = chainsOf(rows).get('NFO|NIFTY')![0]!;
    const item = chainExpiryItem(chain, '2026-12-07', 0);
    expect(item.pk).toEqual({ S: 'CHAIN|NFO|NIFTY|2026-12-08' });
    expect(chainOfItem(item, '2026-12-07')).toEqual(chain);
    expect(chainOfItem(item, '2026-12-08')).toBeUndefined();
    const index = chainIndexItem('NFO', 'NIFTY', ['2026-12-08', '2026-12-15'], '2026-12-07', 0);
    expect(index.pk).toEqual({ S: 'CHAIN|NFO|NIFTY' });
    expect(expiriesOfItem(index, '2026-12-07')).toEqual(['2026-12-08', '2026-12-15']);
    expect(expiriesOfItem(index, '2026-12-06')).toBeUndefined();
    expect(expiriesOfItem(undefined, '2026-12-07')).toBeUndefined();
  });

  it('an item that does not read is an error, never an empty chain', () => {
    const chain = chainsOf(rows).get('NFO|NIFTY')![0]!;
    const item = chainExpiryItem(chain, '2026-12-07', 0);
    expect(() => chainOfItem({ ...item, strikes: { S: '[["x"]]' } }, '2026-12-07')).toThrow(/strike/);
    expect(() => chainOfItem({ ...item, lot: { N: '0' } }, '2026-12-07')).toThrow(/does not read/);
  });
});
