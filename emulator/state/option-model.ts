/**
 * The price of an index contract at a level of its index (docs/reference/emulator.md, "Indices and options"): a
 * sandbox model, simple and deterministic, not a pricing model of the market.
 *
 *   future = level
 *   option = intrinsic + time value, on the tick (nearest), at least one tick
 *   intrinsic  = max(0, level - strike) for a call, max(0, strike - level) for a put
 *   time value = atm * exp(-|level - strike| / (2 * atm)),  atm = TIME_VALUE_RATE * level * sqrt(days to expiry)
 *
 * Days to expiry run to 15:30 India time on the expiry date (the close of trading), in fractions of a day, and are
 * never below 0: at the close of its expiry day an option is worth its intrinsic value (at least one tick). So the
 * time value decays toward expiry (as the square root of the time left) and shrinks away from the money.
 */
import { type IndexContract, parseIndexContract } from './indices.js';

/** The at-the-money time value per square root of a day, as a fraction of the level (0.3%: NIFTY 25000, 7 days, 198). */
export const TIME_VALUE_RATE = 0.003;
/** Index derivatives trade on this tick (symbols.ts instrumentRules). */
const TICK = 0.05;
const DAY_MS = 86_400_000;
/** 15:30 India time (UTC+05:30) is 10:00 UTC. */
const EXPIRY_CLOSE_UTC_MS = 10 * 3_600_000;

/** The days (fractional) from `now` to the close of trading on the expiry date, never below 0. */
export const daysToExpiry = (expiry: number, now: Date): number =>
  Math.max(0, (expiry + EXPIRY_CLOSE_UTC_MS - now.getTime()) / DAY_MS);

/** The time value of an option of `strike` at `level` with `days` to expiry (before rounding to the tick). */
export const timeValue = (level: number, strike: number, days: number): number => {
  const atm = TIME_VALUE_RATE * level * Math.sqrt(days);
  return atm > 0 ? atm * Math.exp(-Math.abs(level - strike) / (2 * atm)) : 0;
};

const onTick = (price: number): number => {
  const ticks = Math.max(1, Math.round(price / TICK));
  return Math.round(ticks * TICK * 100) / 100;
};

/** A contract's price at `level` of its index at `now`. */
export const contractPriceAt = (contract: IndexContract, level: number, now: Date): number => {
  if (contract.future) return onTick(level);
  const strike = contract.strike!;
  const intrinsic = Math.max(0, contract.type === 'C' ? level - strike : strike - level);
  return onTick(intrinsic + timeValue(level, strike, daysToExpiry(contract.expiry, now)));
};

/** The price of the index contract `tsym` names at `level` of its index at `now`, or undefined for another symbol. */
export const modelPriceOf = (exch: string, tsym: string, level: number, now: Date): number | undefined => {
  const contract = parseIndexContract(exch, tsym);
  return contract ? contractPriceAt(contract, level, now) : undefined;
};
