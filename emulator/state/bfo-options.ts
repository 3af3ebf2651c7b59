/**
 * The BFO master's rows (docs/reference/emulator.md, "Indices and options"; docs/explanation/broker-wire.md, "Indices"):
 * SENSEX's options under the master's Symbol `BSXOPT`, the product code the family's BFO master files them by (not
 * `SENSEX`), at every listed strike (indices.ts) of its listed monthly expiries (the month's last Thursday: the
 * current month's and the next two; weekly SENSEX names of the family are not evidenced, so none are listed), and a
 * few SENSEX50 options under `SX50OPT` (`SENSEX50...`), another index, so a reader that takes a chain by a name prefix
 * instead of the Symbol would be seen mixing them. The SENSEX50 rows are in the master only: not listed for orders
 * (refused as an unknown symbol), not priced.
 *
 *   Exchange,Token,LotSize,Symbol,TradingSymbol,Expiry,Instrument,OptionType,Strike,TickSize,
 *   BFO,1648..,20,BSXOPT,SENSEX26DEC82000CE,31-DEC-2026,OPTIDX,CE,82000,0.05,
 *
 * The strike's column is `Strike` on BFO (`StrikePrice` on NFO), as the family's BFO master names it.
 */
import { instrumentToken } from './formats.js';
import { expiryText, indexOfUnderlying, listedStrikes, MONTHS, sensexExpiries, sensexOption } from './indices.js';
import { instrumentRules } from './symbols.js';

export const BFO_HEADER = 'Exchange,Token,LotSize,Symbol,TradingSymbol,Expiry,Instrument,OptionType,Strike,TickSize,';
/** The master's Symbol of SENSEX's options and of SENSEX50's. */
export const SENSEX_OPTIONS_SYMBOL = 'BSXOPT';
export const SENSEX50_OPTIONS_SYMBOL = 'SX50OPT';
/** SENSEX50's few rows: these strikes, CE and PE, of the nearest expiry (a sandbox lot, not the exchange's). */
const SENSEX50_STRIKES = [25000, 25100];
const SENSEX50_LOT = 60;

/** The BFO master's rows (without the header) on India's day `today` (UTC midnight). */
export const bfoRows = (today: number): string[] => {
  const expiries = sensexExpiries(today);
  const rows: string[] = [];
  const row = (symbol: string, tsym: string, lot: number, expiry: number, optt: string, strike: number) =>
    `BFO,${instrumentToken('BFO', tsym)},${lot},${symbol},${tsym},${expiryText(new Date(expiry))},OPTIDX,${optt},${strike},0.05,`;
  for (const expiry of expiries)
    for (const strike of listedStrikes(indexOfUnderlying('SENSEX')!))
      for (const type of ['C', 'P'] as const) {
        const tsym = sensexOption(expiry, type, strike);
        rows.push(row(SENSEX_OPTIONS_SYMBOL, tsym, instrumentRules('BFO', tsym).ls, expiry, `${type}E`, strike));
      }
  const nearest = new Date(expiries[0]!);
  const yymmm = `${String(nearest.getUTCFullYear() % 100).padStart(2, '0')}${MONTHS[nearest.getUTCMonth()]}`;
  for (const strike of SENSEX50_STRIKES)
    for (const optt of ['CE', 'PE'])
      rows.push(
        row(SENSEX50_OPTIONS_SYMBOL, `SENSEX50${yymmm}${strike}${optt}`, SENSEX50_LOT, expiries[0]!, optt, strike),
      );
  return rows;
};
