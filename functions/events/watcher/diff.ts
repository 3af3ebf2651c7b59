/**
 * What changed between the watcher's last snapshot and the broker's lists: a pure function, so every rule below
 * is tested without a network.
 *
 * - A pending order the snapshot does not have: `GTT Placed`. One whose content changed: `GTT Modified`.
 * - An order that left the pending list ends once, with the broker's history saying how: TRIGGERED, EXECUTED (and
 *   any other status) `GTT Triggered`; CANCELLED `GTT Cancelled`; REJECTED or EXPIRED `GTT Removed`. A record
 *   still *PENDING* is waited for.
 * - An order gone from both lists is `GTT Removed` once it was missing for `removedAfterRuns` runs (the history may
 *   lag behind the pending list), unless its end was already published (the gateway's cancel).
 * - A history record of an order the snapshot never had (placed and fired between two runs) ends it too.
 * - The first run takes a baseline and publishes nothing.
 *
 * `published` holds the eventIds already published (by the gateway or an earlier run): they are not published
 * again, but the snapshot moves on as if they were.
 */
import type { FateDetailType, LifecycleEvent, OrderDetailType, OrderView } from '../../base/schemas/events.js';
import type { BookOrder, GttOrder } from '../../base/schemas/reply.js';
import { contentHash, type OrderEventIds, viewOfFiredOrder, viewOfRecord } from '../core/views.js';
import { type KnownOrder, recordHashOf, type WatcherState } from '../core/watcher-items.js';

/** A history record as the operation table normalises it (GetTriggeredGTTOrders), with the order it placed. */
export type HistoryOrder = GttOrder & {
  status: string;
  triggeredAt?: string;
  firedLeg?: 'target' | 'stopLoss';
  order?: BookOrder;
};

/** A listed order the watcher's read found unchanged since the snapshot (pending-stream.ts): its id only. */
export interface UnchangedOrder {
  al_id: string;
  unchanged: true;
}

export interface DiffInput {
  state: WatcherState;
  /** The pending list: each order read, or unchanged since the snapshot (which holds it, with its `recordHash`). */
  pending: readonly (GttOrder | UnchangedOrder)[];
  /** The hash a read order's copy is kept under (pending-stream.ts: of its text); by default of its normalised JSON. */
  recordHashOf?: (order: GttOrder) => string | undefined;
  history: readonly HistoryOrder[];
  published: ReadonlySet<string>;
  observedAt: string;
  removedAfterRuns: number;
  /** The ids of this deployment's and account's order events (views.ts: orderEventIds). */
  ids: OrderEventIds;
}

export interface DiffResult {
  /** Every change seen, published or not (their eventIds are what the markers are checked for). */
  changes: LifecycleEvent[];
  /** The changes to publish now: `changes` minus `published`. */
  toPublish: LifecycleEvent[];
  /** The next state; its `touched` names every order whose item may differ from `state`'s. */
  next: WatcherState;
  /** The snapshot's orders that are not in the pending list (their ends may have been published by the gateway). */
  gone: string[];
}

type EndType = Extract<OrderDetailType, 'GTT Triggered' | 'GTT Cancelled' | 'GTT Removed'>;

/** How a history status ends an order; undefined while it is still pending at the broker. */
export const endOf = (status: string): EndType | undefined => {
  const s = status.toUpperCase();
  if (s.includes('PENDING')) return undefined;
  if (s.includes('CANCEL')) return 'GTT Cancelled';
  if (s.includes('REJECT') || s.includes('EXPIR')) return 'GTT Removed';
  return 'GTT Triggered';
};

/** An order's view and its hash, once per record (a run diffs twice: before and after reading the markers). */
const views = new WeakMap<GttOrder, { view: OrderView; hash: string }>();
const viewAndHash = (order: GttOrder) => {
  let known = views.get(order);
  if (!known) {
    const view = viewOfRecord(order);
    known = { view, hash: contentHash(view) };
    views.set(order, known);
  }
  return known;
};

