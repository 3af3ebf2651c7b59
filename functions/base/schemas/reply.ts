/**
 * What the broker answers on success (docs/explanation/broker-wire.md: records and replies), and therefore what the gateway returns.
 *
 * Fields the gateway's correctness rests on (`stat`, `al_id`, the order fields) are checked strictly; cosmetic
 * fields (`request_time` and the record's undocumented extras) only by type, so a harmless format change at the
 * broker cannot turn an order that was placed into an "unreadable reply".
 */
import './zod-config.js';

import * as z from 'zod';

import { memo } from './values.js';

const digits = memo(() => z.string().regex(/^\d+$/, { error: 'must be a digit string' }));
/** `HH:MM:SS DD-MM-YYYY` in the spec; typed as a string only (see above). */
const requestTime = memo(() => z.string());
/** The spec says `qty` is a JSON number; accept a numeric string too and hand out a number. */
const numberField = memo(() =>
  z
    .union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/)])
    .transform(Number)
    .pipe(z.number()),
);
const optionalText = memo(() => z.string().optional());

/** Place, modify and cancel answer the same shape; only the success text in `stat` differs. */
const orderActionReply = <S extends string>(stat: S) =>
  z.object({ stat: z.literal(stat), al_id: digits(), request_time: requestTime() });

const placeReplySchema = memo(() => orderActionReply('OI created'));
export const placeReply = z.lazy(placeReplySchema);
export type PlaceReply = z.output<typeof placeReply>;

const modifyReplySchema = memo(() => orderActionReply('OI replaced'));
export const modifyReply = z.lazy(modifyReplySchema);
export type ModifyReply = z.output<typeof modifyReply>;

const cancelReplySchema = memo(() => orderActionReply('OI deleted'));
export const cancelReply = z.lazy(cancelReplySchema);
export type CancelReply = z.output<typeof cancelReply>;

/** PlaceOCOOrder and ModifyOCOOrder answer like their single-order twins. */
const placeOcoReplySchema = memo(() => orderActionReply('OI created'));
export const placeOcoReply = z.lazy(placeOcoReplySchema);
const modifyOcoReplySchema = memo(() => orderActionReply('OI replaced'));
export const modifyOcoReply = z.lazy(modifyOcoReplySchema);

const placeOrderParamsSchema = memo(() =>
  z.object({
    actid: optionalText(),
    trantype: optionalText(),
    prctyp: optionalText(),
    qty: numberField().optional(),
    prc: optionalText(),
    C: optionalText(),
    s_prdt_ali: optionalText(),
    prd: optionalText(),
    ordersource: optionalText(),
    ipaddr: optionalText(),
    trgprc: optionalText(),
  }),
);
export const placeOrderParams = z.lazy(placeOrderParamsSchema);

const pendingOrderRecordSchema = memo(() =>
  z.object({
    stat: z.literal('Ok'),
    al_id: digits(),
    ai_t: z.string(),
    tsym: z.string(),
    exch: z.string(),
    trantype: z.string(),
    prctyp: z.string(),
    qty: numberField(),
    prc: z.string(),
    prd: z.string(),
    d: z.string(),
    validity: optionalText(),
    token: optionalText(),
    remarks: optionalText(),
    norentm: optionalText(),
    pp: optionalText(),
    ls: optionalText(),
    ti: optionalText(),
    brkname: optionalText(),
    actid: optionalText(),
    C: optionalText(),
    ordersource: optionalText(),
    place_order_params: placeOrderParamsSchema().optional(),
    /** OCO only: the stop-loss leg's order (`place_order_params` is the target leg's). */
    place_order_params_leg2: placeOrderParamsSchema().optional(),
    oivariable: z.array(z.object({ var_name: optionalText(), d: optionalText() })).optional(),
  }),
);
export const pendingOrderRecord = z.lazy(pendingOrderRecordSchema);
export type PendingOrderRecord = z.output<typeof pendingOrderRecord>;

/** The broker answers an array; the gateway wraps it so an empty account is `{ orders: [] }`. */
const pendingReplySchema = memo(() => z.array(pendingOrderRecordSchema()));
export const pendingReply = z.lazy(pendingReplySchema);

/** One leg of an OCO as callers see it: its trigger and the order it places. */
const ocoLegResultSchema = memo(() => z.object({ trigger: z.string(), order: placeOrderParamsSchema() }));

