/**
 * The outbox's forwarder (events/core/outbox.ts): the records of the idempotency table's stream in, their events on the
 * bus, each marked published. Off the request path, so it can afford what the order's reply could not: a cancel's
 * event gains the order's last known fields (the watcher's view), and an event already published (by the watcher,
 * or by an earlier delivery of the same records) is not published again.
 *
 * A record whose events were not all accepted is reported as a batch item failure, so Lambda delivers it (and the
 * ones after it) again; those already accepted are marked and skipped then. Exactly once by eventId as before:
 * consumers deduplicate on it for the rare case of a marker that could not be written.
 */
import type { EventPublisher } from '../../base/aws/publisher.js';
import type { LifecycleEvent, OrderView } from '../../base/schemas/events.js';
import { describesOrder, viewOfDetail } from './known-orders.js';
import { outboxOfImage } from './outbox.js';
import type { EventsTable } from './store.js';

/** The part of a DynamoDB stream record the forwarder reads (aws-lambda's DynamoDBRecord has it). */
export interface OutboxRecord {
  dynamodb?: { SequenceNumber?: string; NewImage?: Record<string, unknown> };
}

export interface ForwardResult {
  /** Records to deliver again (Lambda's ReportBatchItemFailures), by sequence number. */
  batchItemFailures: { itemIdentifier: string }[];
  published: number;
  /** Already published (by the watcher, or an earlier delivery): not sent again. */
  skipped: number;
  failed: { eventId: string; reason: string }[];
  markerError?: string;
}

export interface ForwarderDeps {
  publisher: EventPublisher;
  table: Pick<EventsTable, 'publishedAmong' | 'markPublished' | 'lastKnownOrder'>;
  /** PutEvents' deadline for the batch. */
  timeoutMs?: number;
}

const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * A cancel's event as queued carries its al_id only; the order as it was last known completes it: a placement or
 * modification earlier in the same batch (not yet marked), else the newest one published (known-orders.ts), else the
 * watcher's view.
 */
export const completedEnd = async (
  event: LifecycleEvent,
  inBatch: ReadonlyMap<string, OrderView>,
  table: Pick<EventsTable, 'lastKnownOrder'>,
): Promise<LifecycleEvent> => {
  if (event.detailType !== 'GTT Cancelled' || 'tsym' in event.detail) return event;
  const alId = String((event.detail as { al_id: string }).al_id);
  const view = inBatch.get(alId) ?? (await table.lastKnownOrder(alId).catch(() => undefined));
  return view ? ({ ...event, detail: { ...view, ...event.detail } } as LifecycleEvent) : event;
};

/** Completes the batch's cancels in order, each from what came before it. */
export const completedEnds = async (
  events: readonly LifecycleEvent[],
  table: Pick<EventsTable, 'lastKnownOrder'>,
): Promise<LifecycleEvent[]> => {
  const inBatch = new Map<string, OrderView>();
  const done: LifecycleEvent[] = [];
  for (const event of events) {
    if (describesOrder(event)) inBatch.set((event.detail as { al_id: string }).al_id, viewOfDetail(event.detail));
    done.push(await completedEnd(event, inBatch, table));
  }
  return done;
};

export const forwardRecords = async (records: readonly OutboxRecord[], deps: ForwarderDeps): Promise<ForwardResult> => {
  const byRecord = records.map((record) => ({
    sequence: record.dynamodb?.SequenceNumber ?? '',
    events: outboxOfImage(record.dynamodb?.NewImage),
  }));
  const all = byRecord.flatMap((record) => record.events);
  const result: ForwardResult = { batchItemFailures: [], published: 0, skipped: 0, failed: [] };
  if (!all.length) return result;

  let already: Set<string>;
  try {
    already = await deps.table.publishedAmong(all.map((event) => event.detail.eventId));
  } catch (error) {
    // Without the markers, publishing could repeat what the watcher already did: deliver the batch again later.
    result.failed = all.map((event) => ({ eventId: event.detail.eventId, reason: describe(error) }));
    result.batchItemFailures = byRecord.filter((r) => r.events.length).map((r) => ({ itemIdentifier: r.sequence }));
    return result;
  }
  const seen = new Set<string>(already);
  const fresh: LifecycleEvent[] = [];
  for (const event of all) {
    if (seen.has(event.detail.eventId)) {
      result.skipped++;
      continue;
    }
    seen.add(event.detail.eventId);
    fresh.push(event);
  }
  const toSend = await completedEnds(fresh, deps.table);
  const sent = await deps.publisher.publish(toSend, deps.timeoutMs);
  result.published = sent.published.length;
  result.failed = sent.failed;
  if (sent.published.length) {
    try {
      // With the events themselves: the account's history (GET /events) keeps them.
      const accepted = new Set(sent.published);
      await deps.table.markPublished(toSend.filter((event) => accepted.has(event.detail.eventId)));
    } catch (error) {
      // Published: a later delivery or the watcher may publish it again, with the same eventId.
      result.markerError = describe(error);
    }
  }
  const failedIds = new Set(sent.failed.map((failure) => failure.eventId));
  result.batchItemFailures = byRecord
    .filter((record) => record.events.some((event) => failedIds.has(event.detail.eventId)))
    .map((record) => ({ itemIdentifier: record.sequence }));
  return result;
};
