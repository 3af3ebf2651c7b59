/**
 * `GET /options`: the day's option chain of an index as traders name it (docs/reference/options.md): its input
 * (`underlying`, `expiry`) and what it answers.
 */
import * as z from 'zod';

import { EXPIRY_PICK, INDEX_NAMES, indexNamed } from './option-plan.js';

export const optionChainInput = z
  .object({
    underlying: z
      .string({ error: `underlying is required: one of ${Object.keys(INDEX_NAMES).join(', ')}` })
      .refine((name) => indexNamed(name) !== undefined, {
        error: (issue) =>
          `underlying must be an index as traders name it (${Object.keys(INDEX_NAMES).join(', ')}) or its broker symbol ("Nifty 50"), got ${JSON.stringify(issue.input)}`,
      }),
    expiry: z
      .string()
      .regex(EXPIRY_PICK, { error: 'expiry must be "nearest" (the default), "next-month" or a listed date YYYY-MM-DD' })
      .optional(),
  })
  .strict();

export type OptionChainInput = z.output<typeof optionChainInput>;

const contract = z.object({ tsym: z.string(), token: z.string() });

export const optionChainResult = z.object({
  /** The index as traders name it, and where the broker lists it (its quote). */
  underlying: z.object({ name: z.string(), exch: z.string(), tsym: z.string(), token: z.string() }),
  /** The exchange of its options (NFO, BFO). */
  exch: z.string(),
  /** Every expiry listed today, ascending. */
  expiries: z.array(z.string()),
  /** The expiry answered. */
  expiry: z.string(),
  lot: z.number(),
  tick: z.string(),
  /** The most common gap between listed strikes (option-pick.ts `strikeStepOf`). */
  strikeStep: z.number(),
  /** The index's last price and the listed strike nearest it, when its quote could be read now. */
  ltp: z.string().optional(),
  atm: z.number().optional(),
  /** Why `ltp` and `atm` are left out. */
  note: z.string().optional(),
  strikes: z.array(z.object({ strike: z.number(), CE: contract.optional(), PE: contract.optional() })),
});

export type OptionChainResult = z.output<typeof optionChainResult>;
