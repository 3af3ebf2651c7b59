/**
 * The indices the emulator lists and their options (docs/explanation/broker-wire.md, "Indices"; docs/reference/emulator.md,
 * "Indices and options"). An index is an instrument of its cash exchange under the family's name and token (NSE
 * `Nifty 50` token 26000, ..., BSE `SENSEX` token 1): quoted, searched, in the master, never ordered. Its NFO
 * contracts are named `NIFTY25NOV26F` (future) and `NIFTY25NOV26C24000` (option); SENSEX's options on BFO
 * `SENSEX26DEC82000CE` (index, year, month, strike, CE or PE: the monthly expiry, the month's last Thursday). Options
 * are listed at a finite set of strikes: STRIKES_EACH_SIDE steps of the index's strike step either side of its start
 * level.
 *
 * Imports nothing of state/: formats.ts (tokens) and symbols.ts (listing) build on it.
 */

/** NSE indices with exchange-traded futures and options (NFO). */
export const INDEX_UNDERLYINGS = ['NIFTY', 'BANKNIFTY', 'FINNIFTY', 'MIDCPNIFTY'] as const;
export type IndexUnderlying = (typeof INDEX_UNDERLYINGS)[number];
/** BSE's index with options on BFO (its master's Symbol for them is `BSXOPT`). */
export const BFO_UNDERLYINGS = ['SENSEX'] as const;
/** An index with contracts listed here, on NFO or BFO. */
export type ContractUnderlying = IndexUnderlying | (typeof BFO_UNDERLYINGS)[number];

/** An index as an instrument of its cash exchange, with what its options are listed by. */
export interface IndexInstrument {
  /** The traders' name, also the symbol its contracts are named by (`NIFTY25NOV26F`). */
  name: ContractUnderlying;
  exch: 'NSE' | 'BSE';
  /** The exchange its contracts trade on. */
  derivatives: 'NFO' | 'BFO';
  /** The family's trading symbol and token of the index (GetQuotes, SearchScrip, the master). */
  tsym: string;
  token: string;
  /** The level the market starts at (round sandbox figures, not market data). */
  level: number;
  /** The distance between listed strikes. */
  step: number;
}

/** The indices, as functions/base/schemas/option-plan.ts INDEX_NAMES names them (same symbols and tokens). */
export const INDICES: readonly IndexInstrument[] = [
  { name: 'NIFTY', exch: 'NSE', tsym: 'Nifty 50', token: '26000', derivatives: 'NFO', level: 25000, step: 50 },
  { name: 'BANKNIFTY', exch: 'NSE', tsym: 'Nifty Bank', token: '26009', derivatives: 'NFO', level: 56000, step: 100 },
  {
    name: 'FINNIFTY',
    exch: 'NSE',
    tsym: 'Nifty Fin Service',
    token: '26037',
    derivatives: 'NFO',
    level: 26500,
    step: 50,
  },
  {
    name: 'MIDCPNIFTY',
    exch: 'NSE',
    tsym: 'NIFTY MID SELECT',
    token: '26074',
    derivatives: 'NFO',
    level: 13000,
    step: 25,
  },
  { name: 'SENSEX', exch: 'BSE', tsym: 'SENSEX', token: '1', derivatives: 'BFO', level: 82000, step: 100 },
];

/** The family's refusal of an order on an index (sent as `Invalid Input : <this>`): an index is not traded. */
export const INDEX_ORDER_REASON = 'Index is not tradable: order its futures or options';

/** How many listed strikes lie on each side of the start level's (so 2 * this + 1 strikes per expiry and type). */
export const STRIKES_EACH_SIDE = 40;

/** The index instrument `exch`/`tsym` names, or undefined. */
export const indexInstrument = (exch: string, tsym: string): IndexInstrument | undefined =>
  INDICES.find((i) => i.exch === exch && i.tsym === tsym);

/** The index a contract's underlying names (`NIFTY` -> NSE `Nifty 50`). */
export const indexOfUnderlying = (name: string): IndexInstrument | undefined => INDICES.find((i) => i.name === name);

/** The listed strikes of an index's options: the start level's strike and STRIKES_EACH_SIDE steps either side. */
export const listedStrikes = (index: IndexInstrument): number[] => {
  const middle = Math.round(index.level / index.step) * index.step;
  return Array.from({ length: 2 * STRIKES_EACH_SIDE + 1 }, (_, i) => middle + (i - STRIKES_EACH_SIDE) * index.step);
};

/** Whether `strike` is one of the index's listed strikes (on the step, inside the window). */
export const isListedStrike = (index: IndexInstrument, strike: number): boolean => {
  const strikes = listedStrikes(index);
  return (strike - strikes[0]!) % index.step === 0 && strike >= strikes[0]! && strike <= strikes[strikes.length - 1]!;
};

export const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

const IST_OFFSET_MS = 5.5 * 3_600_000;

/** Today's date in India, as a UTC midnight timestamp. */
export const indiaToday = (now: Date): number => {
  const india = new Date(now.getTime() + IST_OFFSET_MS);
  return Date.UTC(india.getUTCFullYear(), india.getUTCMonth(), india.getUTCDate());
};

