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
import {
  type AttributeValue,
  type DynamoDBClient,
  QueryCommand,
  type QueryCommandOutput,
} from '@aws-sdk/client-dynamodb';

import { redactDeep } from '../contract/redact.js';
import { dynamoDbClient } from '../safety/dynamodb-client.js';
import type { LifecycleEvent } from '../schemas/events.js';
import { type EventsHistoryResult, HISTORY_DAYS, startOfIndiaDay } from '../schemas/events-history.js';

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

const encode = (sk: string) => Buffer.from(JSON.stringify([1, sk])).toString('base64url');
const decode = (cursor: string): string | undefined => {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    return Array.isArray(parsed) && parsed[0] === 1 && typeof parsed[1] === 'string' && parsed[1].length < 200
      ? parsed[1]
      : undefined;
  } catch {
    return undefined;
  }
};

export class EventHistory {
  private readonly client: DynamoDBClient;

  constructor(private readonly options: { tableName: string; endpoint?: string | undefined }) {
    this.client = dynamoDbClient(options.endpoint);
  }

  /** One page, oldest first; `undefined` when the cursor is not one of ours (the caller answers a clear 400). */
  async read(
    query: { since?: string | undefined; type?: string | undefined; limit: number; cursor?: string | undefined },
    now = new Date(),
  ): Promise<EventsHistoryResult | undefined> {
    const since = query.since ? new Date(query.since).toISOString() : startOfIndiaDay(now);
    let start: Record<string, AttributeValue> | undefined;
    if (query.cursor) {
      const sk = decode(query.cursor);
      // A cursor from a page read with an earlier `since` (or not ours at all) does not continue this one.
      if (!sk || sk < since) return undefined;
      start = { pk: { S: HISTORY_PK }, sk: { S: sk } };
    }
    const events: EventsHistoryResult['events'] = [];
    let last: string | undefined;
    for (let page = 0; page < MAX_QUERIES_PER_PAGE && events.length < query.limit; page++) {
      const reply: QueryCommandOutput = await this.client.send(
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
    return { events, since, ...(last ? { nextCursor: encode(last) } : {}) };
  }
}
