/**
 * The forms the tools' published JSON Schemas take, so that strict clients (and ajv's strict mode) accept them: an
 * input is a closed object (`additionalProperties: false`; an unknown argument is refused by name, with the ones the
 * tool takes), a number may come as a JSON number or a decimal string (`anyOf`, never a `type` list), and an open
 * object of an answer says `additionalProperties: true` (never the empty schema).
 */
import * as z from 'zod';

import { canonicalValue, type ValueTable } from '../client/cli/trader-values.js';

/** What a price or quantity string must look like; the gateway then checks it exactly (decimals, sign, size). */
const DECIMAL_TEXT = /^\d+(\.\d+)?$/;

/** A number sent as a JSON number or a decimal string (`"1500.50"`). */
export const num = (what: string) =>
  z
    .union([
      z.number(),
      z.string().regex(DECIMAL_TEXT, { error: `${what} must be a number or a decimal string such as "1500.50"` }),
    ])
    .describe(what);

/** A number that may be negative (a trigger of a percentage change, `CH_PER_*`: `-2.5`). */
export const signedNum = (what: string) =>
  z
    .union([
      z.number(),
      z.string().regex(/^-?\d+(\.\d+)?$/, { error: `${what} must be a number or a decimal string such as "-2.5"` }),
    ])
    .describe(what);

const names = (keys: readonly string[]) => keys.map((k) => JSON.stringify(k)).join(', ');

/**
 * A closed object: an argument it does not know is refused, naming it and what it takes (the SDK answers the refusal
 * as `-32602` Invalid params, and nothing runs).
 */
export const closed = <Shape extends z.ZodRawShape>(shape: Shape, what = 'this tool') =>
  z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== 'unrecognized_keys') return undefined;
      const unknown = issue.keys;
      const takes = Object.keys(shape);
      return `${names(unknown)} ${unknown.length > 1 ? 'are not arguments' : 'is not an argument'} of ${what}; it takes ${takes.length ? names(takes) : 'no arguments'}. Nothing was sent.`;
    },
  });

/** An object of an answer that may carry more than its named fields (`additionalProperties: true`). */
export const open = <Shape extends z.ZodRawShape>(shape: Shape, description?: string) =>
  z.looseObject(shape).meta({ additionalProperties: true, ...(description ? { description } : {}) });

/**
 * A field's value as traders (and the command line) write it, read as the API's canonical one: `buy` is B, `nse` is
 * NSE, `limit` is LMT (client/cli/trader-values.ts; any case). `only` narrows the canonical values (an OCO leg's price
 * types). Published as an enum of the canonical values and their other spellings; anything else is refused with what
 * the field takes.
 */
export const traderValue = (field: string, table: ValueTable, description: string, only?: readonly string[]) => {
  const canonical = only ?? table.canonical;
  const aliases = Object.entries(table.aliases).filter(([, to]) => canonical.includes(to));
  const choices = `${canonical.join(', ')}${aliases.length ? ` (also ${aliases.map(([a]) => a.toLowerCase()).join(', ')})` : ''}, any case`;
  return z
    .string()
    .meta({ enum: [...canonical, ...aliases.map(([a]) => a.toLowerCase())] })
    .transform((typed, ctx) => {
      const value = canonicalValue(table, typed);
      if (value !== undefined && canonical.includes(value)) return value;
      ctx.addIssue({
        code: 'custom',
        message: `${field} must be ${choices}; got ${JSON.stringify(typed.slice(0, 40))}`,
      });
      return z.NEVER;
    })
    .describe(`${description}, any case`);
};
