/**
 * SENSEX's options on BFO as arithmetic (emulator/state/indices.ts, bfo-options.ts): monthly expiries only, the
 * month's last Thursday, the current month's until its close and the next two; names read back to their contract;
 * every BFO row under a token of its own; SENSEX50's rows never read as SENSEX's.
 */
import { describe, expect, it } from 'vitest';

import { instrumentToken } from '../../emulator/state/formats.js';
import { lastThursday, parseIndexContract, sensexExpiries, sensexOption } from '../../emulator/state/indices.js';
import { masterRows } from '../../emulator/state/symbol-master.js';
import { instrumentRules, isListedSymbol } from '../../emulator/state/symbols.js';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const dates = (list: number[]) => list.map((d) => new Date(d).toISOString().slice(0, 10));

describe("SENSEX's monthly expiries", () => {
  it("the month's last Thursday; on the expiry day itself still listed, the day after the next three", () => {
    expect(dates([lastThursday(2026, 8), lastThursday(2026, 11), lastThursday(2027, 1)])).toEqual([
      '2026-09-24',
      '2026-12-31',
      '2027-02-25',
    ]);
    expect(dates(sensexExpiries(day('2026-12-31')))).toEqual(['2026-12-31', '2027-01-28', '2027-02-25']);
    expect(dates(sensexExpiries(day('2027-01-01')))).toEqual(['2027-01-28', '2027-02-25', '2027-03-25']);
  });

  it("a name reads back to its contract; SENSEX50's and a weekly-looking name are not SENSEX's", () => {
    const tsym = sensexOption(day('2026-09-24'), 'P', 91000);
    expect(tsym).toBe('SENSEX26SEP91000PE');
    expect(parseIndexContract('BFO', tsym)).toMatchObject({ underlying: 'SENSEX', type: 'P', strike: 91000 });
    expect(parseIndexContract('BFO', tsym)!.expiry).toBe(day('2026-09-24'));
    expect(parseIndexContract('NFO', tsym)).toBeUndefined();
    for (const other of ['SENSEX5026SEP27000CE', 'SENSEX2692491000PE', 'SENSEX26SEP91000P'])
      expect(parseIndexContract('BFO', other), other).toBeUndefined();
    expect(instrumentRules('BFO', tsym)).toEqual({ ti: '0.05', ls: 20, pp: 2 });
  });
});

describe('the BFO master', () => {
  const NOW = new Date('2026-12-07T04:00:00Z');
  it('every row under a token of its own, the one quotes use; SENSEX50 rows listed in the master only', () => {
    const rows = masterRows('BFO', NOW)!.map((r) => r.split(','));
    expect(new Set(rows.map((r) => r[1])).size).toBe(rows.length);
    for (const r of rows) expect(r[1], r[4]).toBe(instrumentToken('BFO', r[4]!));
    const sx50 = rows.filter((r) => r[3] === 'SX50OPT');
    expect(sx50.length).toBe(4);
    for (const r of sx50) {
      expect(parseIndexContract('BFO', r[4]!), r[4]).toBeUndefined();
      expect(isListedSymbol('BFO', r[4]!, NOW), r[4]).toBe(false);
    }
    for (const r of rows.filter((r) => r[3] === 'BSXOPT')) expect(isListedSymbol('BFO', r[4]!, NOW), r[4]).toBe(true);
  });
});
