/**
 * The order core's plain PlaceOrder (a regular exchange order, not a GTT; functions/orders/plain-order-operation.ts):
 * what its in-process callers send and what the broker answers (docs/explanation/broker-wire.md, "PlaceOrder").
 *
 * A limit order only (`LMT`): a square-off prices its protected limit from the price it read, and the brokers refuse
 * API market orders anyway (`ALGO_CHK`). Its product is the position's: C (CNC), M (NRML) or I (MIS, intraday, which
 * a GTT cannot carry but a position can). `exit: true` says the order only reduces a position its caller read: the
 * one kind of order the kill switch lets through (docs/explanation/order-safety.md, "Plain orders").
 */
import './zod-config.js';

import * as z from 'zod';

import { decimalString, enumOf, EXCHANGES, quantity, tag, tradingSymbol, TRANSACTION_TYPES } from './fields.js';
import { memo } from './values.js';

/** The products of a regular order here: delivery, carry forward, intraday (cover and bracket are not offered). */
export const PLAIN_PRODUCTS = ['C', 'M', 'I'] as const;
const PLAIN_PRODUCT_ALIASES: Readonly<Record<string, (typeof PLAIN_PRODUCTS)[number]>> = {
  CNC: 'C',
  NRML: 'M',
  MIS: 'I',
};
export const PLAIN_RETENTIONS = ['DAY', 'IOC'] as const;

export const plainProduct = memo(() =>
  z.string({ error: 'prd is required' }).transform((value, ctx) => {
    const upper = value.trim().toUpperCase();
    const letter = PLAIN_PRODUCT_ALIASES[upper] ?? (PLAIN_PRODUCTS as readonly string[]).find((p) => p === upper);
    if (letter === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `prd must be one of ${PLAIN_PRODUCTS.join(', ')} (or CNC, NRML, MIS), got ${JSON.stringify(value)}`,
      });
      return z.NEVER;
    }
    return letter as (typeof PLAIN_PRODUCTS)[number];
  }),
);

export const plainOrderInput = z.lazy(() =>
  z
    .strictObject({
      exch: enumOf('exch', EXCHANGES),
      tsym: tradingSymbol(),
      trantype: enumOf('trantype', TRANSACTION_TYPES),
      qty: quantity(),
      prc: decimalString('prc'),
      prd: plainProduct(),
      prctyp: z.literal('LMT', {
        error: 'prctyp must be LMT: a plain order is a protected limit order (price it from the last price)',
      }),
      ret: enumOf('ret', PLAIN_RETENTIONS).default('DAY'),
      tag: tag().optional(),
      exit: z.boolean({ error: 'exit must be true or false' }).default(false),
    })
    .refine((order) => Number(order.prc) > 0, { path: ['prc'], message: 'prc must be a positive price' }),
);
export type PlainOrderInput = z.output<typeof plainOrderInput>;

/**
 * PlaceOrder's success: `{request_time, stat: "Ok", norenordno}` (NorenRestApiPy's place_order returns it, its
 * tests read `norenordno`). Every dialect is read first (base/broker/dialects.ts: `Norenordno`, a numeric number,
 * `stat` in any case).
 */
const plainOrderReplySchema = memo(() =>
  z.object({
    stat: z.literal('Ok'),
    norenordno: z.string().regex(/^\d+$/, { error: 'must be a digit string' }),
    request_time: z.string().optional(),
  }),
);
export const plainOrderReply = z.lazy(plainOrderReplySchema);
export type PlainOrderReply = z.output<typeof plainOrderReply>;
