/**
 * What callers send, with the spec's field names (section 2.2). `uid` and `actid` are never accepted from the
 * caller: they come from the deployment's secret. Numbers may arrive as JSON numbers or numeric strings and leave
 * as strings; every rule names its field, and unknown fields are rejected (a typo such as `quantity` must not
 * silently fall back to a default). The rules of single fields are in fields.ts.
 */
import './zod-config.js';

import * as z from 'zod';

import { triggerProblem } from './alert-types.js';
import {
  ALERT_TYPES,
  decimalString,
  enumOf,
  EXCHANGES,
  gttId,
  MARKET_PRICE_TYPES,
  PRICE_TYPES,
  product,
  quantity,
  RETENTIONS,
  tag,
  tradingSymbol,
  TRANSACTION_TYPES,
  triggerValue,
  VALIDITIES,
} from './fields.js';
import { pageFields } from './paging.js';
import { memo } from './values.js';

export {
  ALERT_TYPES,
  EXCHANGES,
  gttIdSchema,
  MARKET_PRICE_TYPES,
  orderTag,
  PRICE_TYPES,
  PRODUCTS,
  RETENTIONS,
  TAG_MAX_LENGTH,
  TRANSACTION_TYPES,
  VALIDITIES,
} from './fields.js';

const orderFields = memo(() => ({
  exch: enumOf('exch', EXCHANGES),
  tsym: tradingSymbol(),
  qty: quantity(),
  prc: decimalString('prc').optional(),
  prd: product(),
  trantype: enumOf('trantype', TRANSACTION_TYPES),
  prctyp: enumOf('prctyp', PRICE_TYPES),
  ret: enumOf('ret', RETENTIONS),
  ai_t: enumOf('ai_t', ALERT_TYPES),
  validity: enumOf('validity', VALIDITIES).default('GTT'),
  d: triggerValue(),
  tag: tag().optional(),
}));

type OrderShape = {
  exch: string;
  ai_t: string;
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
  const problem = triggerProblem(order.ai_t, order.d, order.exch, order.prctyp);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['d'], message: problem });
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
const FRESH_ERROR = 'fresh must be true or false';
/** `?fresh=true`: the broker's word, not the watcher's copy (functions/orders/gateway/order-copy.ts). */
const freshFlag = () =>
  z
    .union([z.boolean(), z.enum(['true', 'false'], { error: FRESH_ERROR }).transform((v) => v === 'true')], {
      error: FRESH_ERROR,
    })
    .optional();
export const getOrderInput = z.lazy(() => z.strictObject({ al_id: gttId(), fresh: freshFlag() }));
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
    prd: product(),
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

/**
 * A partial modify (PATCH): only what changes, at least one field. The symbol and exchange are the order's own
 * (cancel and place to change them); every other field of the modify may be given. No defaults: a field left out
 * keeps the pending order's value.
 */
const patchOrderFields = () => ({
  qty: quantity().optional(),
  prc: decimalString('prc').optional(),
  prd: product().optional(),
  trantype: enumOf('trantype', TRANSACTION_TYPES).optional(),
  prctyp: enumOf('prctyp', PRICE_TYPES).optional(),
  ret: enumOf('ret', RETENTIONS).optional(),
  ai_t: enumOf('ai_t', ALERT_TYPES).optional(),
  validity: enumOf('validity', VALIDITIES).optional(),
  d: triggerValue().optional(),
  tag: tag().optional(),
});

const atLeastOne = (fields: Record<string, unknown>, ctx: z.RefinementCtx, names: readonly string[]) => {
  if (!names.some((name) => fields[name] !== undefined))
    ctx.addIssue({ code: 'custom', path: [], message: `name at least one field to change (${names.join(', ')})` });
};

export const patchOrderInput = z.lazy(() =>
  z
    .strictObject({ al_id: gttId(), ...patchOrderFields() })
    .superRefine((patch, ctx) => atLeastOne(patch, ctx, Object.keys(patchOrderFields()))),
);
export type PatchOrderInput = z.output<typeof patchOrderInput>;

const patchOcoLeg = () =>
  z
    .strictObject({
      trigger: decimalString('trigger').optional(),
      order: z
        .strictObject({
          trantype: enumOf('trantype', TRANSACTION_TYPES).optional(),
          prctyp: enumOf('prctyp', ['LMT', 'MKT', 'SL-LMT', 'SL-MKT'] as const).optional(),
          qty: quantity().optional(),
          prc: decimalString('prc').optional(),
          prd: product().optional(),
          ret: enumOf('ret', RETENTIONS).optional(),
          trgprc: decimalString('trgprc').optional(),
        })
        .optional(),
    })
    .optional();

export const patchOcoInput = z.lazy(() =>
  z
    .strictObject({
      al_id: gttId(),
      validity: enumOf('validity', VALIDITIES).optional(),
      tag: tag().optional(),
      ltp: decimalString('ltp').optional(),
      target: patchOcoLeg(),
      stopLoss: patchOcoLeg(),
    })
    .superRefine((patch, ctx) => atLeastOne(patch, ctx, ['validity', 'tag', 'target', 'stopLoss'])),
);
export type PatchOcoInput = z.output<typeof patchOcoInput>;

/**
 * A quote of one instrument (query parameters): the exchange and the trading symbol, both required. What the read
 * adds before the broker call (the instrument's token, tick, lot and band: `rules`) is never the caller's: the
 * schema refuses any other field.
 */
/**
 * An instrument's facts for today as a read of one instrument is given them (orders/instruments/rules.ts): its
 * token (what the broker's market reads take), tick, lot and precision, and today's band where the broker gives one.
 */
export interface InstrumentFacts {
  token: string;
  tick: string;
  lot: number;
  precision: number;
  band?: { lc: string; uc: string } | undefined;
}

export interface QuoteInput {
  exch: (typeof EXCHANGES)[number];
  tsym: string;
  rules?: InstrumentFacts;
}
export const quoteInput = z.lazy(() =>
  z.strictObject({ exch: enumOf('exch', EXCHANGES), tsym: tradingSymbol() }).transform((quote): QuoteInput => quote),
);
