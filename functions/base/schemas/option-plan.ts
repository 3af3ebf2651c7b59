/**
 * An option plan's input (`POST /plans {kind: "option-entry"}`) and its part of the plan's record: watch an index,
 * and when it crosses a level, buy (or sell) the option the pick names at that moment, then protect it with an OCO on
 * the premium (docs/reference/plans.md, "Option entry"). The indices are named as traders name them.
 *
 * Decisions: the quantity is `lots` (every other body's `qty` counts units; an option plan's `qty` is refused with
 * the way to write it); the product defaults to `M` (NRML); the exit's stop and target are premium points ("20") or
 * a percentage of the entry's fill price ("25%"); `maxValue` (rupees, optional) caps the entry's value (its quantity
 * × the protected limit sent), checked when the index crosses: above it, nothing is sent and the plan fails.
 */
import * as z from 'zod';

import { decimalString, enumOf, orderTag, PRODUCTS, TRANSACTION_TYPES } from './fields.js';

/** An index as traders name it, and where the broker lists it (its quotes) and its options. */
export interface IndexName {
  /** The exchange and symbol of the index itself (its price). */
  exch: string;
  tsym: string;
  token: string;
  /**
   * The exchange its options and futures trade on, and the master's Symbol column for them: the day's chains are
   * keyed by it. Not always the traders' name: SENSEX's options are filed under `BSXOPT` (SENSEX50's, another index,
   * under `SX50OPT`). Replies and records name the index by its key here, never by this.
   */
  derivatives: string;
  symbol: string;
}

/**
 * The indices with options, by the name traders use. The index rows are the family's symbol master's
 * (`NSE,26000,1,Nifty 50,Nifty 50,INDEX,0.05,`); sources in docs/explanation/broker-wire.md, "Indices".
 */
export const INDEX_NAMES: Readonly<Record<string, IndexName>> = {
  NIFTY: { exch: 'NSE', tsym: 'Nifty 50', token: '26000', derivatives: 'NFO', symbol: 'NIFTY' },
  BANKNIFTY: { exch: 'NSE', tsym: 'Nifty Bank', token: '26009', derivatives: 'NFO', symbol: 'BANKNIFTY' },
  FINNIFTY: { exch: 'NSE', tsym: 'Nifty Fin Service', token: '26037', derivatives: 'NFO', symbol: 'FINNIFTY' },
  MIDCPNIFTY: { exch: 'NSE', tsym: 'NIFTY MID SELECT', token: '26074', derivatives: 'NFO', symbol: 'MIDCPNIFTY' },
  SENSEX: { exch: 'BSE', tsym: 'SENSEX', token: '1', derivatives: 'BFO', symbol: 'BSXOPT' },
};

/** The index named `name` (a trader's name in any case, or the broker's index symbol), or undefined. */
export const indexNamed = (name: string): IndexName | undefined => {
  const wanted = name.trim().toUpperCase();
  return INDEX_NAMES[wanted] ?? Object.values(INDEX_NAMES).find((i) => i.tsym.toUpperCase() === wanted);
};

/** The traders' name of an index of INDEX_NAMES (`NIFTY`), whichever way it was named. */
export const indexKeyOf = (index: IndexName): string => Object.keys(INDEX_NAMES).find((k) => INDEX_NAMES[k] === index)!;

/** `ATM`, `ATM+n` or `ATM-n` (n up to 99): listed strikes above or below the one nearest the underlying. */
export const STRIKE_PICK = /^ATM(?:([+-])(\d{1,2}))?$/;
/** An expiry as a pick or a chain's query names it: `nearest`, `next-month` or a date. */
export const EXPIRY_PICK = /^(nearest|next-month|\d{4}-\d{2}-\d{2})$/;
/** Premium points ("20", "12.5") or a percentage of the fill price ("25%"). */
const EXIT_DISTANCE = /^(0|[1-9]\d{0,6})(\.\d{1,2})?%?$/;

