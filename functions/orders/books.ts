/**
 * The broker's books, read to settle a journaled write whose outcome is unknown (journal.ts): is there an order with
 * the write's stamp? Read in the order that leaves no gap: the pending list, then the triggered list (a GTT that fires
 * between the two reads is in the second). What is found is answered as the broker would have answered the write.
 *
 * - a place (single or OCO): a GTT whose remarks carry the stamp, pending or fired; or the order a later change
 *   through the gateway saw the stamp on (moves.ts: the change replaced the stamp, the place had landed);
 * - a modify (single, OCO, PATCH): the GTT with the write's `al_id` whose remarks carry the stamp (the modify sent
 *   it, so the broker holds the modified order), pending or fired after it; or a later change saw it there;
 * - a cancel: the GTT is no longer pending (it carries no stamp: the broker keeps no cancelled GTTs to read; gone is
 *   all a cancel asks for, whether it fired first or was cancelled by this write);
 * - a plain order (PlaceOrder): the day's OrderBook record whose remarks carry the stamp, in whatever state the
 *   exchange left it (open, filled, rejected, cancelled: it was placed). No change replaces a plain order's remarks
 *   here, so there are no moves to read.
 */
import { type BrokerCallDeps, callBroker } from '../base/broker/call-broker.js';
import { splitRemarks } from '../base/broker/order-stamps.js';
import { OrderChangedError } from '../base/contract/errors.js';
import type { AnyOperation } from '../base/contract/operation.js';
import type { OrderBookRecord } from '../base/schemas/reply.js';
import type { StampMove } from './moves.js';
import { getOrderBook, getPendingGttOrders, getTriggeredGttOrders } from './operations.js';

interface ListedOrder {
  al_id: string;
  remarks?: string;
  norentm?: string;
}

const list = async (operation: AnyOperation, deps: BrokerCallDeps): Promise<ListedOrder[]> =>
  ((await callBroker(operation, {}, deps)).result as { orders: ListedOrder[] }).orders;

/** The journal's records of stamps that changes through the gateway replaced (moves.ts). */
export interface Moves {
  /** Where a stamp was seen before a change replaced it, if one did. */
  moved: (stamp: string) => Promise<StampMove | undefined>;
  /** The stamp a keyed change (by its own stamp) saw on its order right before it was sent, if any. */
  seen: (by: string) => Promise<string | undefined>;
}

/**
 * The write's order in the books, or undefined when they do not show it. Not in the lists, the write still happened
 * when a change through the gateway saw its stamp on an order (and replaced it) since: that order is the write's. A
 * modify whose order now carries another write's stamp was overtaken by a later change: sending it now would undo
 * that change, so it is refused (412), unless that stamp is the one this modify itself saw there before it was sent:
 * then the order is as this modify left it unsent, and it never landed. An order that carries no stamp now, although
 * this modify saw one there, was changed by another request (without a key) too: 412.
 */
const findStamped = async (
  stamp: string,
  alId: string | undefined,
  deps: BrokerCallDeps,
  moves: Moves,
): Promise<ListedOrder | undefined> => {
  const matches = (order: ListedOrder) =>
    splitRemarks(order.remarks).stamp === stamp && (alId === undefined || order.al_id === alId);
  const pending = await list(getPendingGttOrders, deps);
  const found = pending.find(matches) ?? (await list(getTriggeredGttOrders, deps)).find(matches);
  if (found) return found;
  const moved = await moves.moved(stamp);
  if (moved && (alId === undefined || moved.alId === alId)) return { al_id: moved.alId };
  const other = alId === undefined ? undefined : pending.find((o) => o.al_id === alId);
  if (!other) return undefined;
  const otherStamp = splitRemarks(other.remarks).stamp;
  if (otherStamp === stamp) return undefined;
  if (
    otherStamp === undefined
      ? (await moves.seen(stamp)) === undefined
      : (await moves.moved(otherStamp))?.seenBy.includes(stamp)
  )
    return undefined;
  throw new OrderChangedError(
    `GTT order ${alId} was changed by another request after this one's outcome was left unknown; read it again (GET /gtt-orders/${alId}) and decide. Nothing was sent.`,
    { outcome: 'not_executed', details: [{ field: 'al_id', message: 'changed by a later write' }] },
  );
};

/** OrderBook's records as the broker holds them, remarks whole (the read entry's result splits the stamp off). */
const orderBookRecords = {
  ...getOrderBook,
  toResult: (records: OrderBookRecord[]) => ({ orders: records }),
} as AnyOperation;

const findPlainOrder = async (stamp: string, deps: BrokerCallDeps): Promise<OrderBookRecord | undefined> => {
  const { orders } = (await callBroker(orderBookRecords, {}, deps)).result as { orders: OrderBookRecord[] };
  return orders.find((order) => splitRemarks(order.remarks).stamp === stamp);
};

const STATS: Record<string, string> = {
  PlaceOrder: 'Ok',
  PlaceGTTOrder: 'OI created',
  PlaceOCOOrder: 'OI created',
  ModifyGTTOrder: 'OI replaced',
  ModifyOCOOrder: 'OI replaced',
  CancelGTTOrder: 'OI deleted',
};

/** Whether the books can settle this operation's writes (the order writes the journal keeps). */
export const settledByBooks = (operation: AnyOperation): boolean => operation.broker in STATS;

/**
 * The write as the books show it, answered as its reply would have been (`{stat, al_id, request_time}`; a plain
 * order's `{stat, norenordno, request_time}`), or undefined when they do not show it. A read that fails throws (the
 * outcome stays unknown).
 */
export const findWrite = async (
  operation: AnyOperation,
  input: unknown,
  stamp: string,
  deps: BrokerCallDeps,
  moves: Moves,
): Promise<Record<string, string> | undefined> => {
  const stat = STATS[operation.broker];
  if (!stat) return undefined;
  const alId = (input as { al_id?: unknown }).al_id;
  const requestTime = new Date().toISOString();
  if (operation.broker === 'PlaceOrder') {
    const order = await findPlainOrder(stamp, deps);
    return order ? { stat, norenordno: order.norenordno, request_time: order.norentm ?? requestTime } : undefined;
  }
  if (operation.broker === 'CancelGTTOrder') {
    const pending = await list(getPendingGttOrders, deps);
    return pending.some((o) => o.al_id === alId) ? undefined : { stat, al_id: String(alId), request_time: requestTime };
  }
  const found = await findStamped(stamp, typeof alId === 'string' ? alId : undefined, deps, moves);
  return found ? { stat, al_id: found.al_id, request_time: found.norentm ?? requestTime } : undefined;
};
