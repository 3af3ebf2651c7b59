/**
 * What the broker holds, read once per run (and by DELETE): the pending GTTs, then the triggered history with the
 * order each fired GTT placed. Read in that order, a GTT that fires between the two reads is in the second, so a
 * GTT in neither list is truly gone (cancelled outside the gateway, swept by the kill switch, expired).
 *
 * A plan's GTTs are found by their al_id, or by their stamp (stamps.ts) when the reply that named them was lost.
 */
import type { BookOrder } from '../base/schemas/reply.js';
import type { DirectHandler } from './engine-needs.js';
import { parseStamp } from './stamps.js';

/** One leg's order (an OCO) or the order (a single GTT), as the pending list shows it. */
interface LegOrder {
  trantype?: string;
  qty?: string | number;
  prc?: string;
  prctyp?: string;
}

export interface PendingGtt {
  al_id: string;
  tag?: string;
  type: 'single' | 'oco';
  trigger?: string;
  prc?: string;
  qty?: string | number;
  trantype?: string;
  prctyp?: string;
  target?: { trigger: string; order: LegOrder };
  stopLoss?: { trigger: string; order: LegOrder };
}

/** What became of the order a fired GTT placed (functions/base/broker/order-fate.ts). */
export interface FiredOrder {
  status: 'open' | 'filled' | 'partially-filled' | 'rejected' | 'cancelled';
  brokerStatus?: string;
  filledQty: number;
  rejection?: { code: string; hint: string; text: string };
}

export interface FiredGtt {
  al_id: string;
  tag?: string;
  type?: 'single' | 'oco';
  firedLeg?: 'target' | 'stopLoss';
  order?: FiredOrder;
}

export type Found = { where: 'pending'; gtt: PendingGtt } | { where: 'fired'; gtt: FiredGtt };

export interface Truth {
  pending: PendingGtt[];
  fired: FiredGtt[];
  /** The order book could not be read: fired GTTs have no order this run, and no fate is concluded. */
  bookUnavailable: boolean;
  /** A GTT by al_id, in either list. */
  byId(alId: string | undefined): Found | undefined;
  /** A GTT by its stamp, in either list (the newest, when a broker holds two). */
  byStamp(stamp: string): Found | undefined;
  /** Pending GTTs stamped by this plan. */
  pendingOf(planId: string): PendingGtt[];
}

const allPages = async <T>(read: DirectHandler, deadline: number): Promise<{ orders: T[]; unavailable: boolean }> => {
  const orders: T[] = [];
  let unavailable = false;
  let cursor: string | undefined;
  do {
    const page = (await read({ limit: 1_000, ...(cursor ? { cursor } : {}) }, deadline)) as {
      orders: T[];
      nextCursor?: string;
      orderBookUnavailable?: boolean;
    };
    orders.push(...page.orders);
    unavailable ||= page.orderBookUnavailable === true;
    cursor = page.nextCursor;
  } while (cursor);
  return { orders, unavailable };
};

/** The day's order book in the gateway's shape (GetOrderBook through the order core): an option or leg order's fate. */
export const dayBook = async (orderBook: DirectHandler, deadline: number): Promise<BookOrder[]> =>
  ((await orderBook({}, deadline)) as { orders: BookOrder[] }).orders;

export const readTruth = async (
  reads: { pending: DirectHandler; triggered: DirectHandler },
  deadline: number,
): Promise<Truth> => {
  const pending = (await allPages<PendingGtt>(reads.pending, deadline)).orders;
  const triggered = await allPages<FiredGtt>(reads.triggered, deadline);
  return truthOf(pending, triggered.orders, triggered.unavailable);
};

export const truthOf = (pending: PendingGtt[], fired: FiredGtt[], bookUnavailable = false): Truth => {
  const ids = new Map<string, Found>();
  const stamps = new Map<string, Found>();
  for (const gtt of fired) {
    ids.set(gtt.al_id, { where: 'fired', gtt });
    if (gtt.tag) stamps.set(gtt.tag, { where: 'fired', gtt });
  }
  // Pending last: a GTT in both lists (a read racing a fire) counts as fired only if it left the pending list.
  for (const gtt of pending) {
    ids.set(gtt.al_id, { where: 'pending', gtt });
    if (gtt.tag) stamps.set(gtt.tag, { where: 'pending', gtt });
  }
  return {
    pending,
    fired,
    bookUnavailable,
    byId: (alId) => (alId === undefined ? undefined : ids.get(alId)),
    byStamp: (stamp) => stamps.get(stamp),
    pendingOf: (planId) => pending.filter((g) => parseStamp(g.tag)?.planId === planId),
  };
};

/** The quantity of a pending exit (an OCO: its legs close the same quantity) or stop. */
export const pendingQty = (gtt: PendingGtt): number => Number(gtt.target?.order.qty ?? gtt.qty ?? 0);

/** After a try whose outcome is unknown: the pending GTT with this stamp, if the broker shows one now. */
export const findPending = async (
  pending: DirectHandler,
  stamp: string,
  deadline: number,
): Promise<PendingGtt | undefined> =>
  (await allPages<PendingGtt>(pending, deadline)).orders.find((g) => g.tag === stamp);
