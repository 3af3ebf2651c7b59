/**
 * The events table (DynamoDB, partition key `pk`, TTL on `expiresAt`) shared by the two producers:
 *
 * - `published#<eventId>`: a marker written after EventBridge accepted an event. The watcher does not publish a
 *   change whose marker exists, so what the gateway published is not published again (kept 7 days).
 * - `watcher#snapshot`: the watcher's last published view of the account, with a `version` and a lease. A run
 *   takes the lease with a conditional write (an overlapping run finds it taken and stops), and commits the next
 *   snapshot only if it still holds the lease at the version it read; a failed publish commits nothing.
 *
 * The snapshot is one item (DynamoDB's limit is 400 KB: several thousand pending orders).
 */
import {
  BatchGetItemCommand,
  type BatchGetItemCommandOutput,
  BatchWriteItemCommand,
  ConditionalCheckFailedException,
  type DynamoDBClient,
  GetItemCommand,
  UpdateItemCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import type { OrderView } from '../schemas/events.js';
import { dynamoDbClient } from '../safety/dynamodb-client.js';

export const MARKER_TTL_SECONDS = 7 * 86_400;
const SNAPSHOT_KEY = 'watcher#snapshot';
const markerKey = (eventId: string) => `published#${eventId}`;

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

export interface Snapshot {
  version: number;
  state: WatcherState;
}

export const EMPTY_STATE: WatcherState = { initialized: false, session: 'alive', orders: {}, ended: [] };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class EventsTable {
  private readonly client: DynamoDBClient;

  constructor(private readonly options: { tableName: string; endpoint?: string | undefined }) {
    this.client = dynamoDbClient(options.endpoint);
  }

  /** Which of these events were already published (by either producer). */
  async publishedAmong(eventIds: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    const unique = [...new Set(eventIds)];
    for (let i = 0; i < unique.length; i += 100) {
      let keys: Record<string, AttributeValue>[] | undefined = unique.slice(i, i + 100).map((id) => ({ pk: { S: markerKey(id) } }));
      for (let attempt = 0; keys?.length; attempt++) {
        if (attempt > 5) throw new Error('DynamoDB kept returning unprocessed keys for the published markers');
        if (attempt) await sleep(50 * 2 ** attempt);
        const reply: BatchGetItemCommandOutput = await this.client.send(
          new BatchGetItemCommand({ RequestItems: { [this.options.tableName]: { Keys: keys, ProjectionExpression: 'pk' } } }),
        );
        for (const item of reply.Responses?.[this.options.tableName] ?? []) found.add(String(item.pk?.S).slice('published#'.length));
        keys = reply.UnprocessedKeys?.[this.options.tableName]?.Keys;
      }
    }
    return found;
  }

  /** Record that EventBridge accepted these events. */
  async markPublished(eventIds: readonly string[], now = Date.now(), signal?: AbortSignal): Promise<void> {
    const expiresAt = String(Math.floor(now / 1000) + MARKER_TTL_SECONDS);
    const unique = [...new Set(eventIds)];
    for (let i = 0; i < unique.length; i += 25) {
      let requests = unique.slice(i, i + 25).map((id) => ({ PutRequest: { Item: { pk: { S: markerKey(id) }, expiresAt: { N: expiresAt } } } }));
      for (let attempt = 0; requests.length; attempt++) {
        if (attempt > 5) throw new Error('DynamoDB kept returning unprocessed published markers');
        if (attempt) await sleep(50 * 2 ** attempt);
        const reply = await this.client.send(new BatchWriteItemCommand({ RequestItems: { [this.options.tableName]: requests } }), signal ? { abortSignal: signal } : {});
        requests = (reply.UnprocessedItems?.[this.options.tableName] ?? []) as typeof requests;
      }
    }
  }

  /** The watcher's last view of one order (the gateway uses it to describe a cancelled order). */
  async knownOrder(alId: string, signal?: AbortSignal): Promise<OrderView | undefined> {
    const snapshot = await this.readSnapshot(signal);
    return snapshot.state.orders[alId]?.view;
  }

  async readSnapshot(signal?: AbortSignal): Promise<Snapshot> {
    const reply = await this.client.send(
      new GetItemCommand({ TableName: this.options.tableName, Key: { pk: { S: SNAPSHOT_KEY } }, ConsistentRead: true }),
      signal ? { abortSignal: signal } : {},
    );
    return toSnapshot(reply.Item);
  }

  /**
   * Take the watcher's lease until `now + leaseMs`, or return undefined when another run holds it. Returns the
   * snapshot the run starts from.
   */
  async acquireLease(owner: string, leaseMs: number, now = Date.now()): Promise<Snapshot | undefined> {
    try {
      const reply = await this.client.send(
        new UpdateItemCommand({
          TableName: this.options.tableName,
          Key: { pk: { S: SNAPSHOT_KEY } },
          UpdateExpression: 'SET leaseOwner = :owner, leaseUntil = :until',
          ConditionExpression: 'attribute_not_exists(leaseUntil) OR leaseUntil < :now',
          ExpressionAttributeValues: { ':owner': { S: owner }, ':until': { N: String(now + leaseMs) }, ':now': { N: String(now) } },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toSnapshot(reply.Attributes);
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  /**
   * Write the next snapshot and give the lease back, only if this run still holds the lease and nobody committed
   * since it read `version`. False when the lease was lost (the run overran it); nothing is written then.
   */
  async commit(owner: string, version: number, state: WatcherState): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.options.tableName,
          Key: { pk: { S: SNAPSHOT_KEY } },
          UpdateExpression: 'SET #state = :state, version = :next REMOVE leaseOwner, leaseUntil',
          ConditionExpression: 'leaseOwner = :owner AND (attribute_not_exists(version) OR version = :version)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':state': { S: JSON.stringify(state) },
            ':next': { N: String(version + 1) },
            ':owner': { S: owner },
            ':version': { N: String(version) },
          },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /** Give the lease back without changing the snapshot (a failed run: the next run starts from the same place). */
  async release(owner: string): Promise<void> {
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.options.tableName,
          Key: { pk: { S: SNAPSHOT_KEY } },
          UpdateExpression: 'REMOVE leaseOwner, leaseUntil',
          ConditionExpression: 'leaseOwner = :owner',
          ExpressionAttributeValues: { ':owner': { S: owner } },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}

const toSnapshot = (item: Record<string, AttributeValue> | undefined): Snapshot => {
  const version = Number(item?.version?.N ?? 0);
  const raw = item?.state?.S;
  if (!raw) return { version, state: structuredClone(EMPTY_STATE) };
  const state = JSON.parse(raw) as Partial<WatcherState>;
  return { version, state: { ...structuredClone(EMPTY_STATE), ...state } };
};
