/**
 * What callers send, with the spec's field names (section 2.2). `uid` and `actid` are never accepted from the
 * caller: they come from the deployment's secret. Numbers may arrive as JSON numbers or numeric strings and leave
 * as strings; every rule names its field, and unknown fields are rejected (a typo such as `quantity` must not
 * silently fall back to a default).
 */
import * as z from 'zod';

export const EXCHANGES = ['NSE', 'NFO', 'BSE', 'MCX'] as const;
export const PRODUCTS = ['C', 'M', 'H'] as const;
export const TRANSACTION_TYPES = ['B', 'S'] as const;
export const PRICE_TYPES = ['LMT', 'MKT', 'SL-LMT', 'SL-MKT', 'DS', '2L', '3L'] as const;
export const RETENTIONS = ['DAY', 'EOS', 'IOC'] as const;
/** LTP_B_O is the value the spec shows (trigger when LTP goes below `d`); LTP_A_O is its above-`d` twin. */
export const ALERT_TYPES = ['LTP_A_O', 'LTP_B_O'] as const;
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
const decimalString = (what: string) =>
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

const quantity = z
  .union([z.number(), z.string()], rule('qty', 'qty must be a number or a numeric string'))
  .transform((value, ctx) => {
    const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
    if (!POSITIVE_INTEGER.test(text)) {
      ctx.addIssue({ code: 'custom', message: `qty must be a positive whole number, got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return text;
  });

const enumOf = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, rule(field, `${field} must be one of ${values.join(', ')}`));

/** A trading symbol as the exchange spells it (spaces, &, %, + and = occur); encoded for the wire by the codec. */
const tradingSymbol = z
  .string(rule('tsym', 'tsym must be a string'))
  .min(1, { error: 'tsym must not be empty' })
  .max(64, { error: 'tsym must be at most 64 characters' })
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this rule refuses
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s) && s.trim() === s, {
    error: 'tsym must not contain control characters or leading/trailing spaces',
  });

export const gttIdSchema = z
  .union([z.string(), z.number()], rule('al_id', 'al_id must be the GTT order id returned by place (a digit string)'))
  .transform((v) => String(v))
  .refine((s) => /^\d{1,30}$/.test(s), { error: 'al_id must be a digit string of at most 30 digits' });

const orderFields = {
  exch: enumOf('exch', EXCHANGES),
  tsym: tradingSymbol,
  qty: quantity,
  prc: decimalString('prc').optional(),
  prd: enumOf('prd', PRODUCTS),
  trantype: enumOf('trantype', TRANSACTION_TYPES),
  prctyp: enumOf('prctyp', PRICE_TYPES),
  ret: enumOf('ret', RETENTIONS),
  ai_t: enumOf('ai_t', ALERT_TYPES),
  validity: enumOf('validity', VALIDITIES).default('GTT'),
  d: decimalString('d'),
};

type OrderShape = {
  prctyp: string;
  prc?: string | undefined;
  d: string;
};

/** Cross-field rules: market orders carry price 0, priced orders a positive price, and the trigger is positive. */
const checkOrder = <T extends OrderShape>(order: T, ctx: z.RefinementCtx): T & { prc: string } => {
  const isMarket = MARKET_PRICE_TYPES.includes(order.prctyp);
  let prc = order.prc;
  if (isMarket) {
    if (prc !== undefined && Number(prc) !== 0) {
      ctx.addIssue({ code: 'custom', path: ['prc'], message: `prc must be 0 (or omitted) for price type ${order.prctyp}` });
    }
    prc = '0';
  } else if (prc === undefined || Number(prc) <= 0) {
    ctx.addIssue({ code: 'custom', path: ['prc'], message: `prc must be a positive price for price type ${order.prctyp}` });
  }
  if (Number(order.d) <= 0) {
    ctx.addIssue({ code: 'custom', path: ['d'], message: 'd (trigger value) must be greater than 0' });
  }
  return { ...order, prc: prc ?? '0' };
};

export const placeOrderInput = z.strictObject(orderFields).transform(checkOrder);
export type PlaceOrderInput = z.output<typeof placeOrderInput>;

export const modifyOrderInput = z.strictObject({ al_id: gttIdSchema, ...orderFields }).transform(checkOrder);
export type ModifyOrderInput = z.output<typeof modifyOrderInput>;

export const cancelOrderInput = z.strictObject({ al_id: gttIdSchema });
export type CancelOrderInput = z.output<typeof cancelOrderInput>;

/** Operations that take nothing from the caller: the account comes from the secret. */
export const noInput = z.strictObject({});
export type NoInput = z.output<typeof noInput>;
