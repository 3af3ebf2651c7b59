/**
 * The family's symbol master, read (functions/instruments/master.ts, unzip.ts) in every dialect seen, and the
 * emulator's (emulator/state/symbol-master.ts, wire/zip.ts) read back through the same reader.
 */
import { describe, expect, it } from 'vitest';

import { instrumentToken } from '../../emulator/state/formats.js';
import { masterText } from '../../emulator/state/symbol-master.js';
import { zipOne } from '../../emulator/wire/zip.js';
import { fetchMaster, masterUrl, parseMaster } from '../../functions/instruments/master.js';
import { firstZipEntry } from '../../functions/instruments/unzip.js';

const RELIANCE = { exch: 'NSE', token: '2885', tsym: 'RELIANCE-EQ', lot: 1, tick: '0.05', precision: 2 };

describe('the symbol master, read', () => {
  it("the family's NSE shape: header, trailing commas, CRLF", () => {
    const text =
      'Exchange,Token,LotSize,Symbol,TradingSymbol,Instrument,TickSize,\r\nNSE,2885,1,RELIANCE,RELIANCE-EQ,EQ,0.05,\r\n';
    expect(parseMaster(text)).toEqual({ rows: [RELIANCE], skipped: 0 });
  });

  it('NFO with expiry, option type and strike; columns found by name, not place', () => {
    const text = [
      'Exchange,Token,LotSize,Symbol,TradingSymbol,Expiry,Instrument,OptionType,StrikePrice,TickSize,',
      'NFO,42697,65,NIFTY,NIFTY30DEC25F,30-DEC-2025,FUTIDX,XX,-0.01,0.05,',
      'NFO,42700,65,NIFTY,NIFTY30DEC25C24000,30-DEC-2025,OPTIDX,CE,24000,0.05,',
    ].join('\n');
    expect(parseMaster(text).rows.map((r) => [r.tsym, r.lot, r.tick])).toEqual([
      ['NIFTY30DEC25F', 65, '0.05'],
      ['NIFTY30DEC25C24000', 65, '0.05'],
    ]);
  });

  it('pipe separated, no trailing separator, a byte-order mark, header case and spaces, blank lines', () => {
    const text = '\uFEFF exchange | TOKEN |TickSize|LotSize| tradingsymbol\n\nNSE|2885|0.05|1|RELIANCE-EQ\n\n';
    expect(parseMaster(text)).toEqual({ rows: [RELIANCE], skipped: 0 });
  });

  it("currency's finer tick gives its precision; a tick written 0.0500 is 0.05", () => {
    const text =
      'Exchange,Token,LotSize,TradingSymbol,TickSize\nCDS,1,1,USDINR26JANF,0.0025\nNSE,2885,1,RELIANCE-EQ,0.0500';
    expect(parseMaster(text).rows.map((r) => [r.tick, r.precision])).toEqual([
      ['0.0025', 4],
      ['0.05', 2],
    ]);
  });

  it('rows without a usable token, lot or tick are skipped and counted, never guessed', () => {
    const text = [
      'Exchange,Token,LotSize,TradingSymbol,TickSize',
      'NSE,2885,1,RELIANCE-EQ,0.05',
      'NSE,,1,NOTOKEN-EQ,0.05',
      'NSE,7,0,ZEROLOT-EQ,0.05',
      'NSE,8,1,NOTICK-EQ,',
      'NSE,9,1,BADTICK-EQ,-0.05',
    ].join('\n');
    expect(parseMaster(text)).toEqual({ rows: [RELIANCE], skipped: 4 });
  });

  it('a file without the columns it needs is refused whole, naming them', () => {
    expect(() => parseMaster('Exchange,Token,Symbol\nNSE,1,X')).toThrow(/no tradingsymbol, lotsize, ticksize column/);
    expect(() => parseMaster('\n\n')).toThrow(/empty/);
  });

  it('a zip, stored or deflated; not a zip, or too large: an error, not a crash', () => {
    const text = Buffer.from('Exchange,Token,LotSize,TradingSymbol,TickSize\nNSE,2885,1,RELIANCE-EQ,0.05\n');
    const zipped = zipOne('NSE_symbols.txt', text);
    expect(firstZipEntry(zipped, 1_000)).toEqual({ name: 'NSE_symbols.txt', content: text });
    expect(() => firstZipEntry(Buffer.from('not a zip at all, just text'), 1_000)).toThrow(/not a zip/);
    expect(() => firstZipEntry(zipped, 10)).toThrow(/above the 10 allowed/);
  });

  it("the emulator's master: its own instruments, tokens as SearchScrip gives them, served zipped and read back", async () => {
    const now = new Date('2026-01-05T03:00:00Z');
    const nse = parseMaster(masterText('NSE', now)!);
    expect(nse.skipped).toBe(0);
    expect(nse.rows).toContainEqual({ ...RELIANCE, token: instrumentToken('NSE', 'RELIANCE-EQ') });
    const nfo = parseMaster(masterText('NFO', now)!).rows;
    // The monthly futures (last Tuesday) within 100 days, each index's lot.
    expect(nfo.map((r) => r.tsym)).toContain('NIFTY27JAN26F');
    expect(nfo.find((r) => r.tsym === 'BANKNIFTY27JAN26F')?.lot).toBe(30);
    expect(masterText('MCX', now)).toBeUndefined();
    const served = zipOne('NSE_symbols.txt', Buffer.from(masterText('NSE', now)!));
    const fetchImpl = (async () => new Response(served)) as typeof fetch;
    const read = await fetchMaster('http://127.0.0.1:1/NSE_symbols.txt.zip', 1_000, fetchImpl);
    expect(read.rows).toEqual(nse.rows);
  });

  it("the master's address: the broker API host's root, or the setting's template", () => {
    expect(masterUrl('NFO', 'https://api.shoonya.com/NorenWClientTP/')).toBe(
      'https://api.shoonya.com/NFO_symbols.txt.zip',
    );
    expect(masterUrl('NSE', 'https://x.example/api/', 'https://files.example/{exch}.zip')).toBe(
      'https://files.example/NSE.zip',
    );
  });
});
