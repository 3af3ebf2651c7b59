/**
 * The watcher's items in the events table and how its state maps onto them (store.ts does the reading and writing):
 * `watcher` / `lease` holds the account-wide fields (and `copyAt`, when the copy below was listed),
 * `watcher` / `order#<al_id>` one order's last published view, `watcher` / `ended#<al_id>` an order whose end was
 * published. `stateWrites` is the pure difference between two states as DynamoDB writes, so a cycle where nothing
 * changed writes nothing.
 *
 * The watcher's copy of the pending list: `watcher-copy` / `<al_id>` holds each pending order's record as the broker
 * listed it (GetGTTOrder answers from it while it is fresh: orders/gateway/order-copy.ts). Its own partition, so a run's
 * state read never reads it; written only when the record changed (`recordHash` in the order item says which), and
 * deleted as soon as the order is missing from the list.
 */
import { createHash } from 'node:crypto';

import type { AttributeValue, WriteRequest } from '@aws-sdk/client-dynamodb';

import type { OrderView } from '../../base/schemas/events.js';
import type { GttOrder } from '../../base/schemas/reply.js';

export const WATCHER_PK = 'watcher';
export const LEASE_SK = 'lease';
export const ORDER_PREFIX = 'order#';
export const ENDED_PREFIX = 'ended#';
export const COPY_PK = 'watcher-copy';
export const watcherKey = (sk: string): Record<string, AttributeValue> => ({ pk: { S: WATCHER_PK }, sk: { S: sk } });

export interface KnownOrder {
  view: OrderView;
  /** contentHash(view): a change of it is a modification. */
  hash: string;
  /** Consecutive runs that found the order neither pending nor in the history (it is `Removed` after two). */
  missingRuns?: number;
  /** recordOf(record) of the record in the copy; absent while the copy has none (missing, or never written). */
  recordHash?: string;
  /** The broker's record as this run listed it (not stored in the order item: in the copy). */
  record?: GttOrder;
}

export interface WatcherState {
  /** False until the first run has taken its baseline (which publishes nothing). */
  initialized: boolean;
  session: 'alive' | 'dead';
  orders: Record<string, KnownOrder>;
  /** al_ids whose end (triggered, cancelled, removed) was published and still appear in the broker's history. */
  ended: string[];
  /**
   * The orders whose items may differ from those of the state this one was derived from (the diff's `next`): the
   * writes between the two look at these only. Absent: any may differ, every order is compared.
   */
  touched?: ReadonlySet<string>;
}

/** What a run took the lease with: the account-wide fields and their version. */
export interface Lease {
  version: number;
  initialized: boolean;
  session: 'alive' | 'dead';
  /** When the broker's pending list the copy holds was read (epoch ms: the start of that run's read). */
  copyAt?: number;
}

export interface Snapshot extends Lease {
  state: WatcherState;
}

/** What one commit wrote (for the watcher's metrics and the bench). */
export interface CommitStats {
  /** Order and ended items put or deleted. */
  itemsWritten: number;
  /** Bytes of the items put (attribute names and values, as DynamoDB sizes them, near enough). */
  bytesWritten: number;
  /** DynamoDB calls, the lease's included. */
  calls: number;
  /** Items of the copy (`watcher-copy`) put or deleted. */
  copiesWritten: number;
}

export const EMPTY_STATE: WatcherState = { initialized: false, session: 'alive', orders: {}, ended: [] };

/** A record's hash: the copy is written again only when it changes. */
export const recordHashOf = (record: GttOrder): string =>
  createHash('sha256').update(JSON.stringify(record)).digest('base64url').slice(0, 22);

export const knownEqual = (a: KnownOrder, b: KnownOrder) =>
  a === b ||
  (a.hash === b.hash &&
    (a.missingRuns ?? 0) === (b.missingRuns ?? 0) &&
    a.recordHash === b.recordHash &&
    JSON.stringify(a.view) === JSON.stringify(b.view));

/**
 * What the watcher's state Query reads of each item: not the view (most of an item's bytes), which only the orders
 * gone from the list need (`VIEW_PROJECTION`, read for those only: store.ts, loadViews).
 */
export const STATE_PROJECTION = {
  ProjectionExpression: 'sk, #hash, recordHash, missingRuns',
  ExpressionAttributeNames: { '#hash': 'hash' },
};
export const VIEW_PROJECTION = { ProjectionExpression: 'sk, #view', ExpressionAttributeNames: { '#view': 'view' } };

/**
 * An order item as the state's Query read it: its view is parsed when first used (most runs use a few: the orders
 * that ended), so a run over 100,000 unchanged orders does not parse 100,000 views. An item read without its view
 * (STATE_PROJECTION) gets it set once read (`known.view = ...`); using it before is an error, never an empty view.
 */
