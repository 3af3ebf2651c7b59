/**
 * The broker's order records shaped into results: single and OCO records normalised to one shape, list filters, the
 * fired GTTs' records with the orders they placed (order-fate.ts), and the reply that stands for an empty list.
 */
import type { z } from 'zod';

import type { ListOrdersInput } from '../schemas/input.js';
import {
  type BookOrder,
  type GttOrder,
  type PendingOrderRecord,
  type triggeredRecord,
  type TriggeredResult,
} from '../schemas/reply.js';
import { isRecord } from '../schemas/values.js';
import { brokerTimeMs, type FiredGtt, matchFiredOrders } from './order-fate.js';
import { splitRemarks } from './order-stamps.js';

type TriggeredRecord = z.output<typeof triggeredRecord>;

/** The broker's record -> one normalised shape for single and OCO orders. Clients tell an OCO by its second leg. */
export const normaliseOrder = <R extends Omit<PendingOrderRecord, 'stat'>>(
  record: R,
): R & Omit<GttOrder, keyof PendingOrderRecord> => {
  // `remarks` in every dialect: the 2021 dialect's `Remarks` is read as it before the schema (dialects.ts). The tag
  // is the caller's: a journaled write's stamp after it is the gateway's own (order-stamps.ts).
  const caller = splitRemarks(record.remarks).tag;
  const tag = caller ? { tag: caller } : {};
  if (record.place_order_params_leg2) {
    const [x, y] = record.oivariable ?? [];
    return {
      ...record,
      type: 'oco',
      ...tag,
      target: { trigger: x?.d ?? '', order: record.place_order_params ?? {} },
      stopLoss: { trigger: y?.d ?? '', order: record.place_order_params_leg2 },
    };
  }
  return { ...record, type: 'single', ...tag, trigger: record.d };
};

/** Whether an order is of the list's optional `tsym` and `exch`. */
export const matchesFilters = (order: { tsym: string; exch: string }, filters: ListOrdersInput): boolean =>
  (filters.tsym === undefined || order.tsym === filters.tsym) &&
  (filters.exch === undefined || order.exch === filters.exch);

/**
 * When a GTT fired, as the API keeps every time: ISO 8601 in UTC, from the broker's `norentm` (India time text,
 * `HH:MM:SS DD-MM-YYYY`); undefined when the broker gave none or a text that is not a time. The broker's own text
 * stays in the record as `norentm`.
 */
const firedAtIso = (norentm: string | undefined): string | undefined => {
  const ms = brokerTimeMs(norentm?.trim());
  return ms === undefined ? undefined : new Date(ms).toISOString();
};

/** A fired GTT's record -> the normalised order with its status, when it fired and (OCO) the leg that fired. */
export const triggeredOrderOf = (record: TriggeredRecord): TriggeredResult['orders'][number] => {
  // Only an OCO has legs: a single order's record may still say `x` (its one trigger).
  const oco = record.place_order_params_leg2 !== undefined;
  const firedLeg = !oco
    ? undefined
    : record.trg_leg === 'x'
      ? 'target'
      : record.trg_leg === 'y'
        ? 'stopLoss'
        : undefined;
  const triggeredAt = firedAtIso(record.norentm);
  return {
    ...normaliseOrder(record),
    status: record.stat,
    ...(triggeredAt ? { triggeredAt } : {}),
    ...(firedLeg ? { firedLeg } : {}),
  } as const;
};

/** The fired GTT's side and quantity are its fired leg's for an OCO. */
const firedOf = (o: TriggeredResult['orders'][number]): FiredGtt => {
  const leg = o.type === 'oco' ? (o.firedLeg === 'stopLoss' ? o.stopLoss : o.target) : undefined;
  return {
    exch: o.exch,
    tsym: o.tsym,
    side: leg?.order.trantype ?? o.trantype,
    qty: leg?.order.qty ?? o.qty,
    ...(o.tag === undefined ? {} : { tag: o.tag }),
    ...(o.norentm === undefined ? {} : { firedAt: o.norentm }),
  };
};

/** Each fired GTT with the order it placed; when the book could not be read, the history says so. */
export const withOrderFates = (result: TriggeredResult, book: unknown): TriggeredResult => {
  const orders = isRecord(book) && Array.isArray(book.orders) ? (book.orders as BookOrder[]) : undefined;
  if (!orders) return { ...result, orderBookUnavailable: true };
  const matches = matchFiredOrders(result.orders.map(firedOf), orders);
  return { ...result, orders: result.orders.map((o, i) => (matches[i] ? { ...o, order: matches[i] } : o)) };
};

/** Brokers of this family answer an empty book with Not_Ok "no data"; to callers it is an empty list. */
export const EMPTY_LIST = { emsg: 'no data', reply: [] };
