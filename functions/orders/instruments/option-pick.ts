/**
 * Options by the underlying (docs/reference/options.md, docs/reference/plans.md): the indices as traders name them, a day's option chain as
 * the symbol master lists it, and the choice of one contract from it: the expiry (`nearest`, `next-month` or a date)
 * and the strike (`ATM`, `ATM+n`, `ATM-n` or a number) at the underlying's price. Pure: the chain is read elsewhere
 * (the account's copy, written by the daily refresh), the price too.
 *
 * Decisions (written down, tested in test/unit/option-pick.test.ts):
 * - ATM is the listed strike nearest the price; halfway between two, the lower one.
 * - `ATM+n` is n listed strikes above ATM and `ATM-n` n below, for calls and puts alike (a strike, not moneyness).
 * - The strike step is read from the chain (the most common gap between its listed strikes), never assumed.
 * - `nearest` is the first expiry whose last entry time has not passed: on an expiry day within the cutoff (the
 *   last N minutes before 15:30 India time) it is the next expiry. A date given is used as given, and refused when
 *   it is not listed or its last entry time has passed.
 * - `next-month` is the last expiry listed in the next calendar month (its monthly contract).
 * - A strike or expiry the chain does not list is refused, with the nearest ones that exist.
 */
import { IST_OFFSET_MS } from '../../base/schemas/india-time.js';
import { STRIKE_PICK } from '../../base/schemas/option-plan.js';

export { INDEX_NAMES, type IndexName, indexNamed } from '../../base/schemas/option-plan.js';

export type OptionType = 'CE' | 'PE';

/** One listed contract of a chain. */
export interface ChainContract {
  tsym: string;
  token: string;
}

/** A strike of one expiry, with the call and the put the master lists at it. */
export interface ChainStrike {
  strike: number;
  CE?: ChainContract;
  PE?: ChainContract;
}

/** One expiry of an underlying's options, as the day's symbol master lists it. */
export interface ChainExpiry {
  /** The master's Symbol column (`NIFTY`) and the exchange of the contracts (`NFO`). */
  underlying: string;
  exch: string;
  /** India's calendar date, `YYYY-MM-DD`. */
  expiry: string;
  lot: number;
  tick: string;
  /** Ascending, each strike once. */
  strikes: ChainStrike[];
}

/** A contract chosen from a chain, with every choice that led to it. */
export interface PickedOption {
  exch: string;
  tsym: string;
  token: string;
  underlying: string;
  expiry: string;
  type: OptionType;
  strike: number;
  atm: number;
  strikeStep: number;
  lot: number;
  tick: string;
  /** The underlying's price the strike was chosen at. */
  price: number;
}

export type ExpiryPick = 'nearest' | 'next-month' | string;
export type StrikePick = 'ATM' | `ATM+${number}` | `ATM-${number}` | number;

/** A choice the chain cannot answer: what was asked, why, and what exists instead. */
export class OptionPickError extends Error {
  constructor(
    message: string,
    readonly field: 'underlying' | 'expiry' | 'strike' | 'type',
  ) {
    super(message);
    this.name = 'OptionPickError';
  }
}

/** Minutes before the close (15:30 India time) on an expiry day from which no new entry is made by default. */
export const DEFAULT_EXPIRY_CUTOFF_MINUTES = 30;
const CLOSE_MINUTES = 15 * 60 + 30;

/** The last moment a new entry may be made on contracts of `expiry` (epoch ms). */
export const lastEntryAt = (expiry: string, cutoffMinutes: number): number =>
  Date.parse(`${expiry}T00:00:00Z`) - IST_OFFSET_MS + (CLOSE_MINUTES - cutoffMinutes) * 60_000;

