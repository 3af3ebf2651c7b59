/**
 * The field rules of caller input (base/schemas/input.ts): the enumerations the broker documents, numbers as plain
 * decimal strings, quantities, trading symbols, GTT order ids and order tags, each refusal naming its field.
 */
import './zod-config.js';

import * as z from 'zod';

import { triggerText } from './alert-types.js';
import { memo } from './values.js';

/**
 * The exchanges of the client record's `exarr` that brokers of this family trade: the four the broker documents
 * for orders, then the derivative, currency and commodity segments. A deployment narrows them with its guardrails.
 */
export const EXCHANGES = ['NSE', 'NFO', 'BSE', 'MCX', 'BFO', 'CDS', 'BCD', 'NCX', 'NCOM', 'BSTAR'] as const;
export const PRODUCTS = ['C', 'M', 'H'] as const;
export const TRANSACTION_TYPES = ['B', 'S'] as const;
export const PRICE_TYPES = ['LMT', 'MKT', 'SL-LMT', 'SL-MKT', 'DS', '2L', '3L'] as const;
export const RETENTIONS = ['DAY', 'EOS', 'IOC'] as const;
export { ALERT_TYPES } from './alert-types.js';
export const VALIDITIES = ['GTT'] as const;
/** Price types whose order executes at market: they carry price 0. */
export const MARKET_PRICE_TYPES: readonly string[] = ['MKT', 'SL-MKT'];

/** Error option that says "is required" when the field is absent, and `text` when it is present but wrong. */
const rule = (field: string, text: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? `${field} is required` : text),
});

const PLAIN_DECIMAL = /^(0|[1-9]\d{0,11})(\.\d{1,8})?$/;
const POSITIVE_INTEGER = /^[1-9]\d{0,9}$/;

/**
 * A number sent as a JSON number or a numeric string, normalised to the plain decimal string the broker expects.
 * Exponents, signs, hex, blanks and NaN/Infinity are refused rather than guessed at.
 */
export const decimalString = (what: string) =>
  z
    .union([z.number(), z.string()], rule(what, `${what} must be a number or a numeric string`))
    .transform((value, ctx) => {
      const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
      if (!PLAIN_DECIMAL.test(text)) {
        ctx.addIssue({
          code: 'custom',
          message: `${what} must be a plain non-negative decimal number (no sign, exponent or more than 8 decimals), got ${JSON.stringify(value)}`,
        });
        return z.NEVER;
      }
      return text;
    });

/** `d`: a decimal that may carry a sign (a percentage change may fall); what suits each alert type is judged in input.ts. */
export const triggerValue = memo(() =>
  z.union([z.number(), z.string()], rule('d', 'd must be a number or a numeric string')).transform((value, ctx) => {
    const text = triggerText(value);
    if (text === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `d must be a plain decimal number (no exponent or more than 8 decimals), got ${JSON.stringify(value)}`,
      });
      return z.NEVER;
    }
    return text;
  }),
);