export const knownFromItem = (item: Record<string, AttributeValue>): KnownOrder => {
  let text = item.view?.S;
  let view: OrderView | undefined;
  const known = {
    hash: item.hash?.S ?? '',
    ...(item.missingRuns?.N ? { missingRuns: Number(item.missingRuns.N) } : {}),
    ...(item.recordHash?.S ? { recordHash: item.recordHash.S } : {}),
  } as KnownOrder;
  Object.defineProperty(known, 'view', {
    enumerable: true,
    get: () => {
      if (view) return view;
      if (text === undefined) throw new Error(`the view of watcher item ${item.sk?.S ?? '?'} was not read`);
      view = JSON.parse(text) as OrderView;
      text = undefined;
      return view;
    },
    set: (value: OrderView) => {
      view = value;
      text = undefined;
    },
  });
  return known;
};

export const orderItem = (alId: string, known: KnownOrder): Record<string, AttributeValue> => ({
  ...watcherKey(`${ORDER_PREFIX}${alId}`),
  view: { S: JSON.stringify(known.view) },
  hash: { S: known.hash },
  ...(known.missingRuns ? { missingRuns: { N: String(known.missingRuns) } } : {}),
  ...(known.recordHash ? { recordHash: { S: known.recordHash } } : {}),
});

const copyKey = (alId: string): Record<string, AttributeValue> => ({ pk: { S: COPY_PK }, sk: { S: alId } });

/**
 * The writes that bring the copy from `before` to `after`: a put per order listed with a record the copy does not
 * hold yet, a delete per order gone or missing from the list. Every one in the run (the copy is whole after one
 * run, even the first over 100,000 orders): an unchanged order (the same object in both states) writes nothing.
 */
export function* copyWrites(before: WatcherState, after: WatcherState): Generator<WriteRequest> {
  const one = (alId: string, old: KnownOrder | undefined, known: KnownOrder | undefined): WriteRequest | undefined => {
    if (old === known) return undefined;
    if (!known) return old?.recordHash ? { DeleteRequest: { Key: copyKey(alId) } } : undefined;
    if (known.record && known.recordHash && old?.recordHash !== known.recordHash)
      return { PutRequest: { Item: { ...copyKey(alId), record: { S: JSON.stringify(known.record) } } } };
    return !known.recordHash && old?.recordHash ? { DeleteRequest: { Key: copyKey(alId) } } : undefined;
  };
  let write: WriteRequest | undefined;
  if (after.touched) {
    for (const alId of after.touched) if ((write = one(alId, before.orders[alId], after.orders[alId]))) yield write;
    return;
  }
  for (const alId in after.orders) if ((write = one(alId, before.orders[alId], after.orders[alId]))) yield write;
  for (const alId in before.orders)
    if (!(alId in after.orders) && (write = one(alId, before.orders[alId], undefined))) yield write;
}

/** The copy's item of one order: its record, or undefined. */
export const recordOfCopy = (item: Record<string, AttributeValue> | undefined): GttOrder | undefined =>
  item?.record?.S ? (JSON.parse(item.record.S) as GttOrder) : undefined;

export const copyItemKey = copyKey;

/** DynamoDB's item size: names and values in UTF-8, numbers about their digits. */
export const itemBytes = (item: Record<string, AttributeValue>) =>
  Object.entries(item).reduce(
    (sum, [name, value]) => sum + Buffer.byteLength(name) + Buffer.byteLength(value.S ?? value.N ?? ''),
    0,
  );

/**
 * The writes that turn `before` into `after`: a put per order that is new or changed, a delete per order gone, and
 * the same for the ended ids. Orders that did not change are not written.
 */
export function* stateWrites(before: WatcherState, after: WatcherState): Generator<WriteRequest> {
  const one = (alId: string, old: KnownOrder | undefined, known: KnownOrder | undefined): WriteRequest | undefined => {
    if (known) return !old || !knownEqual(old, known) ? { PutRequest: { Item: orderItem(alId, known) } } : undefined;
    return old ? { DeleteRequest: { Key: watcherKey(`${ORDER_PREFIX}${alId}`) } } : undefined;
  };
  let write: WriteRequest | undefined;
  if (after.touched) {
    for (const alId of after.touched) if ((write = one(alId, before.orders[alId], after.orders[alId]))) yield write;
  } else {
    for (const alId in after.orders) if ((write = one(alId, before.orders[alId], after.orders[alId]))) yield write;
    for (const alId in before.orders)
      if (!(alId in after.orders) && (write = one(alId, before.orders[alId], undefined))) yield write;
  }
  const endedBefore = new Set(before.ended);
  const endedAfter = new Set(after.ended);
  for (const alId of endedAfter)
    if (!endedBefore.has(alId)) yield { PutRequest: { Item: watcherKey(`${ENDED_PREFIX}${alId}`) } };
  for (const alId of endedBefore)
    if (!endedAfter.has(alId)) yield { DeleteRequest: { Key: watcherKey(`${ENDED_PREFIX}${alId}`) } };
}

export const toLease = (item: Record<string, AttributeValue> | undefined): Lease => ({
  version: Number(item?.version?.N ?? 0),
  initialized: item?.initialized?.BOOL ?? false,
  session: item?.session?.S === 'dead' ? 'dead' : 'alive',
  ...(item?.copyAt?.N ? { copyAt: Number(item.copyAt.N) } : {}),
});
