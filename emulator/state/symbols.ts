/**
 * The instruments the emulator knows, so that an order for a symbol no exchange lists is refused as the broker
 * refuses it, instead of being accepted with 201. A small shipped list, enough for demos and tests: liquid NSE
 * equities (`<NAME>-EQ`, the family's cash-segment naming), the same companies on BSE (plain names), and NFO index
 * futures and options of a current expiry, in the family's contract naming:
 *
 *   NIFTY25NOV26F          future:  index, expiry date DDMMMYY, F
 *   NIFTY25NOV26C24000     option:  index, expiry date DDMMMYY, C (call) or P (put), strike
 *
 * and SENSEX's options on BFO (indices.ts):
 *
 *   SENSEX26DEC82000CE     option:  SENSEX, year YY, month MMM, strike, CE or PE (the month's last Thursday)
 *
 * An expiry must be a real calendar date from today (India time) up to 100 days ahead: an expired contract is not
 * listed any more, and nothing further out trades; SENSEX's only the listed monthlies (indices.ts sensexExpiries). The expiry's weekday is not checked (exchanges have moved it more
 * than once). An option's strike must be one of its index's listed strikes (indices.ts: on the strike step, inside
 * the window around the start level). `acceptAnySymbol` (the `--any-symbol` flag) turns the check off.
 *
 * The indices themselves (NSE `Nifty 50`, ..., BSE `SENSEX`: indices.ts) are listed too: quoted and searched, never
 * ordered (tradingRefusal).
 */
import {
  type ContractUnderlying,
  INDEX_ORDER_REASON,
  INDEX_UNDERLYINGS,
  indexInstrument,
  indexOfUnderlying,
  type IndexUnderlying,
  indiaToday,
  INDICES,
  isListedStrike,
  MONTHS,
  parseIndexContract,
  sensexExpiries,
} from './indices.js';

export { INDEX_UNDERLYINGS };

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

/** How far ahead an expiry may lie. */
export const MAX_EXPIRY_DAYS = 100;
const DAY_MS = 86_400_000;
const IST_OFFSET_MS = 5.5 * 3_600_000;

/**
 * A listed index future or option: a real expiry date, today or later, at most MAX_EXPIRY_DAYS ahead (on BFO one of
 * SENSEX's listed monthlies); a listed strike.
 */
const isIndexContract = (exch: string, tsym: string, now: Date): boolean => {
  const contract = parseIndexContract(exch, tsym);
  if (!contract?.realDate) return false;
  if (!contract.future && !isListedStrike(indexOfUnderlying(contract.underlying)!, contract.strike!)) return false;
  const today = indiaToday(now);
  if (exch === 'BFO') return sensexExpiries(today).includes(contract.expiry);
  return contract.expiry >= today && contract.expiry <= today + MAX_EXPIRY_DAYS * DAY_MS;
};

/** Whether the exchange lists `tsym` (the decoded symbol, as the broker reads it). */
export const isListedSymbol = (exch: string, tsym: string, now: Date): boolean => {
  if (exch === 'NSE' || exch === 'BSE') return LISTED_EQUITIES[exch].includes(tsym) || !!indexInstrument(exch, tsym);
  if (exch === 'NFO' || exch === 'BFO') return isIndexContract(exch, tsym, now);
  return false;
};

/**
 * Why an order on `tsym` is refused before it is taken (sent as `Invalid Input : <this>`), or undefined: a symbol the
 * exchange does not list (unless any symbol is taken), an index (never, whatever the switch).
 */
export const tradingRefusal = (exch: string, tsym: string, now: Date, acceptAnySymbol: boolean): string | undefined => {
  if (indexInstrument(exch, tsym)) return INDEX_ORDER_REASON;
  if (!acceptAnySymbol && !isListedSymbol(exch, tsym, now)) return UNKNOWN_SYMBOL_REASON;
  return undefined;
};

/** The index contract names of the nearest listed expiry date given (for docs, demos and tests). */
export const indexContract = (
  underlying: IndexUnderlying,
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
 * to 120); SENSEX's on BFO 20 (BSE). The exchange revises them from time to time: update this table with the
 * circular's date.
 */
export const INDEX_LOT_SIZES: Readonly<Record<ContractUnderlying, number>> = {
  NIFTY: 65,
  BANKNIFTY: 30,
  FINNIFTY: 60,
  MIDCPNIFTY: 120,
  SENSEX: 20,
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
): { underlying: ContractUnderlying; future: boolean } | undefined => {
  const contract = parseIndexContract(exch, tsym);
  return contract ? { underlying: contract.underlying, future: contract.future } : undefined;
};

/** Whether `tsym` is one of the NSE exchange-traded funds listed here. */
export const isEtf = (exch: string, tsym: string): boolean =>
  exch === 'NSE' && (NSE_ETFS as readonly string[]).some((name) => `${name}-EQ` === tsym);

/** Equities (both exchanges) and index derivatives trade on a 0.05 tick; equities in lots of 1. */
export const instrumentRules = (exch: string, tsym: string): InstrumentRules => {
  const underlying = parseIndexContract(exch, tsym)?.underlying;
  const ls = underlying ? INDEX_LOT_SIZES[underlying] : 1;
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

/** Listed symbols of an exchange whose name contains `text` (SearchScrip; an index's in any case), at most `limit`. */
export const searchListed = (exch: string, text: string, now: Date, limit = 20): string[] => {
  const wanted = text.trim().toUpperCase();
  if (exch === 'NSE' || exch === 'BSE') {
    const indices = INDICES.filter((i) => i.exch === exch && i.tsym.toUpperCase().includes(wanted)).map((i) => i.tsym);
    return [...indices, ...LISTED_EQUITIES[exch].filter((s) => s.includes(wanted))].slice(0, limit);
  }
  if (exch === 'NFO' || exch === 'BFO') return isIndexContract(exch, wanted, now) ? [wanted] : [];
  return [];
};
