/**
 * autoCover (docs/explanation/coverage.md): the OCO an uncovered position gets at the trader's distances from its
 * average price (target above and stop below for a long, the reverse for a short), on the instrument's tick, for the
 * uncovered quantity, and its idempotency key: one per IST day, position and net quantity, so a retried or a later
 * run's place of the same cover is answered by the journal with the first one, never sent twice.
 */
import { createHash } from 'node:crypto';

import type { CoverageSettings, PositionCoverage } from '../base/schemas/coverage.js';
import { indiaDay } from '../base/schemas/india-time.js';
import { add, compare, decimalOf, isPositive, sub, toGrid } from '../orders/safety/grid.js';

/** The tag autoCover's OCOs carry (the broker's remarks): a trader sees at a glance who placed it. */
export const AUTO_COVER_TAG = 'autocover';

/** A distance (`5`, `1.5%`) in points from `price`. */
const pointsOf = (distance: string, price: number): string =>
  distance.endsWith('%') ? decimalOf((price * Number(distance.slice(0, -1))) / 100) : distance;

/** The position's identity in keys and event ids: exchange, symbol, product. */
export const positionKey = (p: Pick<PositionCoverage, 'exch' | 'tsym' | 'product'>): string =>
  `${p.exch}:${p.tsym}:${p.product}`;

/**
 * The cover's idempotency key: the IST day, a digest of the position, its net quantity (1-128 of [A-Za-z0-9_.:-]);
 * and `-o<qty>` when the OCO is for less than the uncovered quantity (live plans owe the rest): a plan that later
 * gives up leaves the rest to a cover of its own, never answered by (or refused as a reuse of) the part's key; and
 * `-b<bought>s<sold>`, the day's traded quantities, so a position closed (its cover fired) and opened again at the
 * same size is covered afresh, while a cover the trader cancelled by hand (nothing traded) is not placed again.
 */
export const coverKey = (
  position: PositionCoverage,
  now: number,
  qty: number = position.uncoveredQty,
  day?: { boughtQty: number; soldQty: number },
): string =>
  `cover-${indiaDay(now)}-${createHash('sha256').update(positionKey(position)).digest('hex').slice(0, 16)}-${position.netQty}${qty === position.uncoveredQty ? '' : `-o${qty}`}${day ? `-b${day.boughtQty}s${day.soldQty}` : ''}`;

export type CoverOrder =
  | { ok: true; target: string; stopLoss: string; qty: number; input: Record<string, unknown> }
  | { ok: false; reason: string };

/**
 * The OCO that covers `qty` of the position (its uncovered quantity, less what live plans owe it), or why there is
 * none to place.
 */
export const coverOrder = (
  position: PositionCoverage,
  autoCover: NonNullable<CoverageSettings['autoCover']>,
  tick: string,
  qty: number = position.uncoveredQty,
): CoverOrder => {
  const avg = decimalOf(position.averagePrice);
  const long = position.netQty > 0;
  const t = pointsOf(autoCover.target, position.averagePrice);
  const s = pointsOf(autoCover.stop, position.averagePrice);
  // Never nearer than asked: a long's target rounds up and its stop down; a short's the other way.
  const target = long ? toGrid(add(avg, t, tick), tick, 1) : toGrid(sub(avg, t, tick), tick, -1);
  const stopLoss = long ? toGrid(sub(avg, s, tick), tick, -1) : toGrid(add(avg, s, tick), tick, 1);
  if (!isPositive(target) || !isPositive(stopLoss) || compare(target, stopLoss) === 0)
    return {
      ok: false,
      reason: `autoCover's distances from the average price ${avg} give target ${target} and stop ${stopLoss}: a trigger must be above 0; use smaller distances`,
    };
  const side = long ? 'S' : 'B';
  const leg = (trigger: string) => ({
    trigger,
    order: { trantype: side, prctyp: 'LMT', qty, prc: trigger, prd: position.product },
  });
  return {
    ok: true,
    target,
    stopLoss,
    qty,
    input: {
      exch: position.exch,
      tsym: position.tsym,
      target: leg(target),
      stopLoss: leg(stopLoss),
      tag: AUTO_COVER_TAG,
    },
  };
};