/**
 * A pending order in one normalised shape for single and OCO orders: the broker's record, plus `type`, the
 * caller's `tag` (the broker's `remarks`), and either `trigger` (single) or `target` and `stopLoss` (OCO, from
 * `oivariable` x/y and the two `place_order_params`).
 */
const gttOrderSchema = memo(() =>
  pendingOrderRecordSchema().extend({
    type: z.enum(['single', 'oco']),
    tag: z.string().optional(),
    trigger: z.string().optional(),
    target: ocoLegResultSchema().optional(),
    stopLoss: ocoLegResultSchema().optional(),
  }),
);
export const gttOrder = z.lazy(gttOrderSchema);
export type GttOrder = z.output<typeof gttOrder>;

/**
 * One pending order by id: the normalised record, and whose word it is. `broker`: read from the broker's list just
 * now. `watcher`: the GttWatcher's copy, as the broker listed it at `asOf` (functions/orders/gateway/order-copy.ts).
 */
const gttOrderReadSchema = memo(() =>
  gttOrderSchema().extend({
    source: z
      .enum(['broker', 'watcher'])
      .describe("broker: read from the broker's list now; watcher: the watcher's copy, as listed at asOf"),
    asOf: z
      .string()
      .optional()
      .describe('watcher only: when the broker listed the order (ISO time); changes since are not in it'),
  }),
);
export const gttOrderRead = z.lazy(gttOrderReadSchema);

/** `nextCursor`: present while more orders remain (paging.ts). */
const nextCursor = () => z.string().optional();
/** A page's `asOf`: when the broker listed it (the later pages of a walk: its first page's read, page-snapshots.ts). */
const pageAsOf = () =>
  z
    .string()
    .optional()
    .describe("when the broker's list this page is cut from was read (ISO time): a walk's later pages show its first");
const pendingResultSchema = memo(() =>
  z.object({ orders: z.array(gttOrderSchema()), nextCursor: nextCursor(), asOf: pageAsOf() }),
);
export const pendingResult = z.lazy(pendingResultSchema);
export type PendingResult = z.output<typeof pendingResult>;

/**
 * A record of the triggered history (GetTrgOi): the pending-record shape, but `stat` carries the record's status
 * text (e.g. `TRIGGERED`) and `norentm` when it fired. For an OCO, `trg_leg` says which leg fired (`x` = target,
 * `y` = stop-loss).
 */
const triggeredRecordSchema = memo(() =>
  pendingOrderRecordSchema().extend({
    stat: z.string(),
    trg_leg: optionalText(),
  }),
);
export const triggeredRecord = z.lazy(triggeredRecordSchema);
const triggeredReplySchema = memo(() => z.array(triggeredRecordSchema()));
export const triggeredReply = z.lazy(triggeredReplySchema);
const triggeredOrderSchema = memo(() =>
  gttOrderSchema().extend({
    stat: z.string(),
    trg_leg: optionalText(),
    /** The record's status text at the broker (`TRIGGERED`, ...). */
    status: z.string(),
    /** When it fired: ISO 8601, UTC, as every time of the API (the broker's own text stays in `norentm`). */
    triggeredAt: z
      .string()
      .optional()
      .describe("when it fired (ISO 8601, UTC), from the broker's norentm (India time text, kept as norentm)"),
    /** OCO: the leg that fired. */
    firedLeg: z.enum(['target', 'stopLoss']).optional(),
    /** The order it placed, from the broker's order book (absent while the book does not show it yet). */
    order: bookOrderSchema().optional(),
  }),
);
export const triggeredOrder = z.lazy(triggeredOrderSchema);
const triggeredResultSchema = memo(() =>
  z.object({
    orders: z.array(triggeredOrderSchema()),
    nextCursor: nextCursor(),
    asOf: pageAsOf(),
    /** The order book could not be read: the fired GTTs come without their orders this time. */
    orderBookUnavailable: z.boolean().optional(),
  }),
);
export const triggeredResult = z.lazy(triggeredResultSchema);
export type TriggeredResult = z.output<typeof triggeredResult>;

/**
 * An order book record (OrderBook, SingleOrdHist): the family's documented field names; only what the gateway reads
 * is checked, the rest passes through untouched.
 */
