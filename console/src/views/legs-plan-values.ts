/**
 * A legs-as-one plan as the Plans view shows it (docs/reference/console.md, note 5; docs/reference/plans.md, "Legs as
 * one"): each leg (its side, lots, contract, fill, what is open, its close being placed), the net premium at the fills,
 * the stop and target in words, and whether every leg is being closed. Read loosely: a record missing a part says so,
 * never breaks the row. Pure: tested in test/unit/console-legs-plan.test.ts.
 */
import { distanceWords, indian } from '../../../functions/base/schemas/option-words.js';
import { price } from '../format.js';
import type { Plan } from '../reads.js';

type Legs = NonNullable<Plan['legs']>;
type Leg = Legs['legs'][number];

const ENDED = new Set<Plan['state']>(['done', 'failed', 'cancelled']);
const round2 = (n: number): number => Math.round(n * 100) / 100;

/** `+40.3` / `-40` / `0`: points of the net premium, signed. */
export const signedPoints = (n: number): string => (n > 0 ? `+${indian(round2(n))}` : indian(round2(n)));

/** `S 1 lot NFO:NIFTY08DEC26C25000`: a leg's side, lots and contract. */
const legName = (leg: Leg): string =>
  `${leg.trantype} ${leg.lots} lot${leg.lots === 1 ? '' : 's'} ${leg.exch}:${leg.tsym}`;

/** What a leg's entry came to: refused, not placed yet, placed and not known yet, or filled (how much, at what). */
const entryWords = (leg: Leg): string => {
  if (leg.refused) return `refused: ${leg.refused}`;
  if (leg.filledQty !== undefined)
    return leg.filledQty > 0
      ? `filled ${leg.filledQty}${leg.qty && leg.filledQty < leg.qty ? ` of ${leg.qty}` : ''} at ${price(leg.fill, leg.tick)}`
      : `not filled (entry order ${leg.entryOrder ?? '—'})`;
  if (leg.entryOrder) return `entry order ${leg.entryOrder} at the broker, not filled yet`;
  return `entry not placed yet (limit ${price(leg.prc, leg.tick)})`;
};

/** Its close being placed: the order once placed, its limit and the close's try (generation). */
const closeWords = (leg: Leg): string =>
  leg.closeGen === undefined && !leg.closeOrder
    ? ''
    : `; closing: ${leg.closeOrder ? `order ${leg.closeOrder}` : 'being placed'} at limit ${price(leg.closePrc, leg.tick)}${leg.closeGen === undefined ? '' : ` (close ${leg.closeGen})`}`;

/** One line a leg: `S 1 lot NFO:NIFTY08DEC26C25000: filled 65 at 81.40, open 65; closing: order 2412 at limit 75.00 (close 1)`. */
export const legLine = (leg: Leg): string => {
  const open = leg.open ?? (leg.filledQty && leg.filledQty > 0 ? leg.filledQty : undefined);
  return `${legName(leg)}: ${entryWords(leg)}${open === undefined ? '' : `, open ${open}`}${closeWords(leg)}`;
};

/** The net premium at the fills, in words: paid (a debit, bought legs dearer) or received (a credit). */
export const netWords = (legs: Legs): string =>
  legs.entryNet === undefined
    ? 'Net premium: recorded once every leg fills'
    : `Net premium at the fills ${signedPoints(legs.entryNet)} points per unit of the smallest leg (${legs.entryNet >= 0 ? 'paid' : 'received'})`;

/** The exit on the net premium: the stop and target as written, and once filled the moves and nets they close at. */
export const legsExitWords = (legs: Legs): string => {
  const said = `Exit on the net premium: stop ${distanceWords(legs.exit.stop)}, target ${distanceWords(legs.exit.target)}`;
  const { entryNet, stopPoints, targetPoints } = legs;
  if (entryNet === undefined || stopPoints === undefined || targetPoints === undefined)
    return `${said}; every leg closes together`;
  return `${said}; every leg closes together at a move of ${signedPoints(-stopPoints)} or ${signedPoints(targetPoints)} points (net ${signedPoints(entryNet - stopPoints)} or ${signedPoints(entryNet + targetPoints)})`;
};

/** The lines of a legs plan (none for any other plan): each leg, the net premium, the exit, the closing. */
export const legsLines = (plan: Plan): string[] => {
  const legs = plan.legs;
  if (!legs) return [];
  const lines = (legs.legs ?? []).map(legLine);
  if (!lines.length) lines.push('Legs: none recorded');
  lines.push(netWords(legs));
  if (legs.exit) lines.push(legsExitWords(legs));
  if (legs.prd) lines.push(`Product ${legs.prd}, every leg`);
  if (legs.closing && !ENDED.has(plan.state))
    lines.push(`Closing every leg (close ${legs.closing.gen}); the plan ends ${legs.closing.end} once flat`);
  return lines;
};
