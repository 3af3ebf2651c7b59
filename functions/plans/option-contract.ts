/**
 * An option plan's contract and prices (docs/reference/plans.md, "Option entry"): the contract chosen from the day's
 * chain at the index's price (option-pick.ts: the expiry with the deployment's expiry-day cutoff, then the strike),
 * the quantity (lots × the chain's lot, at most the contract's freeze quantity: refused, never sliced), the entry's
 * protected limit (the option's last price and the market-order protection band, on the tick) and the exit's target
 * and stop from the entry's average fill price (premium points or a percentage, on the tick).
 *
 * Used when the plan is created (the pick must be possible now), by its dry run (the contract it would pick now) and
 * by the watcher's step once the index crossed (the pick at that price: option-entry.ts).
 */
import type { PriceBand } from '../base/broker/market.js';
import { GatewayError, InternalError } from '../base/contract/errors.js';
import { rupees } from '../base/schemas/assistant-limits.js';
import { indexKeyOf, indexNamed, type OptionEntryInput, type OptionPlan } from '../base/schemas/option-plan.js';
import {
  OptionPickError,
  pickContract,
  type PickedOption,
  pickExpiry,
  type StrikePick,
} from '../orders/instruments/option-pick.js';
import { protectedPrice } from '../orders/safety/market-orders.js';
import type { PlanDeps } from './engine-needs.js';
import { bandAt, legLimit } from './legs-rules.js';

export { OptionPickError };

/** Whether the index's price has crossed the plan's level: above, at or over it; below, at or under it. */
export const crossed = (when: OptionPlan['when'], price: number): boolean =>
  when.above !== undefined ? price >= Number(when.above) : price <= Number(when.below);

export const levelWords = (when: OptionPlan['when']): string =>
  when.above !== undefined ? `at or above ${when.above}` : `at or below ${when.below}`;

/** The plan record's option part of a valid input (the index named as traders name it). */
export const optionPartOf = (input: OptionEntryInput): OptionPlan => {
  const index = indexNamed(typeof input.underlying === 'string' ? input.underlying : input.underlying.tsym)!;
  const name = indexKeyOf(index);
  return {
    underlying: { name, exch: index.exch, tsym: index.tsym, token: index.token },
    when: input.when.above !== undefined ? { above: input.when.above } : { below: input.when.below! },
    pick: input.pick,
    lots: input.lots,
    trantype: input.trantype,
    prd: input.prd,
    exit: input.exit,
    ...(input.maxValue !== undefined ? { maxValue: input.maxValue } : {}),
  };
};

/** An entry's value in rupees: its quantity × the protected limit it is sent at, to the paisa. */
export const entryValue = (entry: { qty: number; prc: string }): number =>
  Math.round(entry.qty * Number(entry.prc) * 100) / 100;

/**
 * Why the entry may not be sent: its value (quantity × the limit sent) above the plan's `maxValue`, both numbers
 * said; undefined within it, or without a cap.
 */
export const overCap = (entry: { qty: number; prc: string }, maxValue: number | undefined): string | undefined => {
  if (maxValue === undefined) return undefined;
  const value = entryValue(entry);
  return value > maxValue
    ? `the entry's value ${rupees(value)} (${entry.qty} × ${entry.prc}) is above the plan's maxValue ${rupees(maxValue)}`
    : undefined;
};

/** A read of the chain that failed for a reason of its own (not a pick it cannot answer): retryable. */
const chainUnreadable = (error: unknown): GatewayError | OptionPickError => {
  if (error instanceof OptionPickError || error instanceof GatewayError) return error;
  return new InternalError(
    `the day's option chain could not be read (${error instanceof Error ? error.message : String(error)}); nothing was sent: try again`,
    { outcome: 'not_executed' },
  );
};

/** The contract the plan's pick names at the index's `price`, `now` (OptionPickError: what the chain cannot answer). */
export const pickAt = async (
  deps: Pick<PlanDeps, 'chains' | 'expiryCutoffMinutes'>,
  option: OptionPlan,
  price: number,
  now: number,
  deadline: number,
): Promise<PickedOption> => {
  const index = indexNamed(option.underlying.name) ?? indexNamed(option.underlying.tsym)!;
  try {
    const listed = await deps.chains.expiries(index.derivatives, index.symbol, deadline);
    const expiry = pickExpiry(listed, option.pick.expiry, now, deps.expiryCutoffMinutes);
    const chain = await deps.chains.chain(index.derivatives, index.symbol, expiry, deadline);
    if (!chain) throw new OptionPickError(`${option.underlying.name} ${expiry} is not in today's chain`, 'expiry');
    // The chain is keyed by the master's Symbol (BSXOPT for SENSEX): the pick's words name the index as traders do.
    const named = { ...chain, underlying: option.underlying.name };
    return pickContract(named, price, option.pick.strike as StrikePick, option.pick.type);
  } catch (error) {
    throw chainUnreadable(error);
  }
};