const indexField = z
  .union([z.string(), z.strictObject({ exch: z.string(), tsym: z.string() })])
  .superRefine((v, ctx) => {
    const named = typeof v === 'string' ? indexNamed(v) : indexNamed(v.tsym);
    if (!named || (typeof v !== 'string' && named.exch !== v.exch.toUpperCase()))
      ctx.addIssue({
        code: 'custom',
        message: `underlying must be an index traders name (${Object.keys(INDEX_NAMES).join(', ')}) or its broker symbol ({"exch": "NSE", "tsym": "Nifty 50"}), got ${JSON.stringify(v)}`,
      });
  });

/** An exit distance: premium points or a percentage (option-legs.ts uses it too). */
export const exitDistance = (field: string) =>
  z
    .union([z.number(), z.string()])
    .transform((v) => String(v).trim())
    .refine((v) => EXIT_DISTANCE.test(v) && parseFloat(v) > 0, {
      error: `${field} must be premium points ("20") or a percentage of the fill ("25%"), greater than 0`,
    });

const MAX_VALUE_WORDS =
  'maxValue must be a number of rupees greater than 0 (the most the entry may be worth: its quantity × the limit price sent), e.g. 50000; omit it for no cap';

/** The cap on an option entry's value, in rupees. */
export const maxValueField = z
  .number({ error: MAX_VALUE_WORDS })
  .positive({ error: MAX_VALUE_WORDS })
  .max(1e12, { error: MAX_VALUE_WORDS });

export const optionEntryInput = z.strictObject({
  kind: z.literal('option-entry'),
  underlying: indexField,
  when: z
    .strictObject({ above: decimalString('when.above').optional(), below: decimalString('when.below').optional() })
    .refine((w) => (w.above === undefined) !== (w.below === undefined), {
      error: 'when must be {"above": level} or {"below": level}: one of them',
    }),
  pick: z.strictObject({
    expiry: z
      .string()
      .regex(EXPIRY_PICK, { error: 'pick.expiry must be "nearest", "next-month" or a date YYYY-MM-DD' }),
    strike: z.union([z.number().positive(), z.string().regex(STRIKE_PICK)], {
      error: 'pick.strike must be "ATM", "ATM+n", "ATM-n" (listed strikes above or below) or a strike number',
    }),
    type: enumOf('pick.type', ['CE', 'PE'] as const),
  }),
  lots: z
    .number({ error: 'lots must be a whole number of lots (1 lot of NIFTY is its lot size in units)' })
    .int()
    .positive()
    .max(1000),
  trantype: enumOf('trantype', TRANSACTION_TYPES).default('B'),
  prd: enumOf('prd', PRODUCTS).default('M'),
  exit: z.strictObject({ stop: exitDistance('exit.stop'), target: exitDistance('exit.target') }),
  maxValue: maxValueField.optional(),
  tag: orderTag.optional(),
  qty: z.undefined({ error: 'an option plan counts lots: write "lots": N, not qty' }).optional(),
});
export type OptionEntryInput = z.output<typeof optionEntryInput>;

/** What an option plan watches and chose: its part of the plan's record. */
export const optionPlanRecord = z.object({
  underlying: z.object({ name: z.string(), exch: z.string(), tsym: z.string(), token: z.string() }),
  when: z.object({ above: z.string().optional(), below: z.string().optional() }),
  pick: z.object({ expiry: z.string(), strike: z.union([z.string(), z.number()]), type: z.enum(['CE', 'PE']) }),
  lots: z.number().int(),
  trantype: z.enum(['B', 'S']),
  prd: z.string(),
  exit: z.object({ stop: z.string(), target: z.string() }),
  /** The most the entry may be worth (rupees: its quantity × its protected limit), checked when the index crosses. */
  maxValue: z.number().optional(),
  /** Once the underlying crossed: the price it saw, when, and the contract that price chose. */
  resolved: z
    .object({
      at: z.string(),
      price: z.number(),
      exch: z.string(),
      tsym: z.string(),
      token: z.string(),
      expiry: z.string(),
      type: z.enum(['CE', 'PE']),
      strike: z.number(),
      atm: z.number(),
      strikeStep: z.number(),
      lot: z.number().int(),
      qty: z.number().int(),
    })
    .optional(),
  /** The entry order at the broker (its norenordno), once placed. */
  entryOrder: z.string().optional(),
});
export type OptionPlan = z.output<typeof optionPlanRecord>;
