/**
 * The transactional outbox of the gateway's lifecycle events: the event of a broker success is written to DynamoDB
 * in the same write that records the success, and forwarded to EventBridge off the request path (the
 * EventForwarder, triggered by the idempotency table's stream). No reply waits for PutEvents, and no event can be
 * lost between the broker's success and the publish: if the record is written, so is its event.
 *
 * Two kinds of items of the idempotency table carry events, both with `status` COMPLETED and the events in `data`
 * (a map, the layout Powertools' idempotency records already have), so one stream filter selects both:
 *
 * - the idempotency record of a call with an Idempotency-Key: `data` is `{kind: 'ok', result, outbox: [...]}`,
 *   written by the one UpdateItem that completes the record (orders/journal.ts);
 * - `outbox#<eventId>`: a call without a key (a modify or cancel sent without one, the kill switch's sweep) puts
 *   one item of its own after the broker's success: `data` is `{kind: 'outbox', outbox: [...]}`.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';

import { dynamoDbClient, PutItemCommand } from '../../base/aws/dynamo.js';
import { redactDeep } from '../../base/contract/redact.js';
import type { LifecycleEvent } from '../../base/schemas/events.js';

/** The attribute names of Powertools' idempotency records, which the outbox items share. */
export const OUTBOX_ATTRIBUTES = { key: 'id', status: 'status', data: 'data', expiry: 'expiration' } as const;
export const OUTBOX_ITEM_PREFIX = 'outbox#';
/** A standalone outbox item is kept a day: the forwarder reads it from the stream within seconds. */
export const OUTBOX_ITEM_TTL_SECONDS = 86_400;

const isEvent = (value: unknown): value is LifecycleEvent =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { detailType?: unknown }).detailType === 'string' &&
  typeof (value as { detail?: { eventId?: unknown } }).detail?.eventId === 'string';

/** The events a stream image carries (none for an in-progress record, an outcome-unknown one, or no outbox). */
export const outboxOfImage = (image: Record<string, unknown> | undefined): LifecycleEvent[] => {
  if (!image || (image[OUTBOX_ATTRIBUTES.status] as { S?: string } | undefined)?.S !== 'COMPLETED') return [];
  const data = image[OUTBOX_ATTRIBUTES.data];
  if (!data) return [];
  try {
    // The stream's image is DynamoDB JSON (aws-lambda's own AttributeValue type, the same wire shape).
    const parsed = unmarshall({ data } as unknown as Record<string, AttributeValue>).data as
      { outbox?: unknown } | undefined;
    return Array.isArray(parsed?.outbox) ? parsed.outbox.filter(isEvent) : [];
  } catch {
    return [];
  }
};

/** What is stored: nothing token-shaped, whatever the broker echoed (the events are persisted). */
export const outboxEntries = (events: readonly LifecycleEvent[]): LifecycleEvent[] =>
  events.map((event) => redactDeep(event) as LifecycleEvent);

/** One standalone outbox item with these events (at least one), as put alone or in a transaction. */
export const outboxItem = (events: readonly LifecycleEvent[], now = Date.now()): Record<string, AttributeValue> => ({
  [OUTBOX_ATTRIBUTES.key]: { S: `${OUTBOX_ITEM_PREFIX}${events[0]!.detail.eventId}` },
  [OUTBOX_ATTRIBUTES.status]: { S: 'COMPLETED' },
  [OUTBOX_ATTRIBUTES.data]: {
    M: marshall({ kind: 'outbox', outbox: outboxEntries(events) }, { removeUndefinedValues: true }),
  },
  [OUTBOX_ATTRIBUTES.expiry]: { N: String(Math.floor(now / 1000) + OUTBOX_ITEM_TTL_SECONDS) },
});

export class OutboxTable {
  constructor(private readonly options: { tableName: string; endpoint?: string | undefined }) {}

  /** One standalone outbox item with these events (a call without an idempotency record to carry them). */
  async put(events: readonly LifecycleEvent[], now = Date.now(), signal?: AbortSignal): Promise<void> {
    if (!events.length) return;
    const item = outboxItem(events, now);
    await dynamoDbClient(this.options.endpoint).send(
      new PutItemCommand({ TableName: this.options.tableName, Item: item }),
      signal ? { abortSignal: signal } : {},
    );
  }
}
