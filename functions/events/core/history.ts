/**
 * The account's recent lifecycle events, kept in the events table for `GET /events` (HISTORY_DAYS, 30): one item
 * per published event, partition `history`, sort key `<published at>#<eventId>`, written in the same BatchWriteItem
 * as its `published#` marker by whoever published it (the EventForwarder, the watcher, a direct publish). Read
 * with one Query per page, oldest first from `since`, a detail-type filter applied by DynamoDB.
 *
 * Why the table and not the bus's archive: an archive can only be replayed (re-sent to the bus), not read, so
 * "what fired today" would need a replay and a consumer to catch it. The table answers it with one Query, costs one
 * write unit per event, and expires the items by TTL. Not kept here: `Kill Switch` and `Session Renewed`, which
 * their functions publish straight to the bus without a marker (they are in the archive).
 */
import type { AttributeValue, QueryOutput } from '@aws-sdk/client-dynamodb';

import { type DynamoClient, dynamoDbClient, QueryCommand } from '../../base/aws/dynamo.js';
import { redactDeep } from '../../base/contract/redact.js';
import type { LifecycleEvent } from '../../base/schemas/events.js';
import { type EventsHistoryResult, HISTORY_DAYS, startOfIndiaDay } from '../../base/schemas/events-history.js';

export const HISTORY_PK = 'history';
/** A page reads at most this many DynamoDB pages (a type filter can skip many items): the rest is the next page. */
const MAX_QUERIES_PER_PAGE = 10;

/** The history item of one published event. */
export const historyItem = (event: LifecycleEvent, now: number): Record<string, AttributeValue> => {
  const publishedAt = new Date(now).toISOString();
  return {
    pk: { S: HISTORY_PK },
    sk: { S: `${publishedAt}#${event.detail.eventId}` },
    detailType: { S: event.detailType },
    detail: { S: JSON.stringify(redactDeep(event.detail)) },
    expiresAt: { N: String(Math.floor(now / 1000) + HISTORY_DAYS * 86_400) },
  };
};

/**
 * A cursor names where the next page starts and the listing it continues: its `since` (as resolved: the default is
 * the start of the day the first page was read) and its `type`. It continues that listing only, so a cursor passed
 * with another `since` or `type` is refused, never read as a page of a listing it was not made for.
 */
interface Cursor {
  sk: string;
  since: string;
  type: string | null;
}
const encode = (cursor: Cursor) =>
  Buffer.from(JSON.stringify([2, cursor.sk, cursor.since, cursor.type])).toString('base64url');
const decode = (cursor: string): Cursor | undefined => {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(parsed) || parsed.length !== 4 || parsed[0] !== 2) return undefined;
    const [, sk, since, type] = parsed as unknown[];
    return typeof sk === 'string' &&
      sk.length < 200 &&
      typeof since === 'string' &&
      since.length < 40 &&
      (type === null || (typeof type === 'string' && type.length < 64))
      ? { sk, since, type }
      : undefined;
  } catch {
    return undefined;
  }
};

export class EventHistory {
  private readonly client: DynamoClient;

  constructor(private readonly options: { tableName: string; endpoint?: string | undefined }) {
    this.client = dynamoDbClient(options.endpoint);
  }

  /** One page, oldest first; `undefined` when the cursor is not one of ours (the caller answers a clear 400). */
  async read(
    query: { since?: string | undefined; type?: string | undefined; limit: number; cursor?: string | undefined },
    now = new Date(),
  ): Promise<EventsHistoryResult | undefined> {
    const asked = query.since ? new Date(query.since).toISOString() : undefined;
    const type = query.type ?? null;
    let since = asked ?? startOfIndiaDay(now);
    let start: Record<string, AttributeValue> | undefined;
    if (query.cursor) {
      const cursor = decode(query.cursor);
      // Not ours, or made for another listing (another since or type): it does not continue this one.
      if (
        !cursor ||
        (asked !== undefined && cursor.since !== asked) ||
        cursor.type !== type ||
        cursor.sk < cursor.since
      )
        return undefined;
      // Without `since`, the listing the cursor was made for goes on (also past midnight).
      since = cursor.since;
      start = { pk: { S: HISTORY_PK }, sk: { S: cursor.sk } };
    }
    const events: EventsHistoryResult['events'] = [];
    let last: string | undefined;
    for (let page = 0; page < MAX_QUERIES_PER_PAGE && events.length < query.limit; page++) {
      const reply: QueryOutput = await this.client.send(
        new QueryCommand({
          TableName: this.options.tableName,
          KeyConditionExpression: 'pk = :pk AND sk >= :since',
          ExpressionAttributeValues: {
            ':pk': { S: HISTORY_PK },
            ':since': { S: since },
            ...(query.type ? { ':type': { S: query.type } } : {}),
          },
          ...(query.type ? { FilterExpression: 'detailType = :type' } : {}),
          Limit: query.limit - events.length,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of reply.Items ?? []) {
        const sk = item.sk!.S!;
        events.push({
          detailType: item.detailType!.S!,
          publishedAt: sk.slice(0, sk.indexOf('#')),
          detail: JSON.parse(item.detail!.S!) as Record<string, unknown>,
        });
        last = sk;
      }
      start = reply.LastEvaluatedKey;
      if (!start) return { events, since };
      last = start.sk?.S ?? last;
    }
    return { events, since, ...(last ? { nextCursor: encode({ sk: last, since, type }) } : {}) };
  }
}
