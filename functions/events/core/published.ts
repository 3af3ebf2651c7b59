/**
 * An event EventBridge accepted, recorded once, whichever producer got there first. Both producers may publish the
 * same change (the gateway's outbox and the GttWatcher, with one stable eventId: at least once to EventBridge), but
 * the account's timeline (history.ts, `GET /events`) lists it once: its marker, its history item and the order it
 * describes are written in one TransactWriteItems whose marker is conditional on no producer having recorded the
 * event yet. A transaction cancelled on that condition means the other producer did: nothing more to write.
 */
import type { AttributeValue, TransactWriteItem } from '@aws-sdk/client-dynamodb';

import { cancellationReasons, type DynamoClient, TransactWriteItemsCommand } from '../../base/aws/dynamo.js';
import type { LifecycleEvent } from '../../base/schemas/events.js';
import { historyItem } from './history.js';
import { describesOrder, knownOrderItem } from './known-orders.js';

/** How many events' transactions are in flight at once. */
const CONCURRENCY = 4;
/** Tries of one event's transaction that met the other producer's (TransactionConflict). */
const CONFLICT_TRIES = 3;

/** The writes of one event: its marker first (conditional), then its history item and, if it has one, its order. */
const itemsOf = (
  tableName: string,
  event: LifecycleEvent,
  marker: Record<string, AttributeValue>,
  now: number,
): TransactWriteItem[] => [
  { Put: { TableName: tableName, Item: marker, ConditionExpression: 'attribute_not_exists(pk)' } },
  { Put: { TableName: tableName, Item: historyItem(event, now) } },
  // The order as it now is, for the event of its end (known-orders.ts).
  ...(describesOrder(event) ? [{ Put: { TableName: tableName, Item: knownOrderItem(event, now) } }] : []),
];

/**
 * Records each event (distinct ids) once: `markerOf` gives its marker item. Returns how many were recorded here (the
 * rest had been by the other producer).
 */
export const recordPublished = async (
  client: DynamoClient,
  tableName: string,
  events: readonly LifecycleEvent[],
  markerOf: (eventId: string) => Record<string, AttributeValue>,
  now: number,
  signal?: AbortSignal,
): Promise<number> => {
  let next = 0;
  let recorded = 0;
  const one = async (event: LifecycleEvent) => {
    const items = itemsOf(tableName, event, markerOf(event.detail.eventId), now);
    for (let attempt = 1; ; attempt++) {
      try {
        await client.send(
          new TransactWriteItemsCommand({ TransactItems: items }),
          signal ? { abortSignal: signal } : {},
        );
        recorded++;
        return;
      } catch (error) {
        const codes = cancellationReasons(error)?.map((r) => r.Code);
        // The marker's condition: the other producer recorded this event.
        if (codes?.[0] === 'ConditionalCheckFailed') return;
        // Both producers' transactions met on the marker: the next try finds which one won.
        if (codes?.includes('TransactionConflict') && attempt < CONFLICT_TRIES) {
          await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.floor(Math.random() * 20)));
          continue;
        }
        throw error;
      }
    }
  };
  const worker = async () => {
    while (next < events.length) await one(events[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, events.length) }, worker));
  return recorded;
};