export const quantity = memo(() =>
  z.union([z.number(), z.string()], rule('qty', 'qty must be a number or a numeric string')).transform((value, ctx) => {
    const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
    if (!POSITIVE_INTEGER.test(text)) {
      ctx.addIssue({ code: 'custom', message: `qty must be a positive whole number, got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return text;
  }),
);

/** Words traders type for a canonical value of one of the enumerations (the command line reads them; the API does not). */
const TRADER_WORDS: Readonly<Record<string, string>> = { BUY: 'B', SELL: 'S', LIMIT: 'LMT', MARKET: 'MKT' };

/** The canonical value a refused one was meant as (`nse`: NSE, `buy`: B), if any: the API stays strict but says it. */
export const canonicalOf = (values: readonly string[], input: unknown): string | undefined => {
  if (typeof input !== 'string') return undefined;
  const upper = input.trim().toUpperCase();
  const meant = values.includes(upper) ? upper : TRADER_WORDS[upper];
  return meant !== undefined && values.includes(meant) ? meant : undefined;
};

/** One of `values` exactly as written; a refusal lists them and names the canonical form of a near miss. */
export const enumOf = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, {
    error: (issue: { input?: unknown }) => {
      if (issue.input === undefined) return `${field} is required`;
      const meant = canonicalOf(values, issue.input);
      return `${field} must be one of ${values.join(', ')}${meant === undefined ? '' : `, got ${JSON.stringify(issue.input)}: use ${meant}`}`;
    },
  });

/**
 * The names traders give the two carry products, taken for their letters: CNC (cash and carry, delivery) is C and
 * NRML (normal, carried forward: F&O and commodities) is M. The order is sent with the letter.
 */
export const PRODUCT_ALIASES = { CNC: 'C', cnc: 'C', NRML: 'M', nrml: 'M' } as const;
type Product = (typeof PRODUCTS)[number];

/** Why a product a trader names is refused, with the letter to use. */
const productRefusal = (input: unknown): string => {
  if (input === undefined) return 'prd is required';
  const named = typeof input === 'string' ? input.trim().toUpperCase() : '';
  if (named === 'MIS' || named === 'I')
    return (
      `prd ${JSON.stringify(input)} is intraday (MIS), which a GTT cannot carry: an intraday position is squared ` +
      'off the same day, while a GTT waits up to a year for its trigger. Use C (CNC, delivery) or M (NRML, carry forward)'
    );
  if (named === 'B' || named === 'BO')
    return `prd ${JSON.stringify(input)} is a bracket order, which a GTT cannot carry: use POST /plans (kind bracket) with prd C or M`;
  const letter =
    named === 'CNC' ? 'C' : named === 'NRML' ? 'M' : (PRODUCTS as readonly string[]).find((p) => p === named);
  return `prd must be one of ${PRODUCTS.join(', ')} (or CNC for C, NRML for M)${letter ? `: use ${letter}` : ''}`;
};

/** `prd`: C, M or H, or the aliases CNC and NRML, answered as their letters. */
export const product = memo(() =>
  z
    .enum([...PRODUCTS, ...(Object.keys(PRODUCT_ALIASES) as (keyof typeof PRODUCT_ALIASES)[])], {
      error: (issue: { input?: unknown }) => productRefusal(issue.input),
    })
    .transform((value): Product =>
      value in PRODUCT_ALIASES ? PRODUCT_ALIASES[value as keyof typeof PRODUCT_ALIASES] : (value as Product),
    ),
);

/**
 * What a trading symbol may hold: printable characters (letters, marks, digits, punctuation, symbols) and the plain
 * space, in Unicode NFC. Refused, each with the code point it found: control characters (C0, DEL, C1), format
 * characters (zero-width, bidi controls, byte-order mark, soft hyphen), unpaired UTF-16 surrogates, private-use and
 * unassigned code points, line and paragraph separators, and every whitespace other than U+0020. So nothing the
 * exchange cannot mean, nothing that displays differently from what it is, and nothing the wire encoder chokes on.
 */
const SYMBOL_REFUSED: readonly (readonly [RegExp, string])[] = [
  [/^\p{Cs}$/u, 'an unpaired UTF-16 surrogate'],
  [/^\p{Cc}$/u, 'a control character'],
  [/^\p{Cf}$/u, 'a format character (zero-width, bidi control or similar)'],
  [/^[\p{Zl}\p{Zp}]$/u, 'a line or paragraph separator'],
  [/^\p{Zs}$/u, 'whitespace other than a plain space'],
  [/^\p{Co}$/u, 'a private-use character'],
  [/^\p{Cn}$/u, 'an unassigned code point'],
];

const symbolProblem = (symbol: string): string | undefined => {
  let position = 0;
  // for...of walks code points; an unpaired surrogate comes out on its own.
  for (const char of symbol) {
    position++;
    if (char === ' ') continue;
    const refused = SYMBOL_REFUSED.find(([pattern]) => pattern.test(char));
    if (refused) {
      const codePoint = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      return `tsym contains U+${codePoint} (${refused[1]}) at character ${position}: a symbol may hold printable characters and plain spaces only`;
    }
  }
  if (symbol.normalize('NFC') !== symbol) {
    return 'tsym must be in Unicode NFC form (composed characters, e.g. Ä as one character rather than A followed by a combining mark)';
  }
  if (symbol.trim() !== symbol) return 'tsym must not have leading or trailing spaces';
  return undefined;
};

/** A trading symbol as the exchange spells it (spaces, &, %, + and = occur); encoded for the wire by the codec. */
export const tradingSymbol = memo(() =>
  z
    .string(rule('tsym', 'tsym must be a string'))
    .min(1, { error: 'tsym must not be empty' })
    .max(64, { error: 'tsym must be at most 64 characters' })
    .superRefine((symbol, ctx) => {
      const problem = symbolProblem(symbol);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
);

/**
 * A GTT order id: a digit string (at most 30 digits), or a JSON number only while it is exact (a whole number below
 * 2^53), sent on as its digit string. A larger JSON number has lost digits before the gateway sees it (the JSON
 * text 26112200000000001 reads as 26112200000000000), so it is refused rather than acted on.
 */
export const gttId = memo(() =>
  z
    .union([z.string(), z.number()], rule('al_id', 'al_id must be the GTT order id returned by place (a digit string)'))
    .transform((value, ctx) => {
      if (typeof value === 'number' && !(Number.isSafeInteger(value) && value >= 0)) {
        ctx.addIssue({
          code: 'custom',
          message:
            Number.isInteger(value) && value > 0
              ? 'al_id is beyond 2^53 and a JSON number cannot hold it exactly: send it as a digit string'
              : 'al_id must be a digit string (or a whole JSON number below 2^53)',
        });
        return z.NEVER;
      }
      const text = String(value);
      if (!/^\d{1,30}$/.test(text)) {
        ctx.addIssue({ code: 'custom', message: 'al_id must be a digit string of at most 30 digits' });
        return z.NEVER;
      }
      return text;
    }),
);
export const gttIdSchema = z.lazy(gttId);

/**
 * A caller's label for an order (a strategy name), sent as the broker's `remarks` and echoed in lists and the
 * triggered history. At most 40 characters of letters, digits, space and `_ . : / -`: brokers of this family cut
 * longer remarks silently, and we refuse rather than let a label be cut.
 */
export const TAG_MAX_LENGTH = 40;
/**
 * The end of remarks that reads as the gateway's stamp (base/broker/order-stamps.ts): `gw.` and ten characters of
 * `0-9 a-v`. A caller's tag never ends so, or the broker's remarks could pass for another write's stamp.
 */
export const STAMP_SHAPED_END = /gw\.[0-9a-v]{10}$/;
export const tag = memo(() =>
  z
    .string(rule('tag', 'tag must be a string'))
    .min(1, { error: 'tag must not be empty (omit it instead)' })
    .max(TAG_MAX_LENGTH, { error: `tag must be at most ${TAG_MAX_LENGTH} characters` })
    .regex(/^[A-Za-z0-9 _.:/-]+$/, { error: 'tag may hold letters, digits, spaces and _ . : / - only' })
    .refine((text) => !STAMP_SHAPED_END.test(text), {
      error:
        "tag must not end in gw. and ten letters or digits: that is the shape of the gateway's own stamp, which it adds to the broker's remarks; change the end of the tag, or drop the tag",
    }),
);
export const orderTag = z.lazy(tag);
