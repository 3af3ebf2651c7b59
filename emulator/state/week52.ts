/**
 * The market's 52-week high and low (docs/reference/emulator.md, "The 52-week range"): each priced symbol has one,
 * GetQuotes answers it (`wk52_h`, `wk52_l`), and LTP_A_52HIGH / LTP_B_52LOW fire on it (alert-rules.ts).
 *
 * - **Seeded** from the symbol's first price (its start price, or the first set by hand): the high 25% above it,
 *   rounded up to the tick, the low 25% below it, rounded down (at least one tick). Sandbox figures, not market
 *   data: wider than every band but the index options' (±40%), so the seeded walk of a day rarely makes a new one.
 * - **Set** by the control surface (`POST /_emulator/ltp` with `week52High`, `week52Low`) before the price it comes
 *   with is applied; a side not given keeps its value (or its seed), never crossing the other.
 * - **Moved** by every price beyond it, after the alerts have seen it: a price above the high is the new high, below
 *   the low the new low (so a 52-week alert fires on the price that makes a new one, once).
 */
import type { MarketFigures } from './alert-rules.js';
import { instrumentRules } from './symbols.js';

/** The seeded range's distance from the first price, in percent of it. */
export const WEEK52_SEED_PERCENT = 25;

const SCALE = 10_000;

export interface Week52 {
  week52High: number;
  week52Low: number;
}

/** The range seeded from a symbol's first price, on the tick (the high up, the low down, never below one tick). */
export const seedWeek52 = (exch: string, tsym: string, price: number): Week52 => {
  const tick = Math.round(Number(instrumentRules(exch, tsym).ti) * SCALE);
  const p = Math.round(price * SCALE);
  const high = Math.ceil((p * (100 + WEEK52_SEED_PERCENT)) / 100 / tick) * tick;
  const low = Math.max(tick, Math.floor((p * (100 - WEEK52_SEED_PERCENT)) / 100 / tick) * tick);
  return { week52High: high / SCALE, week52Low: low / SCALE };
};

/**
 * The symbol's range, seeded from `price` where a side is not held yet (a side set alone never crosses the other):
 * the figures as stored.
 */
export const withWeek52 = (
  figures: MarketFigures | undefined,
  exch: string,
  tsym: string,
  price: number,
): MarketFigures & Week52 => {
  const seed = seedWeek52(exch, tsym, price);
  const high = figures?.week52High ?? Math.max(seed.week52High, figures?.week52Low ?? 0);
  const low = figures?.week52Low ?? Math.min(seed.week52Low, high);
  return { ...figures, week52High: high, week52Low: low };
};

/** The range after a price: a price beyond it is its new high or low. */
export const extendWeek52 = (range: Week52, price: number): Week52 => ({
  week52High: Math.max(range.week52High, price),
  week52Low: Math.min(range.week52Low, price),
});

/** GetQuotes' `wk52_h`, `wk52_l`: decimal strings with the instrument's price precision, as a live reply writes them. */
export const week52Fields = (exch: string, tsym: string, range: Week52): { wk52_h: string; wk52_l: string } => {
  const pp = instrumentRules(exch, tsym).pp;
  return { wk52_h: range.week52High.toFixed(pp), wk52_l: range.week52Low.toFixed(pp) };
};

/** The figures after the control surface set a side of the range: the side not set moves to it rather than cross it. */
export const uncrossed = (figures: MarketFigures, given: MarketFigures): MarketFigures => {
  const { week52High: high, week52Low: low } = figures;
  if (high === undefined || low === undefined || high >= low) return figures;
  return given.week52Low !== undefined ? { ...figures, week52High: low } : { ...figures, week52Low: high };
};

/**
 * `week52High`, `week52Low` of `POST /_emulator/ltp`: positive numbers, the high not below the low when both are
 * given; the range given, or the error's words.
 */
export const week52Input = (body: Record<string, unknown>): Partial<Week52> | string => {
  const range: Partial<Week52> = {};
  for (const name of ['week52High', 'week52Low'] as const) {
    const value = body[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      return `${name}, when given, is a positive price`;
    range[name] = value;
  }
  if (range.week52High !== undefined && range.week52Low !== undefined && range.week52High < range.week52Low)
    return 'week52High must not be below week52Low';
  return range;
};