export const diffSnapshot = (input: DiffInput): DiffResult => {
  const { state, published, ids } = input;
  const common = { observedAt: input.observedAt, origin: 'watcher' as const };
  const changes: LifecycleEvent[] = [];
  // Only the orders read or gone are touched: a cycle over unchanged orders compares (and writes) nothing else.
  const touched = new Set<string>();
  const gone: string[] = [];
  const next: WatcherState = { initialized: true, session: 'alive', orders: {}, ended: [], touched };
  const endedBefore = new Set(state.ended);
  const endedNow = new Set<string>();
  const history = new Map(input.history.map((h) => [h.al_id, h]));

  const end = (type: EndType, view: OrderView, record?: HistoryOrder) => {
    endedNow.add(view.al_id);
    const eventId = ids.ended(view.al_id);
    if (type === 'GTT Triggered') {
      changes.push({
        detailType: type,
        detail: {
          ...view,
          eventId,
          ...common,
          status: record?.status ?? 'TRIGGERED',
          ...(record?.firedLeg ? { firedLeg: record.firedLeg } : {}),
          ...(record?.triggeredAt ? { triggeredAt: record.triggeredAt } : {}),
          ...(record?.order ? { order: viewOfFiredOrder(record.order) } : {}),
        },
      });
    } else {
      changes.push({
        detailType: type,
        detail: { ...view, eventId, ...common, ...(record ? { status: record.status } : {}) },
      });
    }
  };

  const hashOfRecord = input.recordHashOf ?? recordHashOf;
  for (const order of input.pending) {
    const known = state.orders[order.al_id];
    if ('unchanged' in order) {
      // The same text as the snapshot's copy: the same view, nothing to publish or write.
      if (known) {
        next.orders[order.al_id] = known;
        continue;
      }
      throw new Error(`the snapshot has no order ${order.al_id} for an unchanged record`);
    }
    touched.add(order.al_id);
    const { view, hash } = viewAndHash(order);
    if (!known) {
      if (state.initialized && !endedBefore.has(order.al_id)) {
        changes.push({ detailType: 'GTT Placed', detail: { ...view, eventId: ids.placed(order.al_id), ...common } });
      }
    } else if (known.hash !== hash && state.initialized) {
      changes.push({
        detailType: 'GTT Modified',
        detail: { ...view, eventId: ids.modified(order.al_id, hash), ...common },
      });
    }
    // The record goes to the copy (GetGTTOrder's answer while fresh), written when it changed.
    const recordHash = hashOfRecord(order);
    next.orders[order.al_id] = { view, hash, record: order, ...(recordHash ? { recordHash } : {}) };
  }

  const pendingIds = new Set(input.pending.map((o) => o.al_id));
  for (const alId in state.orders) {
    if (pendingIds.has(alId)) continue;
    const known = state.orders[alId]!;
    gone.push(alId);
    touched.add(alId);
    const record = history.get(alId);
    const type = record ? endOf(record.status) : undefined;
    if (type) {
      end(type, record ? { ...viewOfRecord(record), al_id: alId } : known.view, record);
    } else if (published.has(ids.ended(alId))) {
      endedNow.add(alId); // the gateway published its cancel
    } else {
      // Missing from the list: the copy forgets it at once (it is no longer the broker's word).
      const { recordHash: _gone, ...kept } = known;
      const waiting: KnownOrder = { ...kept, missingRuns: (known.missingRuns ?? 0) + 1 };
      if (!record && waiting.missingRuns! >= input.removedAfterRuns) end('GTT Removed', known.view);
      else next.orders[alId] = waiting;
    }
  }

  for (const record of input.history) {
    const alId = record.al_id;
    if (pendingIds.has(alId) || alId in state.orders || endedBefore.has(alId) || endedNow.has(alId)) continue;
    const type = endOf(record.status);
    if (!type) continue;
    if (state.initialized) end(type, viewOfRecord(record), record);
    else endedNow.add(alId);
  }

  next.ended = [...new Set([...endedBefore, ...endedNow])].filter((id) => endedNow.has(id) || history.has(id));
  if (!state.initialized) return { changes: [], toPublish: [], next, gone };
  return { changes, toPublish: changes.filter((c) => !published.has(c.detail.eventId)), next, gone };
};

const FATE_EVENT: Partial<Record<BookOrder['status'], FateDetailType>> = {
  filled: 'Order Filled',
  rejected: 'Order Rejected',
  cancelled: 'Order Cancelled',
};

/**
 * The orders fired GTTs placed that reached a final status (filled, rejected, cancelled): one event each, whose id
 * names the GTT, the order and the status, so the published markers keep it to one whatever the run.
 */
export const settledEvents = (
  history: readonly HistoryOrder[],
  ids: OrderEventIds,
  observedAt: string,
): LifecycleEvent[] =>
  history.flatMap((record) => {
    const type = record.order ? FATE_EVENT[record.order.status] : undefined;
    if (!type || !record.order) return [];
    const leg = record.type === 'oco' ? (record.firedLeg === 'stopLoss' ? record.stopLoss : record.target) : undefined;
    return [
      {
        detailType: type,
        detail: {
          eventId: ids.settled(record.al_id, record.order.norenordno, record.order.status),
          observedAt,
          origin: 'watcher' as const,
          al_id: record.al_id,
          exch: record.exch,
          tsym: record.tsym,
          side: leg?.order.trantype ?? record.trantype,
          quantity: leg?.order.qty ?? record.qty,
          ...(record.firedLeg ? { firedLeg: record.firedLeg } : {}),
          ...(record.tag ? { tag: record.tag } : {}),
          order: viewOfFiredOrder(record.order),
        },
      },
    ];
  });
