/**
 * create_plan's arguments by kind (docs/reference/assistants.md): a bracket, a trailing stop, an option entry or
 * option legs, each with the fields it needs; a missing one, or one of another kind, is named with what the kind takes
 * before anything is read or sent. The option entry's fields are the body of `POST /plans {kind: "option-entry"}`
 * (functions/base/schemas/option-plan.ts), the legs' of `{kind: "option-legs"}` (option-legs.ts: each leg's exch
 * said by its symbol, BFO for SENSEX and BANKEX, else NFO); the gateway checks them whole at the preview's dry run.
 * Either option kind takes a product (`prd`, as the gateway does: C, M or H, default M); an option entry takes a cap
 * on its entry's value (`maxValue`, rupees), which an assistant's maxValuePerOrder sets too (mcp/limits.ts).
 */
import * as z from 'zod';

import { PRODUCTS } from '../functions/base/schemas/fields.js';
import { INDEX_NAMES } from '../functions/base/schemas/option-plan.js';
import { closed } from './schema-forms.js';

type Args = Record<string, unknown>;

/** An option entry's own fields (it buys: the gateway's default). */
export const optionEntryShape = {
  underlying: z.enum(Object.keys(INDEX_NAMES) as [string, ...string[]]).optional(),
  when: closed({ above: z.number().optional(), below: z.number().optional() }, 'when').optional(),
  pick: closed(
    {
      expiry: z.string().describe('nearest, next-month or YYYY-MM-DD'),
      // A string (a type list is refused by strict clients); a strike's number is sent as the number the API takes.
      strike: z
        .string()
        .transform((v) => (/^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v))
        .describe('ATM, ATM+n, ATM-n or a strike'),
      type: z.enum(['CE', 'PE']),
    },
    'pick',
  ).optional(),
  lots: z.number().optional(),
  exit: closed({ stop: z.string(), target: z.string() }, 'exit')
    .describe('on the premium: points "20" or "25%"')
    .optional(),
};

/** What an option plan may add: its product (either kind; default M) and its entry's cap (option-entry only). */
export const optionExtrasShape = {
  prd: z.enum(PRODUCTS).optional(),
  maxValue: z.number().optional(),
};

/** A legs plan's legs (its exit is the option entry's): kept short, the tools' list is nearly full. */
export const legsShape = {
  legs: z
    .array(
      closed({ tsym: z.string(), trantype: z.enum(['B', 'S']), lots: z.number() }, 'a leg').transform((l) => ({
        exch: /^(SENSEX|BANKEX)/.test(l.tsym) ? 'BFO' : 'NFO',
        ...l,
      })),
    )
    .optional(),
};

const BRACKET = ['entry', 'target', 'stopLoss'];
const TRAILING = ['order', 'trailBy', 'step'];
const OPTION = Object.keys(optionEntryShape);
const LEGS = ['legs'];
const EXTRAS = Object.keys(optionExtrasShape);

/** The fields of each kind of plan: a missing one, or one of the other kinds, is named with what the kind takes. */
const PLAN_FIELDS = {
  bracket: {
    needs: BRACKET,
    others: [...TRAILING, ...OPTION, ...LEGS, ...EXTRAS],
    takes: 'entry (a place_gtt body), target and stopLoss ({"trigger", "price"}), optional tag',
  },
  'trailing-stop': {
    needs: ['order', 'trailBy'],
    others: [...BRACKET, ...OPTION, ...LEGS, ...EXTRAS],
    takes: 'order (a place_gtt body), trailBy, optional step and tag',
  },
  'option-entry': {
    needs: OPTION,
    others: [...BRACKET, ...TRAILING, ...LEGS],
    takes:
      'underlying (NIFTY...), when ({"above": level} or {"below": level}), pick ({expiry, strike, type}), lots, exit ({stop, target}), optional prd (C, M, H; default M), maxValue (rupees: the most the entry may be worth) and tag',
  },
  'option-legs': {
    needs: ['legs', 'exit'],
    others: [...BRACKET, ...TRAILING, ...OPTION.filter((field) => field !== 'exit'), 'maxValue'],
    takes: 'legs (2 to 4 of {tsym, trantype, lots}), exit ({stop, target}), optional prd (C, M, H; default M) and tag',
  },
} as const;

export const planFields = (args: Args, ctx: z.RefinementCtx): void => {
  const kind = args.kind as keyof typeof PLAN_FIELDS;
  const a = kind.startsWith('option') ? 'an' : 'a';
  const { needs, others, takes } = PLAN_FIELDS[kind];
  const missing = needs.filter((field) => args[field] === undefined);
  const foreign = others.filter((field) => args[field] !== undefined);
  if (missing.length)
    ctx.addIssue({
      code: 'custom',
      path: [missing[0]!],
      message: `${a} ${kind} plan needs ${missing.join(' and ')}; it takes ${takes}. Nothing was sent.`,
    });
  if (foreign.length)
    ctx.addIssue({
      code: 'custom',
      path: [foreign[0]!],
      message: `${foreign.join(' and ')} ${foreign.length > 1 ? 'are not fields' : 'is not a field'} of ${a} ${kind} plan; it takes ${takes}. Nothing was sent.`,
    });
};