/** Why `lots` of the contract cannot go in one order (above its freeze quantity), or undefined. */
/** The contract a pick chose, as a plan's record and its dry run show it. */
export const contractOf = (picked: PickedOption) => ({
  exch: picked.exch,
  tsym: picked.tsym,
  token: picked.token,
  expiry: picked.expiry,
  type: picked.type,
  strike: picked.strike,
  atm: picked.atm,
  strikeStep: picked.strikeStep,
  lot: picked.lot,
});

/** An option plan's entry order (the plain PlaceOrder's body): a protected limit, IOC; its dry run shows the same. */
export const entryOrderOf = (
  picked: PickedOption,
  option: Pick<OptionPlan, 'trantype' | 'prd'>,
  qty: number,
  lastPrice: number,
  percent: string,
  circuit?: PriceBand,
) => ({
  exch: picked.exch,
  tsym: picked.tsym,
  trantype: option.trantype,
  prd: option.prd,
  qty,
  prctyp: 'LMT',
  ret: 'IOC',
  prc: entryLimit(picked, option.trantype, lastPrice, percent, circuit),
});

export const freezeWords = (picked: PickedOption, lots: number, freeze: number | undefined): string | undefined => {
  const qty = lots * picked.lot;
  if (freeze === undefined || qty <= freeze) return undefined;
  const most = Math.floor(freeze / picked.lot);
  return `${lots} lots of ${picked.tsym} are ${qty} units, above its freeze quantity of ${freeze} (the most one order may carry; an option plan's entry is one order, never sliced): at most ${most} lots`;
};

/** A price on the tick grid: rounded to the nearest tick, or down or up to one. */
export const onTick = (value: number, tick: string, way: 'near' | 'down' | 'up' = 'near'): string => {
  const step = Number(tick);
  const decimals = (tick.split('.')[1] ?? '').replace(/0+$/, '').length;
  const ticks = value / step;
  const n = way === 'down' ? Math.floor(ticks + 1e-9) : way === 'up' ? Math.ceil(ticks - 1e-9) : Math.round(ticks);
  return (n * step).toFixed(decimals);
};

/**
 * The entry's protected limit: a buy above the option's last price (a sell below) by the protection band, inside
 * today's price band where it is known.
 */
export const entryLimit = (
  picked: PickedOption,
  trantype: 'B' | 'S',
  lastPrice: number,
  percent: string,
  circuit?: PriceBand,
): string => legLimit(picked, trantype, lastPrice, percent, circuit);

const distanceOf = (distance: string, fill: number): number =>
  distance.endsWith('%') ? (fill * Number(distance.slice(0, -1))) / 100 : Number(distance);

/**
 * The exit's legs from the entry's average fill price: a long's target above (its limit the trigger), its stop below
 * with a protected limit below its trigger (a short's the other way), on the tick. A stop that would fall to 0 or
 * below stays one tick above 0.
 */
export const exitLegs = (
  exit: OptionPlan['exit'],
  entry: { exch: string; tsym: string; trantype: 'B' | 'S' },
  fill: number,
  tick: string,
  percent: string,
): { target: { trigger: string; price: string }; stopLoss: { trigger: string; price: string } } => {
  const long = entry.trantype === 'B';
  const away = (d: number) => (long ? fill + d : fill - d);
  const toward = (d: number) => (long ? fill - d : fill + d);
  const floor = Number(tick);
  const target = onTick(Math.max(floor, away(distanceOf(exit.target, fill))), tick, long ? 'up' : 'down');
  const stop = onTick(Math.max(floor, toward(distanceOf(exit.stop, fill))), tick, long ? 'down' : 'up');
  const leg = { exch: entry.exch, tsym: entry.tsym, trantype: long ? 'S' : 'B', prctyp: 'MKT', prc: '0' };
  let stopPrice: string;
  try {
    stopPrice = protectedPrice(
      { ...leg, reference: stop, path: 'stopLoss.price' },
      bandAt(entry.exch, entry.tsym, stop, percent),
      tick,
    );
  } catch {
    stopPrice = stop; // a sell this close to 0 cannot sit below its trigger: its limit is the trigger
  }
  return { target: { trigger: target, price: target }, stopLoss: { trigger: stop, price: stopPrice } };
};