/** The expiry a pick names among the listed ones (ascending `YYYY-MM-DD`), at `now`. */
export const pickExpiry = (listed: readonly string[], pick: ExpiryPick, now: number, cutoffMinutes: number): string => {
  const open = listed.filter((e) => lastEntryAt(e, cutoffMinutes) > now);
  if (pick === 'nearest') {
    if (!open.length)
      throw new OptionPickError(`no expiry is open for a new entry (listed: ${listed.join(', ') || 'none'})`, 'expiry');
    return open[0]!;
  }
  if (pick === 'next-month') {
    const today = new Date(now + IST_OFFSET_MS);
    const next = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 1)).toISOString().slice(0, 7);
    const inMonth = listed.filter((e) => e.startsWith(next));
    if (!inMonth.length)
      throw new OptionPickError(`no expiry is listed in ${next} (listed: ${listed.join(', ') || 'none'})`, 'expiry');
    return inMonth[inMonth.length - 1]!;
  }
  if (!listed.includes(pick))
    throw new OptionPickError(
      `no expiry ${pick} is listed (listed: ${listed.join(', ') || 'none'}); use one of them, "nearest" or "next-month"`,
      'expiry',
    );
  if (!open.includes(pick))
    throw new OptionPickError(
      `expiry ${pick} is closed to new entries (its last ${cutoffMinutes} minutes before 15:30 India time, or past); "nearest" takes the next one`,
      'expiry',
    );
  return pick;
};

/** The chain's strike step: the most common gap between adjacent listed strikes (the smallest on a tie). */
export const strikeStepOf = (strikes: readonly ChainStrike[]): number => {
  const counts = new Map<number, number>();
  for (let i = 1; i < strikes.length; i += 1) {
    const gap = Math.round((strikes[i]!.strike - strikes[i - 1]!.strike) * 100) / 100;
    if (gap > 0) counts.set(gap, (counts.get(gap) ?? 0) + 1);
  }
  let best = 0;
  let most = 0;
  for (const [gap, n] of counts) if (n > most || (n === most && gap < best)) [best, most] = [gap, n];
  return best;
};

/** Whether a strike pick is well formed (`ATM`, `ATM+n`, `ATM-n` with n up to 99, or a positive number). */
export const isStrikePick = (pick: unknown): pick is StrikePick =>
  (typeof pick === 'number' && Number.isFinite(pick) && pick > 0) ||
  (typeof pick === 'string' && STRIKE_PICK.test(pick));

/** The contract a pick names in one expiry's chain at the underlying's price. */
export const pickContract = (chain: ChainExpiry, price: number, strike: StrikePick, type: OptionType): PickedOption => {
  const listed = chain.strikes.filter((s) => s[type] !== undefined);
  if (!listed.length)
    throw new OptionPickError(`${chain.underlying} ${chain.expiry} lists no ${type} contract`, 'strike');
  let atmAt = 0;
  for (let i = 1; i < listed.length; i += 1)
    if (Math.abs(listed[i]!.strike - price) < Math.abs(listed[atmAt]!.strike - price)) atmAt = i;
  const atm = listed[atmAt]!.strike;
  let at: number;
  if (typeof strike === 'number') {
    at = listed.findIndex((s) => s.strike === strike);
    if (at < 0) {
      const near = listed
        .map((s) => s.strike)
        .sort((a, b) => Math.abs(a - strike) - Math.abs(b - strike))
        .slice(0, 2)
        .sort((a, b) => a - b);
      throw new OptionPickError(
        `no ${type} at strike ${strike} for ${chain.underlying} ${chain.expiry}: the nearest listed are ${near.join(' and ')}`,
        'strike',
      );
    }
  } else {
    const match = STRIKE_PICK.exec(strike)!;
    const offset = match[1] ? Number(match[2]) * (match[1] === '-' ? -1 : 1) : 0;
    at = atmAt + offset;
    if (at < 0 || at >= listed.length)
      throw new OptionPickError(
        `${strike} is past the listed ${type} strikes of ${chain.underlying} ${chain.expiry} (${listed[0]!.strike} to ${listed[listed.length - 1]!.strike}, ATM ${atm})`,
        'strike',
      );
  }
  const chosen = listed[at]!;
  const contract = chosen[type]!;
  return {
    exch: chain.exch,
    tsym: contract.tsym,
    token: contract.token,
    underlying: chain.underlying,
    expiry: chain.expiry,
    type,
    strike: chosen.strike,
    atm,
    strikeStep: strikeStepOf(chain.strikes),
    lot: chain.lot,
    tick: chain.tick,
    price,
  };
};

/** Where a day's chains are read from (the account's copy of the instruments, written by the daily refresh). */
export interface OptionChains {
  /** The listed expiries of an underlying's options, ascending; empty when the day's master lists none. */
  expiries(exch: string, underlying: string, deadline: number): Promise<string[]>;
  /** One expiry's chain, or undefined when it is not listed today. */
  chain(exch: string, underlying: string, expiry: string, deadline: number): Promise<ChainExpiry | undefined>;
}
