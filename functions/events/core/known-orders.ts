/**
 * Each order as it was last known: every published `GTT Placed` and `GTT Modified` (whoever published it, the
 * gateway's forwarder or the watcher) leaves one item in the events table, partition `known#<al_id>`, sort key
 * `<observedAt>#<eventId>`, holding the order's view. The newest is what the order was when it ended: a cancel's
 * event, which the gateway queues with its al_id only, is completed from it (forwarder.ts), so a cancel after a
 * modify describes the modified order, even before the watcher's next run has seen the modification.
 *
 * Written in the same BatchWriteItem as the event's `published#` marker (store.ts: markPublished); kept a year and
 * a day (a GTT is valid up to a year), expired by TTL.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import { type LifecycleEvent, type OrderView, orderView } from '../../base/schemas/events.js';

export const KNOWN_PREFIX = 'known#';
export const KNOWN_TTL_SECONDS = 366 * 86_400;
const VIEW_FIELDS = Object.keys(orderView.shape);

/** The order view an event's detail carries (its order fields, not the event's own). */
export const viewOfDetail = (detail: object): OrderView =>
  Object.fromEntries(
    Object.entries(detail).filter(([field, value]) => VIEW_FIELDS.includes(field) && value !== undefined),
  ) as OrderView;

/** Whether an event describes the whole order as it now is (a placement or a modification). */
export const describesOrder = (event: LifecycleEvent): boolean =>
  (event.detailType === 'GTT Placed' || event.detailType === 'GTT Modified') && 'tsym' in event.detail;

/** The known-order item of a published placement or modification. */
export const knownOrderItem = (event: LifecycleEvent, now: number): Record<string, AttributeValue> => {
  const detail = event.detail as { al_id: string; observedAt: string; eventId: string };
  return {
    pk: { S: `${KNOWN_PREFIX}${detail.al_id}` },
    sk: { S: `${detail.observedAt}#${detail.eventId}` },
    view: { S: JSON.stringify(viewOfDetail(event.detail)) },
    expiresAt: { N: String(Math.floor(now / 1000) + KNOWN_TTL_SECONDS) },
  };
};
