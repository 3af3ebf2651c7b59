/**
 * The instruments the emulator knows, so that an order for a symbol no exchange lists is refused as the broker
 * refuses it, instead of being accepted with 201. A small shipped list, enough for demos and tests: liquid NSE
 * equities (`<NAME>-EQ`, the family's cash-segment naming), the same companies on BSE (plain names), and NFO index
 * futures and options of a current expiry, in the family's contract naming:
 *
 *   NIFTY25NOV26F          future:  index, expiry date DDMMMYY, F
 *   NIFTY25NOV26C24000     option:  index, expiry date DDMMMYY, C (call) or P (put), strike
 *
 * An expiry must be a real calendar date from today (India time) up to 100 days ahead: an expired contract is not
 * listed any more, and nothing further out trades. The expiry's weekday is not checked (exchanges have moved it more
 * than once); nor is the strike's step. `acceptAnySymbol` (the `--any-symbol` flag) turns the check off.
 */

/** The broker's refusal of a symbol it does not list; sent as `Invalid Input : <this>`. */
export const UNKNOWN_SYMBOL_REASON = 'Invalid Trading Symbol';

/** Companies listed on both exchanges: `<NAME>-EQ` on NSE, `<NAME>` on BSE. */
const COMPANIES = [
  'RELIANCE',
  'TCS',
  'INFY',
  'HDFCBANK',
  'ICICIBANK',
  'SBIN',
  'M&M',
  'L&TFH',
  'WIPRO',
  'ITC',
  'LT',
  'AXISBANK',
  'KOTAKBANK',
  'BHARTIARTL',
  'HINDUNILVR',
  'TATASTEEL',
  'BAJFINANCE',
  'MARUTI',
  'SUNPHARMA',
  'HCLTECH',
  'ONGC',
  'NTPC',
  'POWERGRID',
  'ASIANPAINT',
  'TITAN',
  'ULTRACEMCO',
  'ADANIENT',
  'COALINDIA',
  'JSWSTEEL',
  'IDEA',
] as const;

/** NSE exchange-traded funds (also `-EQ`). */
const NSE_ETFS = ['NIFTYBEES', 'BANKBEES', 'GOLDBEES'] as const;

export const LISTED_EQUITIES: Readonly<Record<'NSE' | 'BSE', readonly string[]>> = {
  NSE: [...COMPANIES, ...NSE_ETFS].map((name) => `${name}-EQ`),
  BSE: [...COMPANIES],
};

/** NSE indices with exchange-traded futures and options. */
export const INDEX_UNDERLYINGS = ['NIFTY', 'BANKNIFTY', 'FINNIFTY', 'MIDCPNIFTY'] as const;

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const INDEX_CONTRACT = new RegExp(
  `^(${INDEX_UNDERLYINGS.join('|')})(\\d{2})(${MONTHS.join('|')})(\\d{2})(F|[CP][1-9]\\d{0,5})$`,
);
/** How far ahead an expiry may lie. */
export const MAX_EXPIRY_DAYS = 100;
const DAY_MS = 86_400_000;
const IST_OFFSET_MS = 5.5 * 3_600_000;

/** Today's date in India, as a UTC midnight timestamp. */
const indiaToday = (now: Date): number => {
  const india = new Date(now.getTime() + IST_OFFSET_MS);
  return Date.UTC(india.getUTCFullYear(), india.getUTCMonth(), india.getUTCDate());
};

/** A listed index future or option: a real expiry date, today or later, at most MAX_EXPIRY_DAYS ahead. */
const isIndexContract = (tsym: string, now: Date): boolean => {
  const match = INDEX_CONTRACT.exec(tsym);
  if (!match) return false;
  const [, , dd, mmm, yy] = match;
  const year = 2000 + Number(yy);
  const month = MONTHS.indexOf(mmm!);
  const day = Number(dd);
  const expiry = Date.UTC(year, month, day);
  const real = new Date(expiry).getUTCDate() === day && day >= 1;
  const today = indiaToday(now);
  return real && expiry >= today && expiry <= today + MAX_EXPIRY_DAYS * DAY_MS;
};

/** Whether the exchange lists `tsym` (the decoded symbol, as the broker reads it). */
export const isListedSymbol = (exch: string, tsym: string, now: Date): boolean => {
  if (exch === 'NSE' || exch === 'BSE') return LISTED_EQUITIES[exch].includes(tsym);
  if (exch === 'NFO') return isIndexContract(tsym, now);
  return false;
};

