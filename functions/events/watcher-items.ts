/**
 * The watcher's items in the events table and how its state maps onto them (store.ts does the reading and writing):
 * `watcher` / `lease` holds the account-wide fields, `watcher` / `order#<al_id>` one order's last published view,
 * `watcher` / `ended#<al_id>` an order whose end was published. `stateWrites` is the pure difference between two
 * states as DynamoDB writes, so a cycle where nothing changed writes nothing.
 */
import type { AttributeValue, WriteRequest } from '@aws-sdk/client-dynamodb';

import type { OrderView } from '../schemas/events.js';

export const WATCHER_PK = 'watcher';
export const LEASE_SK = 'lease';
export const ORDER_PREFIX = 'order#';
export const ENDED_PREFIX = 'ended#';
export const watcherKey = (sk: string): Record<string, AttributeValue> => ({ pk: { S: WATCHER_PK }, sk: { S: sk } });

export interface KnownOrder {
  view: OrderView;
  /** contentHash(view): a change of it is a modification. */
  hash: string;
  /** Consecutive runs that found the order neither pending nor in the history (it is `Removed` after two). */
  missingRuns?: number;
}

export interface WatcherState {
  /** False until the first run has taken its baseline (which publishes nothing). */
  initialized: boolean;
  session: 'alive' | 'dead';
  orders: Record<string, KnownOrder>;
  /** al_ids whose end (triggered, cancelled, removed) was published and still appear in the broker's history. */
  ended: string[];
}

/** What a run took the lease with: the account-wide fields and their version. */
export interface Lease {
  version: number;
  initialized: boolean;
  session: 'alive' | 'dead';
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
}

export const EMPTY_STATE: WatcherState = { initialized: false, session: 'alive', orders: {}, ended: [] };

export const knownEqual = (a: KnownOrder, b: KnownOrder) =>
  a.hash === b.hash &&
  (a.missingRuns ?? 0) === (b.missingRuns ?? 0) &&
  JSON.stringify(a.view) === JSON.stringify(b.view);

export const orderItem = (alId: string, known: KnownOrder): Record<string, AttributeValue> => ({
  ...watcherKey(`${ORDER_PREFIX}${alId}`),
  view: { S: JSON.stringify(known.view) },
  hash: { S: known.hash },
  ...(known.missingRuns ? { missingRuns: { N: String(known.missingRuns) } } : {}),
});

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
export const stateWrites = (before: WatcherState, after: WatcherState): WriteRequest[] => {
  const writes: WriteRequest[] = [];
  for (const [alId, known] of Object.entries(after.orders)) {
    const old = before.orders[alId];
    if (!old || !knownEqual(old, known)) writes.push({ PutRequest: { Item: orderItem(alId, known) } });
  }
  for (const alId of Object.keys(before.orders)) {
    if (!(alId in after.orders)) writes.push({ DeleteRequest: { Key: watcherKey(`${ORDER_PREFIX}${alId}`) } });
  }
  const endedBefore = new Set(before.ended);
  const endedAfter = new Set(after.ended);
  for (const alId of endedAfter)
    if (!endedBefore.has(alId)) writes.push({ PutRequest: { Item: watcherKey(`${ENDED_PREFIX}${alId}`) } });
  for (const alId of endedBefore)
    if (!endedAfter.has(alId)) writes.push({ DeleteRequest: { Key: watcherKey(`${ENDED_PREFIX}${alId}`) } });
  return writes;
};

export const toLease = (item: Record<string, AttributeValue> | undefined): Lease => ({
  version: Number(item?.version?.N ?? 0),
  initialized: item?.initialized?.BOOL ?? false,
  session: item?.session?.S === 'dead' ? 'dead' : 'alive',
});