const orderBookRecordSchema = memo(() =>
  z.looseObject({
    norenordno: digits(),
    exch: z.string(),
    tsym: z.string(),
    trantype: z.string(),
    qty: z.union([z.string(), z.number()]).transform(String),
    prc: z.union([z.string(), z.number()]).transform(String),
    prctyp: z.string(),
    prd: z.string(),
    status: z.string(),
    fillshares: z.union([z.string(), z.number()]).transform(String).optional(),
    avgprc: z.union([z.string(), z.number()]).transform(String).optional(),
    rejreason: optionalText(),
    remarks: optionalText(),
    norentm: optionalText(),
  }),
);
export const orderBookRecord = z.lazy(orderBookRecordSchema);
export type OrderBookRecord = z.output<typeof orderBookRecord>;
const orderBookReplySchema = memo(() => z.array(orderBookRecordSchema()));
export const orderBookReply = z.lazy(orderBookReplySchema);

export const ORDER_STATUSES = ['open', 'filled', 'partially-filled', 'rejected', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Why the broker refused an order: a code the gateway knows (or BROKER_REJECTED), what to do, the broker's words. */
const orderRejectionSchema = memo(() => z.object({ code: z.string(), hint: z.string(), text: z.string() }));
export type OrderRejection = z.output<ReturnType<typeof orderRejectionSchema>>;

/** An order of the book in the gateway's shape: its number, status, what filled at what price, why it was refused. */
const bookOrderSchema = memo(() =>
  z.object({
    norenordno: z.string(),
    exch: z.string(),
    tsym: z.string(),
    side: z.string(),
    qty: z.number(),
    price: z.string(),
    priceType: z.string(),
    product: z.string(),
    status: z.enum(ORDER_STATUSES),
    /** The broker's own status text (`COMPLETE`, `OPEN`, `REJECTED`, ...). */
    brokerStatus: z.string(),
    filledQty: z.number(),
    averagePrice: z.string().optional(),
    rejection: orderRejectionSchema().optional(),
    /** The order's remarks: a fired GTT's tag, on the brokers that carry it into the order. */
    tag: z.string().optional(),
    placedAt: z.string().optional(),
  }),
);
export const bookOrder = z.lazy(bookOrderSchema);
export type BookOrder = z.output<typeof bookOrder>;
const orderBookResultSchema = memo(() => z.object({ orders: z.array(bookOrderSchema()) }));
export const orderBookResult = z.lazy(orderBookResultSchema);

const enabledReplySchema = memo(() =>
  z.object({
    stat: z.literal('Ok'),
    request_time: requestTime(),
    ai_ts: z.array(z.looseObject({ ai_t: z.string().optional() })),
  }),
);
export const enabledReply = z.lazy(enabledReplySchema);
export type EnabledReply = z.output<typeof enabledReply>;

const clientDetailsReplySchema = memo(() =>
  z.object({
    stat: z.literal('Ok'),
    request_time: requestTime(),
    actid: z.string(),
    cliname: optionalText(),
    act_sts: optionalText(),
    creatdte: optionalText(),
    creattme: optionalText(),
    m_num: optionalText(),
    email: optionalText(),
    pan: optionalText(),
    dob: optionalText(),
    addr: optionalText(),
    addroffice: optionalText(),
    addrcity: optionalText(),
    addrstate: optionalText(),
    partic_id_list: z.array(z.object({ partic_id: z.string(), exch: z.string() })).optional(),
    eqt_asba: optionalText(),
    der_asba: optionalText(),
    fx_asba: optionalText(),
    com_asba: optionalText(),
    mandate_id_list: z.array(z.object({ mandate_id: z.string() })).optional(),
    exarr: z.array(z.string()),
    bankdetails: z
      .array(z.object({ bankn: optionalText(), acctnum: optionalText(), ifsc_code: optionalText() }))
      .optional(),
    dp_acct_num: z.array(z.object({ dpnum: z.string() })).optional(),
  }),
);
export const clientDetailsReply = z.lazy(clientDetailsReplySchema);
export type ClientDetailsReply = z.output<typeof clientDetailsReply>;

const logoutReplySchema = memo(() =>
  z.object({
    stat: z.literal('Ok'),
    request_time: requestTime(),
  }),
);
export const logoutReply = z.lazy(logoutReplySchema);
export type LogoutReply = z.output<typeof logoutReply>;

/** The failure object of spec section 7. */
export const failureReply = z.lazy(() => z.object({ stat: z.literal('Not_Ok'), emsg: z.string() }));

export { type QuoteReply, quoteReply, type QuoteResult, quoteResult } from './quote.js';