/** `27-JAN-2026`, as the family's NFO and BFO masters write an expiry. */
export const expiryText = (date: Date): string =>
  `${String(date.getUTCDate()).padStart(2, '0')}-${MONTHS[date.getUTCMonth()]}-${date.getUTCFullYear()}`;
const INDEX_CONTRACT = new RegExp(
  `^(${INDEX_UNDERLYINGS.join('|')})(\\d{2})(${MONTHS.join('|')})(\\d{2})(F|([CP])([1-9]\\d{0,5}))$`,
);

const SENSEX_OPTION = new RegExp(`^SENSEX(\\d{2})(${MONTHS.join('|')})([1-9]\\d{0,5})(CE|PE)$`);
const DAY_MS = 86_400_000;

/** The last Thursday of a month (`month` 0 to 11), as UTC midnight: BSE's monthly expiry (Thursday since September 2025). */
export const lastThursday = (year: number, month: number): number => {
  const last = Date.UTC(year, month + 1, 0);
  return last - ((new Date(last).getUTCDay() - 4 + 7) % 7) * DAY_MS;
};

/** How many monthly expiries of SENSEX's options are listed: the current month's and the next two. */
export const SENSEX_MONTHLIES = 3;

/** SENSEX's listed expiries from `today` (India's date as UTC midnight): the next SENSEX_MONTHLIES last Thursdays. */
export const sensexExpiries = (today: number): number[] => {
  const date = new Date(today);
  const out: number[] = [];
  for (let m = date.getUTCMonth(); out.length < SENSEX_MONTHLIES; m += 1) {
    const expiry = lastThursday(date.getUTCFullYear(), m);
    if (expiry >= today) out.push(expiry);
  }
  return out;
};

/** The name of a SENSEX option of the monthly expiry `expiry` (UTC midnight): `SENSEX26DEC82000CE`. */
export const sensexOption = (expiry: number, type: 'C' | 'P', strike: number): string => {
  const date = new Date(expiry);
  const yy = String(date.getUTCFullYear() % 100).padStart(2, '0');
  return `SENSEX${yy}${MONTHS[date.getUTCMonth()]}${strike}${type}E`;
};

/** A SENSEX option on BFO read from its name: a monthly one, its expiry the month's last Thursday. */
const parseSensexOption = (tsym: string): IndexContract | undefined => {
  const match = SENSEX_OPTION.exec(tsym);
  if (!match) return undefined;
  const [, yy, mmm, strike, optt] = match;
  const expiry = lastThursday(2000 + Number(yy), MONTHS.indexOf(mmm!));
  return {
    underlying: 'SENSEX',
    future: false,
    type: optt === 'CE' ? 'C' : 'P',
    strike: Number(strike),
    expiry,
    realDate: true,
  };
};

/** An index contract read from its name: the expiry as a UTC midnight of its date (not checked to be real). */
export interface IndexContract {
  underlying: ContractUnderlying;
  future: boolean;
  /** `C` or `P` for an option. */
  type?: 'C' | 'P';
  strike?: number;
  /** The expiry date, as UTC midnight (`Date.UTC(yyyy, mm, dd)`). */
  expiry: number;
  /** Whether the name's date is a real calendar date (no 31 November). */
  realDate: boolean;
}

/** The index contract `tsym` names on `exch` (NFO's, or SENSEX's options on BFO), or undefined. */
export const parseIndexContract = (exch: string, tsym: string): IndexContract | undefined => {
  if (exch === 'BFO') return parseSensexOption(tsym);
  const match = exch === 'NFO' ? INDEX_CONTRACT.exec(tsym) : null;
  if (!match) return undefined;
  const [, underlying, dd, mmm, yy, kind, type, strike] = match;
  const day = Number(dd);
  const expiry = Date.UTC(2000 + Number(yy), MONTHS.indexOf(mmm!), day);
  const realDate = day >= 1 && new Date(expiry).getUTCDate() === day;
  const future = kind === 'F';
  return {
    underlying: underlying as ContractUnderlying,
    future,
    ...(future ? {} : { type: type as 'C' | 'P', strike: Number(strike) }),
    expiry,
    realDate,
  };
};

/** The token block of listed options, above every hashed token (formats.ts: 1000 to 90999). */
const OPTION_TOKEN_BASE = 1_000_000;

/**
 * The fixed token of an index (its family token) or of a listed option (a number of its own, so no two listed
 * contracts share one: built from the underlying, the expiry's day number modulo 400, the strike's place in the
 * window and the type); undefined for every other symbol (formats.ts hashes its name).
 */
export const fixedToken = (exch: string, tsym: string): string | undefined => {
  const index = indexInstrument(exch, tsym);
  if (index) return index.token;
  const contract = parseIndexContract(exch, tsym);
  if (!contract || contract.future) return undefined;
  const underlying = indexOfUnderlying(contract.underlying)!;
  const place = listedStrikes(underlying).indexOf(contract.strike!);
  if (place < 0) return undefined;
  const day = Math.floor(contract.expiry / DAY_MS) % 400;
  const u = [...INDEX_UNDERLYINGS, ...BFO_UNDERLYINGS].indexOf(contract.underlying);
  const slots = 2 * STRIKES_EACH_SIDE + 1;
  return String(OPTION_TOKEN_BASE + ((u * 400 + day) * slots + place) * 2 + (contract.type === 'C' ? 0 : 1));
};
