/**
 * The arithmetic of a legs-as-one plan (docs/reference/plans.md, "Legs as one"), pure:
 *
 * - each leg's weight is its lots over the smallest leg's lots (a 1:2 ratio spread weighs 1 and 2);
 * - the net premium = Σ sign × price × weight, the sign +1 for a bought leg and −1 for a sold one (a long straddle's
 *   net is positive, a short straddle's negative), in premium points per unit of the smallest leg;
 * - the plan's move (its P&L points) = Σ sign × (price now − fill) × weight = net now − net at the fills: a bought
 *   leg gains when its price rises, a sold leg when it falls;
 * - the stop and target in points: as written ("20"), or a percentage of the magnitude of the entry's net ("25%"),
 *   at least one tick; the exit fires when move ≤ −stop (against) or move ≥ target (for);
 * - every order is a protected LIMIT IOC: a buy above the price read by the market-order protection band, a sell
 *   below it, on the tick (a sell too close to 0 for the band: one tick), and never beyond today's price band (a buy
 *   at most its upper circuit, a sell at least its lower): the exchange refuses a limit outside it.
 */
import type { PriceBand } from '../base/broker/market.js';
import { autoBandPercent, protectedPrice } from '../orders/safety/market-orders.js';

/** The family's option symbols (`NIFTY30DEC25C24500`): a date, then C or P and the strike. */
export const OPTION_TSYM = /\d[CP]\d+(?:\.\d+)?$/;

export interface PricedLeg {
  trantype: 'B' | 'S';
  weight: number;
}

const sign = (leg: PricedLeg): number => (leg.trantype === 'B' ? 1 : -1);
const round2 = (n: number): number => Math.round(n * 100) / 100;

/** The weights of legs of these lots: each leg's lots over the smallest's. */
export const weightsOf = (lots: readonly number[]): number[] => {
  const least = Math.min(...lots);
  return lots.map((l) => l / least);
};

/** The net premium of the legs at these prices (per unit of the smallest leg). */
export const netOf = (legs: readonly PricedLeg[], prices: readonly number[]): number =>
  round2(legs.reduce((sum, leg, i) => sum + sign(leg) * prices[i]! * leg.weight, 0));

/** A distance as points: as written, or a percentage of the entry's net premium's magnitude; at least one tick. */
export const pointsOf = (distance: string, entryNet: number, tick = 0.05): number => {
  const points = distance.endsWith('%') ? (Math.abs(entryNet) * Number(distance.slice(0, -1))) / 100 : Number(distance);
  return Math.max(tick, round2(points));
};

/** Whether the move has crossed the stop (against) or the target (for), or neither. */
export const crossedExit = (move: number, stop: number, target: number): 'stop' | 'target' | undefined =>
  move <= -stop ? 'stop' : move >= target ? 'target' : undefined;

/** The band a protected limit is placed at: the deployment's, or the brokers' table (`auto`) at this price. */
export const bandAt = (exch: string, tsym: string, reference: string, percent: string): string =>
  percent === 'auto' ? autoBandPercent({ exch, tsym, reference }) : percent;

/**
 * A protected IOC limit for `trantype` at the price read: the band on the side that fills, on the tick, kept inside
 * today's price band where it is known (`circuit`: a buy at most `uc`, a sell at least `lc`).
 */
export const legLimit = (
  leg: { exch: string; tsym: string; tick: string },
  trantype: 'B' | 'S',
  price: number,
  percent: string,
  circuit?: PriceBand,
): string => {
  const reference = String(price);
  const band = bandAt(leg.exch, leg.tsym, reference, percent);
  let limit: string;
  try {
    limit = protectedPrice(
      { exch: leg.exch, tsym: leg.tsym, trantype, prctyp: 'MKT', prc: '0', reference, path: 'prc' },
      band,
      leg.tick,
    );
  } catch {
    limit = leg.tick; // a sell too close to 0 for the band: the lowest price there is
  }
  if (circuit && trantype === 'B' && Number(limit) > Number(circuit.uc)) return circuit.uc;
  if (circuit && trantype === 'S' && Number(limit) < Number(circuit.lc)) return circuit.lc;
  return limit;
};

/** `+12.5` / `-3` : a move in words. */
export const signed = (n: number): string => (n > 0 ? `+${round2(n)}` : String(round2(n)));
