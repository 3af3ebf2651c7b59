/**
 * What callers send, with the spec's field names (section 2.2). `uid` and `actid` are never accepted from the
 * caller: they come from the deployment's secret. Numbers may arrive as JSON numbers or numeric strings and leave
 * as strings; every rule names its field, and unknown fields are rejected (a typo such as `quantity` must not
 * silently fall back to a default).
 */
import './zod-config.js';

import * as z from 'zod';

import { pageFields } from './paging.js';
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

const quantity = memo(() =>
  z.union([z.number(), z.string()], rule('qty', 'qty must be a number or a numeric string')).transform((value, ctx) => {
    const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
    if (!POSITIVE_INTEGER.test(text)) {
      ctx.addIssue({ code: 'custom', message: `qty must be a positive whole number, got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return text;
  }),
);

const enumOf = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, rule(field, `${field} must be one of ${values.join(', ')}`));

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
const tradingSymbol = memo(() =>
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
const gttId = memo(() =>
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
const tag = memo(() =>
  z
    .string(rule('tag', 'tag must be a string'))
    .min(1, { error: 'tag must not be empty (omit it instead)' })
    .max(TAG_MAX_LENGTH, { error: `tag must be at most ${TAG_MAX_LENGTH} characters` })
    .regex(/^[A-Za-z0-9 _.:/-]+$/, { error: 'tag may hold letters, digits, spaces and _ . : / - only' }),
);
export const orderTag = z.lazy(tag);

const orderFields = memo(() => ({
  exch: enumOf('exch', EXCHANGES),
  tsym: tradingSymbol(),
  qty: quantity(),
  prc: decimalString('prc').optional(),
  prd: enumOf('prd', PRODUCTS),
  trantype: enumOf('trantype', TRANSACTION_TYPES),
  prctyp: enumOf('prctyp', PRICE_TYPES),
  ret: enumOf('ret', RETENTIONS),
  ai_t: enumOf('ai_t', ALERT_TYPES),
  validity: enumOf('validity', VALIDITIES).default('GTT'),
  d: decimalString('d'),
  tag: tag().optional(),
}));

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
      ctx.addIssue({
        code: 'custom',
        path: ['prc'],
        message: `prc must be 0 (or omitted) for price type ${order.prctyp}`,
      });
    }
    prc = '0';
  } else if (prc === undefined || Number(prc) <= 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['prc'],
      message: `prc must be a positive price for price type ${order.prctyp}`,
    });
  }
  if (Number(order.d) <= 0) {
    ctx.addIssue({ code: 'custom', path: ['d'], message: 'd (trigger value) must be greater than 0' });
  }
  return { ...order, prc: prc ?? '0' };
};

export const placeOrderInput = z.lazy(() => z.strictObject(orderFields()).transform(checkOrder));
export type PlaceOrderInput = z.output<typeof placeOrderInput>;

export const modifyOrderInput = z.lazy(() =>
  z.strictObject({ al_id: gttId(), ...orderFields() }).transform(checkOrder),
);
export type ModifyOrderInput = z.output<typeof modifyOrderInput>;

export const cancelOrderInput = z.lazy(() => z.strictObject({ al_id: gttId() }));
export type CancelOrderInput = z.output<typeof cancelOrderInput>;

/** Operations that take nothing from the caller: the account comes from the secret. */
export const noInput = z.strictObject({});
export type NoInput = z.output<typeof noInput>;

/** Filters of the pending list and its page (query parameters; paging.ts). */
export const listOrdersInput = z.lazy(() =>
  z.strictObject({
    tsym: tradingSymbol().optional(),
    exch: enumOf('exch', EXCHANGES).optional(),
    ...pageFields('pending'),
  }),
);

/** A page of the triggered history (query parameters; paging.ts). */
export const triggeredInput = z.lazy(() => z.strictObject(pageFields('triggered')));
export type TriggeredInput = z.output<typeof triggeredInput>;
export type ListOrdersInput = z.output<typeof listOrdersInput>;

/** One pending order by its id (the path). */
export const getOrderInput = z.lazy(() => z.strictObject({ al_id: gttId() }));
export type GetOrderInput = z.output<typeof getOrderInput>;

/** Price types whose order carries its own trigger price (`trgprc`). */
const STOP_LOSS_PRICE_TYPES: readonly string[] = ['SL-LMT', 'SL-MKT'];

/** The order one OCO leg places when its trigger is crossed. */
const ocoLegOrder = () =>
  z.strictObject({
    trantype: enumOf('trantype', TRANSACTION_TYPES),
    prctyp: enumOf('prctyp', ['LMT', 'MKT', 'SL-LMT', 'SL-MKT'] as const),
    qty: quantity(),
    prc: decimalString('prc').optional(),
    prd: enumOf('prd', PRODUCTS),
    ret: enumOf('ret', RETENTIONS).default('DAY'),
    /** The stop-loss order's own trigger price (SL-LMT, SL-MKT). */
    trgprc: decimalString('trgprc').optional(),
  });

const ocoLeg = memo(() => z.strictObject({ trigger: decimalString('trigger'), order: ocoLegOrder() }));

const ocoFields = memo(() => ({
  exch: enumOf('exch', EXCHANGES),
  tsym: tradingSymbol(),
  validity: enumOf('validity', VALIDITIES).default('GTT'),
  tag: tag().optional(),
  /** The last traded price the caller sees: optional, only checked against the triggers, never sent. */
  ltp: decimalString('ltp').optional(),
  target: ocoLeg(),
  stopLoss: ocoLeg(),
}));

type OcoLegShape = z.output<ReturnType<typeof ocoLeg>>;
type OcoShape = { ltp?: string | undefined; target: OcoLegShape; stopLoss: OcoLegShape };

/**
 * Cross-field rules of an OCO. Both legs close one position, so they share `trantype`. Which side each trigger
 * must be on follows from that side: closing a long (`S`), the target is above the stop-loss; closing a short
 * (`B`), below it. With an `ltp`, the LTP must also lie strictly between them (otherwise one leg fires at once).
 * Without one, only the order of the two triggers is checked: the gateway does not guess the market price.
 */
const checkOco = <T extends OcoShape>(oco: T, ctx: z.RefinementCtx): T => {
  const legs = { target: oco.target, stopLoss: oco.stopLoss };
  const fixed = {} as Record<'target' | 'stopLoss', OcoLegShape>;
  for (const [name, leg] of Object.entries(legs) as ['target' | 'stopLoss', OcoLegShape][]) {
    const isMarket = MARKET_PRICE_TYPES.includes(leg.order.prctyp);
    let prc = leg.order.prc;
    if (isMarket) {
      if (prc !== undefined && Number(prc) !== 0) {
        ctx.addIssue({
          code: 'custom',
          path: [name, 'order', 'prc'],
          message: `prc must be 0 (or omitted) for price type ${leg.order.prctyp}`,
        });
      }
      prc = '0';
    } else if (prc === undefined || Number(prc) <= 0) {
      ctx.addIssue({
        code: 'custom',
        path: [name, 'order', 'prc'],
        message: `prc must be a positive price for price type ${leg.order.prctyp}`,
      });
    }
    if (Number(leg.trigger) <= 0) {
      ctx.addIssue({ code: 'custom', path: [name, 'trigger'], message: `${name}.trigger must be greater than 0` });
    }
    // A stop-loss order needs its own trigger price; any other order type has none (it would be sent and mean nothing).
    const isStopLoss = STOP_LOSS_PRICE_TYPES.includes(leg.order.prctyp);
    const trgprc = leg.order.trgprc;
    if (isStopLoss && (trgprc === undefined || Number(trgprc) <= 0)) {
      ctx.addIssue({
        code: 'custom',
        path: [name, 'order', 'trgprc'],
        message: `trgprc must be a positive price for price type ${leg.order.prctyp}`,
      });
    } else if (!isStopLoss && trgprc !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [name, 'order', 'trgprc'],
        message: `trgprc is only for stop-loss orders (SL-LMT, SL-MKT), not for price type ${leg.order.prctyp}`,
      });
    }
    fixed[name] = { ...leg, order: { ...leg.order, prc: prc ?? '0' } };
  }
  const side = oco.target.order.trantype;
  // Sides are only compared between two valid triggers.
  if (!(Number(oco.target.trigger) > 0 && Number(oco.stopLoss.trigger) > 0)) return { ...oco, ...fixed };
  if (oco.stopLoss.order.trantype !== side) {
    ctx.addIssue({
      code: 'custom',
      path: ['stopLoss', 'order', 'trantype'],
      message: 'both legs of an OCO close the same position: stopLoss.order.trantype must equal target.order.trantype',
    });
    return { ...oco, ...fixed };
  }
  const target = Number(oco.target.trigger);
  const stop = Number(oco.stopLoss.trigger);
  const closingLong = side === 'S';
  if (closingLong ? !(target > stop) : !(target < stop)) {
    ctx.addIssue({
      code: 'custom',
      path: ['target', 'trigger'],
      message: closingLong
        ? `selling to close a long: target.trigger (${oco.target.trigger}) must be above stopLoss.trigger (${oco.stopLoss.trigger})`
        : `buying to close a short: target.trigger (${oco.target.trigger}) must be below stopLoss.trigger (${oco.stopLoss.trigger})`,
    });
  } else if (oco.ltp !== undefined) {
    const ltp = Number(oco.ltp);
    const between = closingLong ? stop < ltp && ltp < target : target < ltp && ltp < stop;
    if (!between) {
      ctx.addIssue({
        code: 'custom',
        path: ['ltp'],
        message: `ltp (${oco.ltp}) must lie strictly between stopLoss.trigger and target.trigger, or one leg would fire at once`,
      });
    }
  }
  return { ...oco, ...fixed };
};

export const placeOcoInput = z.lazy(() => z.strictObject(ocoFields()).transform(checkOco));
export type PlaceOcoInput = z.output<typeof placeOcoInput>;

export const modifyOcoInput = z.lazy(() => z.strictObject({ al_id: gttId(), ...ocoFields() }).transform(checkOco));
export type ModifyOcoInput = z.output<typeof modifyOcoInput>;
