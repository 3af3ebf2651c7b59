/**
 * A legs-as-one plan as the Plans view shows it (docs/reference/console.md, note 5; docs/reference/plans.md, "Legs as
 * one"): each leg (its side, lots, contract, fill, what is open, its close being placed), the net premium at the fills,
 * the stop and target in words, and whether every leg is being closed. Read loosely: a record missing a part says so,
 * never breaks the row. And the new legs plan's form (legs-plan-form.ts): its legs picked from the chain
 * (`GET /options`) as the body of `POST /plans {kind: "option-legs"}`. Pure: tested in
 * test/unit/console-legs-plan.test.ts.
 */
import { TERMINAL } from '../../../functions/base/schemas/event-types.js';
import { MAX_LEGS } from '../../../functions/base/schemas/option-legs.js';
import { distanceWords, indian, legsOfDryRun } from '../../../functions/base/schemas/option-words.js';
import { price } from '../format.js';
import type { OptionChain, Plan } from '../reads.js';
import { distanceOf, EXIT_START, type ExitFieldValues, numberOr } from './option-plan-values.js';

type Legs = NonNullable<Plan['legs']>;
type Leg = Legs['legs'][number];

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** `+40.3` / `-40` / `0`: points of the net premium, signed. */
const signedPoints = (n: number): string => (n > 0 ? `+${indian(round2(n))}` : indian(round2(n)));

/** `S 1 lot NFO:NIFTY08DEC26C25000`: a leg's side, lots and contract. */
const legName = (leg: { trantype: string; lots: number; exch: string; tsym: string }): string =>
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

/**
 * A dry run's legs, bought legs first: `S 1 lot NFO:NIFTY08DEC26C25000: 65 at limit 76.20 (last 80.20)` (an index
 * option's tick is 0.05: its last price in paise).
 */
export const dryRunLegLines = (dryRun: unknown): string[] =>
  (legsOfDryRun(dryRun) ?? []).map(
    (l) =>
      `${legName(l)}: ${l.qty} at limit ${l.prc}${l.lastPrice === undefined ? '' : ` (last ${l.lastPrice.toFixed(2)})`}`,
  );

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
  if (legs.closing && !TERMINAL.includes(plan.state))
    lines.push(`Closing every leg (close ${legs.closing.gen}); the plan ends ${legs.closing.end} once flat`);
  return lines;
};

/** One leg of the new legs plan's form: a strike of the chain (its number), CE or PE, the side, lots. */
export interface LegFields {
  strike: string;
  type: 'CE' | 'PE';
  side: 'B' | 'S';
  lots: string;
}

/** The new legs plan's form: the chain it picks from (an index, an expiry), its legs, the product and the exit. */
export interface LegsFields extends ExitFieldValues {
  underlying: string;
  /** `nearest` until the trader picks a listed expiry (`2026-12-08`) of the chain. */
  expiry: string;
  legs: LegFields[];
}

/** The part of `GET /options`'s answer the form reads. */
export type Chain = Pick<OptionChain, 'exch' | 'expiry' | 'expiries' | 'strikes' | 'atm'>;

/** A strike left empty is the chain's ATM once read. The start: a short straddle, one lot a leg. */
export const LEGS_START: LegsFields = {
  underlying: 'NIFTY',
  expiry: 'nearest',
  legs: [
    { strike: '', type: 'CE', side: 'S', lots: '1' },
    { strike: '', type: 'PE', side: 'S', lots: '1' },
  ],
  ...EXIT_START,
};

/** The chain's ATM strike: its own, or (the index's quote unread) the middle listed strike. */
export const atmOf = (chain: Chain): number | undefined =>
  chain.atm ?? chain.strikes[Math.floor(chain.strikes.length / 2)]?.strike;

/** The strikes a leg offers: every listed one, ATM marked (`25,000 (ATM)`). */
export const strikeChoices = (chain: Chain | undefined): [string, string][] => {
  if (!chain) return [];
  const atm = atmOf(chain);
  return chain.strikes.map((s) => [String(s.strike), `${indian(s.strike)}${s.strike === atm ? ' (ATM)' : ''}`]);
};

/** The legs with every strike the chain does not list (none yet, or another expiry's) set to its ATM. */
export const legsOnChain = (legs: LegFields[], chain: Chain): LegFields[] => {
  const atm = String(atmOf(chain) ?? '');
  const listed = new Set(chain.strikes.map((s) => String(s.strike)));
  return legs.map((l) => (listed.has(l.strike) ? l : { ...l, strike: atm }));
};

/**
 * A preset's legs, sold, of `lots` each: a straddle (the ATM call and put) or a strangle (the call `away` listed
 * strikes above ATM, the put as many below).
 */
export const presetLegs = (preset: 'straddle' | 'strangle', chain: Chain, lots: string, away = 2): LegFields[] => {
  const atm = atmOf(chain);
  const at = Math.max(
    0,
    chain.strikes.findIndex((s) => s.strike === atm),
  );
  const n = preset === 'straddle' ? 0 : away;
  const strike = (i: number) => String(chain.strikes[Math.min(chain.strikes.length - 1, Math.max(0, i))]?.strike ?? '');
  return [
    { strike: strike(at + n), type: 'CE', side: 'S', lots },
    { strike: strike(at - n), type: 'PE', side: 'S', lots },
  ];
};

/** A leg's contract: the symbol the chain lists at its strike and type, or '' (the gateway then names the leg). */
const tsymOf = (leg: LegFields, chain: Chain | undefined): string =>
  chain?.strikes.find((s) => String(s.strike) === leg.strike.trim())?.[leg.type]?.tsym ?? '';

/** The body of `POST /plans` for a legs plan; each leg's symbol read from the chain. */
export const legsPlanOf = (f: LegsFields, chain: Chain | undefined) => ({
  kind: 'option-legs' as const,
  legs: f.legs.map((l) => ({
    // The chain's options' exchange (NFO, BFO for SENSEX); the gateway checks it as any leg's.
    exch: (chain?.exch ?? 'NFO') as 'NFO' | 'BFO',
    tsym: tsymOf(l, chain),
    trantype: l.side,
    lots: numberOr(l.lots) as number,
  })),
  exit: { stop: distanceOf(f.stop, f.stopUnit), target: distanceOf(f.target, f.targetUnit) },
  prd: f.prd,
  ...(f.tag.trim() ? { tag: f.tag.trim() } : {}),
});

/** The form's field of each field the API names in a refusal (`legs.1.lots` → `leg1-lots`). */
export const LEGS_FIELD_OF: Record<string, string> = {
  ...Object.fromEntries(
    Array.from({ length: MAX_LEGS }, (_, i) => i).flatMap((i) => [
      [`legs.${i}`, `leg${i}-strike`],
      [`legs.${i}.tsym`, `leg${i}-strike`],
      [`legs.${i}.trantype`, `leg${i}-side`],
      [`legs.${i}.lots`, `leg${i}-lots`],
    ]),
  ),
  'exit.stop': 'stop',
  'exit.target': 'target',
  prd: 'prd',
  tag: 'tag',
};