/** The index contract names of the nearest listed expiry date given (for docs, demos and tests). */
export const indexContract = (
  underlying: (typeof INDEX_UNDERLYINGS)[number],
  expiry: Date,
  kind: 'F' | `${'C' | 'P'}${number}`,
): string => {
  const india = new Date(expiry.getTime() + IST_OFFSET_MS);
  const dd = String(india.getUTCDate()).padStart(2, '0');
  const yy = String(india.getUTCFullYear() % 100).padStart(2, '0');
  return `${underlying}${dd}${MONTHS[india.getUTCMonth()]}${yy}${kind}`;
};

/**
 * The exchange's market lot of each index's derivatives, contracts of every expiry listed from the January 2026
 * series on: NSE F&O circular of 2025-10-28 (NIFTY 75 to 65, BANKNIFTY 35 to 30, FINNIFTY 65 to 60, MIDCPNIFTY 140
 * to 120). The exchange revises them from time to time: update this table with the circular's date.
 */
export const INDEX_LOT_SIZES: Readonly<Record<(typeof INDEX_UNDERLYINGS)[number], number>> = {
  NIFTY: 65,
  BANKNIFTY: 30,
  FINNIFTY: 60,
  MIDCPNIFTY: 120,
};
export const INDEX_LOT_SIZES_AS_OF = '2025-10-28';

/** The rules the exchange sets on an instrument, as the broker publishes them (SearchScrip `ti`, `ls`, `pp`). */
export interface InstrumentRules {
  /** Tick size, e.g. `0.05`. */
  ti: string;
  /** Lot size: the quantity must be a multiple of it. */
  ls: number;
  /** Price precision (decimals). */
  pp: number;
}

/** An index contract's underlying and whether it is a future, or undefined for any other symbol. */
export const indexContractOf = (
  exch: string,
  tsym: string,
): { underlying: (typeof INDEX_UNDERLYINGS)[number]; future: boolean } | undefined => {
  const match = exch === 'NFO' ? INDEX_CONTRACT.exec(tsym) : null;
  return match ? { underlying: match[1] as (typeof INDEX_UNDERLYINGS)[number], future: match[5] === 'F' } : undefined;
};

/** Whether `tsym` is one of the NSE exchange-traded funds listed here. */
export const isEtf = (exch: string, tsym: string): boolean =>
  exch === 'NSE' && (NSE_ETFS as readonly string[]).some((name) => `${name}-EQ` === tsym);

/** Equities (both exchanges) and index derivatives trade on a 0.05 tick; equities in lots of 1. */
export const instrumentRules = (exch: string, tsym: string): InstrumentRules => {
  const underlying = exch === 'NFO' ? INDEX_CONTRACT.exec(tsym)?.[1] : undefined;
  const ls = underlying ? INDEX_LOT_SIZES[underlying as (typeof INDEX_UNDERLYINGS)[number]] : 1;
  return { ti: '0.05', ls, pp: 2 };
};

/** The SearchScrip / record fields of an instrument's rules, as the broker writes them (strings). */
export const rulesFields = (exch: string, tsym: string): { pp: string; ls: string; ti: string } => {
  const rules = instrumentRules(exch, tsym);
  return { pp: String(rules.pp), ls: String(rules.ls), ti: rules.ti };
};

/** Price in paise-free integer steps of the tick: whether `price` is a multiple of `tick` (both decimal strings). */
const onTick = (price: string, tick: string): boolean => {
  const scale = 10_000;
  const p = Math.round(Number(price) * scale);
  const t = Math.round(Number(tick) * scale);
  return t > 0 && Number.isFinite(p) && p % t === 0;
};

/**
 * The exchange's refusal of an order that breaks the instrument's rules (as the order book's `rejreason`), or
 * undefined. A market order (price 0) has no price to check.
 */
export const exchangeRuleRefusal = (
  exch: string,
  tsym: string,
  terms: { prc: string; qty: number; prctyp: string },
): string | undefined => {
  const rules = instrumentRules(exch, tsym);
  const market = terms.prctyp === 'MKT' || terms.prctyp === 'SL-MKT';
  if (!market && !onTick(terms.prc, rules.ti)) return `Price ${terms.prc} is not a multiple of tick size ${rules.ti}`;
  if (terms.qty % rules.ls !== 0) return `Quantity ${terms.qty} is not a multiple of lot size ${rules.ls}`;
  return undefined;
};

/** Listed symbols of an exchange whose name contains `text` (SearchScrip), at most `limit`. */
export const searchListed = (exch: string, text: string, now: Date, limit = 20): string[] => {
  const wanted = text.trim().toUpperCase();
  if (exch === 'NSE' || exch === 'BSE') return LISTED_EQUITIES[exch].filter((s) => s.includes(wanted)).slice(0, limit);
  if (exch === 'NFO') return isIndexContract(wanted, now) ? [wanted] : [];
  return [];
};
