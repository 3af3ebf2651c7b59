/**
 * The daily symbol master of an exchange, in the family's shape: the brokers of the Noren family publish one file per
 * exchange at `https://<api host>/<EXCH>_symbols.txt.zip`, a zip of a comma-separated text with a header row and a
 * trailing comma on every line (docs/reference/emulator.md, "The symbol master", has the sources):
 *
 *   Exchange,Token,LotSize,Symbol,TradingSymbol,Instrument,TickSize,                                   (NSE, BSE)
 *   Exchange,Token,LotSize,Symbol,TradingSymbol,Expiry,Instrument,OptionType,StrikePrice,TickSize,      (NFO)
 *
 * Made from the emulator's own instruments (symbols.ts, the ones SearchScrip answers from) with the same tokens and
 * rules. NSE and BSE list every equity here. NFO contracts are a pattern here (any real expiry date within
 * MAX_EXPIRY_DAYS, any strike), so the master lists the finite part: each index's futures of the monthly expiries
 * (the last Tuesday of a month) in that window; SearchScrip still answers for every other listed contract.
 */
import { instrumentToken } from './formats.js';
import {
  INDEX_UNDERLYINGS,
  indexContract,
  instrumentRules,
  isListedSymbol,
  LISTED_EQUITIES,
  MAX_EXPIRY_DAYS,
} from './symbols.js';

/** The exchanges with a master here. */
export const MASTER_EXCHANGES = ['NSE', 'BSE', 'NFO'] as const;

const EQUITY_HEADER = 'Exchange,Token,LotSize,Symbol,TradingSymbol,Instrument,TickSize,';
const DERIVATIVE_HEADER =
  'Exchange,Token,LotSize,Symbol,TradingSymbol,Expiry,Instrument,OptionType,StrikePrice,TickSize,';
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAY_MS = 86_400_000;
const IST_OFFSET_MS = 5.5 * 3_600_000;

/** The last Tuesday of each month whose date lies from today (India) up to MAX_EXPIRY_DAYS ahead. */
const monthlyExpiries = (now: Date): Date[] => {
  const india = new Date(now.getTime() + IST_OFFSET_MS);
  const out: Date[] = [];
  for (let m = 0; m < 5; m += 1) {
    const last = new Date(Date.UTC(india.getUTCFullYear(), india.getUTCMonth() + m + 1, 0));
    last.setUTCDate(last.getUTCDate() - ((last.getUTCDay() + 5) % 7));
    out.push(last);
  }
  return out;
};

/** `27-JAN-2026`, as the family's NFO master writes an expiry. */
const expiryText = (date: Date): string =>
  `${String(date.getUTCDate()).padStart(2, '0')}-${MONTHS[date.getUTCMonth()]}-${date.getUTCFullYear()}`;

/** The master's rows of one exchange (without the header), or undefined for an exchange without one here. */
export const masterRows = (exch: string, now: Date): string[] | undefined => {
  if (exch === 'NSE' || exch === 'BSE') {
    return LISTED_EQUITIES[exch].map((tsym) => {
      const rules = instrumentRules(exch, tsym);
      const symbol = exch === 'NSE' ? tsym.replace(/-EQ$/, '') : tsym;
      return `${exch},${instrumentToken(exch, tsym)},${rules.ls},${symbol},${tsym},EQ,${rules.ti},`;
    });
  }
  if (exch !== 'NFO') return undefined;
  const rows: string[] = [];
  for (const expiry of monthlyExpiries(now)) {
    // Noon India time on the expiry date: indexContract reads the date in India time.
    const at = new Date(expiry.getTime() + 12 * 3_600_000 - IST_OFFSET_MS);
    if (expiry.getTime() > now.getTime() + (MAX_EXPIRY_DAYS + 1) * DAY_MS) continue;
    for (const underlying of INDEX_UNDERLYINGS) {
      const tsym = indexContract(underlying, at, 'F');
      if (!isListedSymbol('NFO', tsym, now)) continue;
      const rules = instrumentRules('NFO', tsym);
      rows.push(
        `NFO,${instrumentToken('NFO', tsym)},${rules.ls},${underlying},${tsym},${expiryText(expiry)},FUTIDX,XX,-0.01,${rules.ti},`,
      );
    }
  }
  return rows;
};

/** The master's text of one exchange (CRLF lines, as the family's files are written), or undefined. */
export const masterText = (exch: string, now: Date): string | undefined => {
  const rows = masterRows(exch, now);
  if (!rows) return undefined;
  return [exch === 'NFO' ? DERIVATIVE_HEADER : EQUITY_HEADER, ...rows].join('\r\n') + '\r\n';
};

/** The symbol a master lists under `token`, so quotes and security info answer for it without a SearchScrip first. */
export const masterSymbolOf = (exch: string, token: string, now: Date): string | undefined => {
  for (const row of masterRows(exch, now) ?? []) {
    const fields = row.split(',');
    if (fields[1] === token) return fields[4];
  }
  return undefined;
};
