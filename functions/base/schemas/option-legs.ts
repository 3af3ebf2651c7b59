/**
 * A legs-as-one plan's input (`POST /plans {kind: "option-legs"}`) and its part of the plan's record: two to four
 * option legs (a straddle, a strangle, a spread) entered together, with one stop and one target on the legs' combined
 * premium, closed together (docs/reference/plans.md, "Legs as one").
 *
 * Decisions: each leg counts `lots` (never `qty`); no two legs name the same contract; the product (default `M`)
 * is the plan's, one for every leg; the exit's stop and target are premium points of the net premium per unit of the
 * smallest leg ("20") or a percentage of the entry's net premium ("25%"), as option-entry's are.
 */
import * as z from 'zod';

import { enumOf, orderTag, PRODUCTS, tradingSymbol, TRANSACTION_TYPES } from './fields.js';
import { exitDistance } from './option-plan.js';

/** The exchanges whose options a legs plan trades (the index options of NSE and BSE). */
export const LEG_EXCHANGES = ['NFO', 'BFO'] as const;
export const MIN_LEGS = 2;
export const MAX_LEGS = 4;

const leg = z.strictObject({
  exch: enumOf('legs[].exch', LEG_EXCHANGES),
  tsym: tradingSymbol(),
  trantype: enumOf('legs[].trantype', TRANSACTION_TYPES),
  lots: z
    .number({ error: 'legs[].lots must be a whole number of lots (1 lot of NIFTY is its lot size in units)' })
    .int()
    .positive()
    .max(1000),
  qty: z.undefined({ error: 'a leg counts lots: write "lots": N, not qty' }).optional(),
});

export const optionLegsInput = z.strictObject({
  kind: z.literal('option-legs'),
  legs: z
    .array(leg)
    .min(MIN_LEGS, { error: `legs must list ${MIN_LEGS} to ${MAX_LEGS} option legs (a straddle is two)` })
    .max(MAX_LEGS, { error: `legs must list ${MIN_LEGS} to ${MAX_LEGS} option legs` })
    .superRefine((legs, ctx) => {
      const seen = new Set<string>();
      legs.forEach((l, i) => {
        const id = `${l.exch}:${l.tsym}`;
        if (seen.has(id))
          ctx.addIssue({
            code: 'custom',
            path: [i, 'tsym'],
            message: `${id} is named twice: each leg is a different contract (write its lots once)`,
          });
        seen.add(id);
      });
    }),
  exit: z.strictObject({ stop: exitDistance('exit.stop'), target: exitDistance('exit.target') }),
  prd: enumOf('prd', PRODUCTS).default('M'),
  tag: orderTag.optional(),
});
export type OptionLegsInput = z.output<typeof optionLegsInput>;

const legRecord = z.object({
  exch: z.string(),
  tsym: z.string(),
  token: z.string(),
  trantype: z.enum(['B', 'S']),
  lots: z.number().int(),
  lot: z.number().int(),
  qty: z.number().int(),
  tick: z.string(),
  /** The leg's weight in the net premium: its lots over the smallest leg's lots. */
  weight: z.number(),
  /** The entry's protected limit, fixed when the plan was created (every try of the entry sends the same order). */
  prc: z.string(),
  /** The entry order (its norenordno), once placed; what it filled, and at what average price. */
  entryOrder: z.string().optional(),
  filledQty: z.number().int().optional(),
  fill: z.number().optional(),
  /** Why the leg's entry was not placed (refused by the order core, the kill switch). */
  refused: z.string().optional(),
  /** What of the leg is open now (units). */
  open: z.number().int().optional(),
  /** Its close being placed: the generation (its key), the limit fixed before the first try, the order once placed. */
  closeGen: z.number().int().optional(),
  closePrc: z.string().optional(),
  closeOrder: z.string().optional(),
});
export type LegRecord = z.output<typeof legRecord>;

/** What a legs plan holds: its legs and exit, and once closing, why and how it ends. */
export const optionLegsRecord = z.object({
  legs: z.array(legRecord),
  exit: z.object({ stop: z.string(), target: z.string() }),
  prd: z.string(),
  /** The net premium at the entry's fills (per unit of the smallest leg), and the stop and target in points. */
  entryNet: z.number().optional(),
  stopPoints: z.number().optional(),
  targetPoints: z.number().optional(),
  /** Closing every leg: the state the plan ends in once flat (`done`, `failed`, `cancelled`) and why. */
  closing: z
    .object({ end: z.enum(['done', 'failed', 'cancelled']), why: z.string(), gen: z.number().int() })
    .optional(),
});
export type OptionLegs = z.output<typeof optionLegsRecord>;
