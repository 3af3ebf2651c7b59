/**
 * The daily symbol master of an exchange, in the family's shape: the brokers of the Noren family publish one file per
 * exchange at `https://<api host>/<EXCH>_symbols.txt.zip`, a zip of a comma-separated text with a header row and a
 * trailing comma on every line (docs/reference/emulator.md, "The symbol master", has the sources):
 *
 *   Exchange,Token,LotSize,Symbol,TradingSymbol,Instrument,TickSize,                                   (NSE, BSE)
 *   Exchange,Token,LotSize,Symbol,TradingSymbol,Expiry,Instrument,OptionType,StrikePrice,TickSize,      (NFO)
 *   Exchange,Token,LotSize,Symbol,TradingSymbol,Expiry,Instrument,OptionType,Strike,TickSize,           (BFO)
 *
 * Made from the emulator's own instruments (symbols.ts, indices.ts: the ones SearchScrip answers from) with the same
 * tokens and rules. NSE lists every equity and its indices (Instrument `INDEX`: docs/explanation/broker-wire.md,
 * "Indices"); BSE its equities (the family's BSE master does not list SENSEX: it is known by its token). NFO lists each
 * index's futures of the monthly expiries (the last Tuesday of a month) and its options (OPTIDX, CE and PE) at every
 * listed strike (indices.ts) of its expiries: NIFTY's every Tuesday, the others' the monthly ones, all within
 * MAX_EXPIRY_DAYS. BFO lists SENSEX's options (Symbol `BSXOPT`) of its monthly expiries and a few SENSEX50 rows
 * (bfo-options.ts). Built once per India day and exchange.
 */
import { BFO_HEADER, bfoRows } from './bfo-options.js';
import { instrumentToken } from './formats.js';
import { expiryText, indexOfUnderlying, type IndexUnderlying, indiaToday, INDICES, listedStrikes } from './indices.js';
import { INDEX_UNDERLYINGS, indexContract, instrumentRules, LISTED_EQUITIES, MAX_EXPIRY_DAYS } from './symbols.js';

/** The exchanges with a master here. */
export const MASTER_EXCHANGES = ['NSE', 'BSE', 'NFO', 'BFO'] as const;

const EQUITY_HEADER = 'Exchange,Token,LotSize,Symbol,TradingSymbol,Instrument,TickSize,';
const DERIVATIVE_HEADER =
  'Exchange,Token,LotSize,Symbol,TradingSymbol,Expiry,Instrument,OptionType,StrikePrice,TickSize,';
const DAY_MS = 86_400_000;
const IST_OFFSET_MS = 5.5 * 3_600_000;
/** The underlyings whose options expire every week (every Tuesday); the others' only on the monthly expiry. */
const WEEKLY: readonly IndexUnderlying[] = ['NIFTY'];

/** The Tuesdays from today (India) up to MAX_EXPIRY_DAYS ahead, as UTC midnights, each with whether it is monthly. */
export const expiriesOf = (now: Date): { date: number; monthly: boolean }[] => {
  const today = indiaToday(now);
  const out: { date: number; monthly: boolean }[] = [];
  const first = today + ((2 - new Date(today).getUTCDay() + 7) % 7) * DAY_MS;
  for (let date = first; date <= today + MAX_EXPIRY_DAYS * DAY_MS; date += 7 * DAY_MS) {
    out.push({ date, monthly: new Date(date + 7 * DAY_MS).getUTCMonth() !== new Date(date).getUTCMonth() });
  }
  return out;
};

const derivativeRow = (underlying: string, tsym: string, expiry: Date, kind: string): string => {
  const rules = instrumentRules('NFO', tsym);
  return `NFO,${instrumentToken('NFO', tsym)},${rules.ls},${underlying},${tsym},${expiryText(expiry)},${kind},${rules.ti},`;
};

/** One index's rows of one expiry: its future on a monthly expiry, its options when listed on it. */
const contractRows = (underlying: IndexUnderlying, expiry: { date: number; monthly: boolean }): string[] => {
  // Noon India time on the expiry date: indexContract reads the date in India time.
  const at = new Date(expiry.date + 12 * 3_600_000 - IST_OFFSET_MS);
  const date = new Date(expiry.date);
  const rows: string[] = [];
  if (expiry.monthly) rows.push(derivativeRow(underlying, indexContract(underlying, at, 'F'), date, 'FUTIDX,XX,-0.01'));
  if (!expiry.monthly && !WEEKLY.includes(underlying)) return rows;
  for (const strike of listedStrikes(indexOfUnderlying(underlying)!)) {
    for (const [type, optt] of [
      ['C', 'CE'],
      ['P', 'PE'],
    ] as const) {
      const tsym = indexContract(underlying, at, `${type}${strike}`);
      rows.push(derivativeRow(underlying, tsym, date, `OPTIDX,${optt},${strike}`));
    }
  }
  return rows;
};

const buildRows = (exch: string, now: Date): string[] | undefined => {
  if (exch === 'NSE' || exch === 'BSE') {
    const indices = INDICES.filter((i) => i.exch === exch && exch === 'NSE').map(
      (i) => `${exch},${i.token},1,${i.name},${i.tsym},INDEX,${instrumentRules(exch, i.tsym).ti},`,
    );
    return [
      ...indices,
      ...LISTED_EQUITIES[exch].map((tsym) => {
        const rules = instrumentRules(exch, tsym);
        const symbol = exch === 'NSE' ? tsym.replace(/-EQ$/, '') : tsym;
        return `${exch},${instrumentToken(exch, tsym)},${rules.ls},${symbol},${tsym},EQ,${rules.ti},`;
      }),
    ];
  }
  if (exch === 'BFO') return bfoRows(indiaToday(now));
  if (exch !== 'NFO') return undefined;
  return expiriesOf(now).flatMap((expiry) => INDEX_UNDERLYINGS.flatMap((u) => contractRows(u, expiry)));
};

/** Each exchange's master of the India day it was built on, with its symbols by token. */
const built = new Map<string, { day: number; rows: string[] | undefined; tokens: Map<string, string> }>();

const masterOf = (exch: string, now: Date) => {
  const day = indiaToday(now);
  const known = built.get(exch);
  if (known?.day === day) return known;
  const rows = buildRows(exch, now);
  const tokens = new Map<string, string>();
  for (const row of rows ?? []) {
    const fields = row.split(',');
    if (!tokens.has(fields[1]!)) tokens.set(fields[1]!, fields[4]!);
  }
  const master = { day, rows, tokens };
  built.set(exch, master);
  return master;
};

/** The master's rows of one exchange (without the header), or undefined for an exchange without one here. */
export const masterRows = (exch: string, now: Date): string[] | undefined => masterOf(exch, now).rows;

/** The master's text of one exchange (CRLF lines, as the family's files are written), or undefined. */
export const masterText = (exch: string, now: Date): string | undefined => {
  const rows = masterRows(exch, now);
  if (!rows) return undefined;
  const header = exch === 'NFO' ? DERIVATIVE_HEADER : exch === 'BFO' ? BFO_HEADER : EQUITY_HEADER;
  return [header, ...rows].join('\r\n') + '\r\n';
};

/**
 * The symbol a master lists under `token` (an index by its family token even where its master does not list it), so
 * quotes and security info answer for it without a SearchScrip first.
 */
export const masterSymbolOf = (exch: string, token: string, now: Date): string | undefined =>
  INDICES.find((i) => i.exch === exch && i.token === token)?.tsym ?? masterOf(exch, now).tokens.get(token);
