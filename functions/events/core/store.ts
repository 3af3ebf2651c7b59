/**
 * The events table (DynamoDB, partition key `pk`, sort key `sk`, TTL on `expiresAt`) shared by the two producers:
 *
 * - `published#<eventId>` / `-`: a marker written after EventBridge accepted an event. The watcher does not publish
 *   a change whose marker exists, so what the gateway published is not published again (kept 7 days).
 * - `watcher` / `lease`: the watcher's lease (a run takes it with a conditional write; an overlapping run finds it
 *   taken and stops), and the account-wide part of its state (`initialized`, `session`, `version`).
 * - `watcher` / `order#<al_id>`: the watcher's last published view of one pending order (about 300 bytes).
 * - `watcher` / `ended#<al_id>`: an order whose end was published and which still appears in the broker's history.
 * - `known#<al_id>` / `<observedAt>#<eventId>`: the order as each published placement or modification described it
 *   (known-orders.ts); the newest completes a cancel's event.
 *
 * The item shapes and the state's difference as writes are in watcher-items.ts; this file reads and writes them.
 * The state is one small item per order, read with one paged Query (1 MB a page) and written only where an order
 * changed (BatchWriteItem, 25 a call), so it has no size limit and a cycle where nothing changed writes nothing but
 * its lease (take it, give it back). The order items are written after the run's events were published and marked,
 * before the lease is given back: a run that dies between the two leaves some orders moved on and some not, and the
 * next run finds the ones that did not, whose events are already marked, so nothing is published twice.
 */
import type { AttributeValue, BatchGetItemOutput, QueryOutput, WriteRequest } from '@aws-sdk/client-dynamodb';

import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  type DynamoClient,
  dynamoDbClient,
  GetItemCommand,
  isConditionFailure,
  QueryCommand,
  UpdateItemCommand,
} from '../../base/aws/dynamo.js';
import type { LifecycleEvent, OrderView } from '../../base/schemas/events.js';
import { KNOWN_PREFIX } from './known-orders.js';
import { recordPublished } from './published.js';
import {
  type CommitStats,
  copyWrites,
  ENDED_PREFIX,
  itemBytes,
  knownFromItem,
  type Lease,
  LEASE_SK,
  ORDER_PREFIX,
  type Snapshot,
  STATE_PROJECTION,
  stateWrites,
  toLease,
  VIEW_PROJECTION,
  WATCHER_PK,
  watcherKey,
  type WatcherState,
} from './watcher-items.js';

export const MARKER_TTL_SECONDS = 7 * 86_400;
/** The partition key of an event's `published#` marker is this prefix and the event's id. */
export const MARKER_PREFIX = 'published#';
const markerKey = (eventId: string): Record<string, AttributeValue> => ({
  pk: { S: `${MARKER_PREFIX}${eventId}` },
  sk: { S: '-' },
});
/** BatchWriteItem takes 25 requests; a few calls at once keep a large first run (the baseline) short. */
const WRITE_BATCH = 25;
const WRITE_CONCURRENCY = 4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class EventsTable {
  private readonly client: DynamoClient;

  constructor(private readonly options: { tableName: string; endpoint?: string | undefined }) {
    this.client = dynamoDbClient(options.endpoint);
  }

  /** Which of these events were already published (by either producer). */
  async publishedAmong(eventIds: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    const unique = [...new Set(eventIds)];
    for (let i = 0; i < unique.length; i += 100) {
      let keys: Record<string, AttributeValue>[] | undefined = unique.slice(i, i + 100).map(markerKey);
      for (let attempt = 0; keys?.length; attempt++) {
        if (attempt > 5) throw new Error('DynamoDB kept returning unprocessed keys for the published markers');
        if (attempt) await sleep(50 * 2 ** attempt);
        const reply: BatchGetItemOutput = await this.client.send(
          new BatchGetItemCommand({
            RequestItems: { [this.options.tableName]: { Keys: keys, ProjectionExpression: 'pk' } },
          }),
        );
        for (const item of reply.Responses?.[this.options.tableName] ?? [])
          found.add(String(item.pk?.S).slice(MARKER_PREFIX.length));
        keys = reply.UnprocessedKeys?.[this.options.tableName]?.Keys;
      }
    }
    return found;
  }

  /**
   * Record that EventBridge accepted these events: a marker each, and for a whole event (not just its id) its item in
   * the account's history (history.ts) and the order it describes, once whichever producer records it first
   * (published.ts).
   */
  async markPublished(
    published: readonly (string | LifecycleEvent)[],
    now = Date.now(),
    signal?: AbortSignal,
  ): Promise<void> {
    const expiresAt = String(Math.floor(now / 1000) + MARKER_TTL_SECONDS);
    const marker = (id: string) => ({ ...markerKey(id), expiresAt: { N: expiresAt } });
    const seen = new Set<string>();
    const ids: WriteRequest[] = [];
    const events: LifecycleEvent[] = [];
    for (const entry of published) {
      const id = typeof entry === 'string' ? entry : entry.detail.eventId;
      if (seen.has(id)) continue;
      seen.add(id);
      if (typeof entry === 'string') ids.push({ PutRequest: { Item: marker(id) } });
      else events.push(entry);
    }
    await Promise.all([
      this.batchWrite(ids, signal),
      recordPublished(this.client, this.options.tableName, events, marker, now, signal),
    ]);
  }

  /**
   * BatchWriteItem in calls of 25, a few at once, retrying what DynamoDB leaves unprocessed (a throttled partition)
   * with backoff. Returns the number of calls made.
   */
  async batchWrite(requests: Iterable<WriteRequest>, signal?: AbortSignal): Promise<number> {
    // Taken 25 at a time as the workers need them: a generator's writes are never all built at once.
    const source = requests[Symbol.iterator]();
    const nextBatch = (): WriteRequest[] | undefined => {
      const batch: WriteRequest[] = [];
      for (let step = source.next(); !step.done; step = source.next()) {
        batch.push(step.value);
        if (batch.length === WRITE_BATCH) break;
      }
      return batch.length ? batch : undefined;
    };
    let calls = 0;
    const writeOne = async (batch: WriteRequest[]) => {
      let left = batch;
      for (let attempt = 0; left.length; attempt++) {
        if (attempt > 8) throw new Error('DynamoDB kept returning unprocessed items');
        if (attempt) await sleep(Math.min(2_000, 50 * 2 ** attempt));
        calls++;
        const reply = await this.client.send(
          new BatchWriteItemCommand({ RequestItems: { [this.options.tableName]: left } }),
          signal ? { abortSignal: signal } : {},
        );
        left = reply.UnprocessedItems?.[this.options.tableName] ?? [];
      }
    };
    const worker = async () => {
      for (let batch = nextBatch(); batch; batch = nextBatch()) await writeOne(batch);
    };
    await Promise.all(Array.from({ length: WRITE_CONCURRENCY }, worker));
    return calls;
  }

  /**
   * The order as it was last known: the newest published placement or modification of it (known-orders.ts), else
   * the watcher's view (an order it took in its baseline). One Query, and one GetItem when the Query finds none.
   */
  async lastKnownOrder(alId: string, signal?: AbortSignal): Promise<OrderView | undefined> {
    const reply = await this.client.send(
      new QueryCommand({
        TableName: this.options.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: `${KNOWN_PREFIX}${alId}` } },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
      signal ? { abortSignal: signal } : {},
    );
    const raw = reply.Items?.[0]?.view?.S;
    return raw ? (JSON.parse(raw) as OrderView) : this.knownOrder(alId, signal);
  }

  /** The watcher's last view of one order (an order it saw but no event described): one small item. */
  async knownOrder(alId: string, signal?: AbortSignal): Promise<OrderView | undefined> {
    const reply = await this.client.send(
      new GetItemCommand({
        TableName: this.options.tableName,
        Key: watcherKey(`${ORDER_PREFIX}${alId}`),
        ProjectionExpression: '#view',
        ExpressionAttributeNames: { '#view': 'view' },
      }),
      signal ? { abortSignal: signal } : {},
    );
    const raw = reply.Item?.view?.S;
    return raw ? (JSON.parse(raw) as OrderView) : undefined;
  }

  /**
   * The watcher's orders and ended ids: one Query, paged (1 MB a page), strongly consistent. `views: false` (the
   * watcher's run) reads the orders without their views (STATE_PROJECTION): `loadViews` reads those it needs.
   */
  async readState(lease: Lease, options: { views?: boolean } = {}): Promise<{ state: WatcherState; calls: number }> {
    const state: WatcherState = { initialized: lease.initialized, session: lease.session, orders: {}, ended: [] };
    let calls = 0;
    let start: Record<string, AttributeValue> | undefined;
    do {
      const reply: QueryOutput = await this.client.send(
        new QueryCommand({
          TableName: this.options.tableName,
          // The lease item comes back too (a few bytes) and is skipped below.
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: WATCHER_PK } },
          ConsistentRead: true,
          ...(options.views === false ? STATE_PROJECTION : {}),
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      calls++;
      for (const item of reply.Items ?? []) {
        const sk = item.sk?.S ?? '';
        if (sk.startsWith(ORDER_PREFIX)) {
          const alId = sk.slice(ORDER_PREFIX.length);
          state.orders[alId] = knownFromItem(item);
        } else if (sk.startsWith(ENDED_PREFIX)) {
          state.ended.push(sk.slice(ENDED_PREFIX.length));
        }
      }
      start = reply.LastEvaluatedKey;
    } while (start);
    return { state, calls };
  }

  /**
   * The views of these orders of a state read without them (`readState(lease, { views: false })`): BatchGetItem, 100
   * keys a call, strongly consistent, retrying what DynamoDB leaves unprocessed. Returns the calls made.
   */
  async loadViews(state: WatcherState, alIds: readonly string[]): Promise<number> {
    let calls = 0;
    for (let i = 0; i < alIds.length; i += 100) {
      let keys: Record<string, AttributeValue>[] | undefined = alIds
        .slice(i, i + 100)
        .map((alId) => watcherKey(`${ORDER_PREFIX}${alId}`));
      for (let attempt = 0; keys?.length; attempt++) {
        if (attempt > 5) throw new Error("DynamoDB kept returning unprocessed keys for the watcher's order views");
        if (attempt) await sleep(50 * 2 ** attempt);
        calls++;
        const reply: BatchGetItemOutput = await this.client.send(
          new BatchGetItemCommand({
            RequestItems: { [this.options.tableName]: { Keys: keys, ConsistentRead: true, ...VIEW_PROJECTION } },
          }),
        );
        for (const item of reply.Responses?.[this.options.tableName] ?? []) {
          const known = state.orders[(item.sk?.S ?? '').slice(ORDER_PREFIX.length)];
          if (known && item.view?.S) known.view = JSON.parse(item.view.S) as OrderView;
        }
        keys = reply.UnprocessedKeys?.[this.options.tableName]?.Keys;
      }
    }
    return calls;
  }

  /** The lease item and every order item: what a run starts from (tests and tools). */
  async readSnapshot(): Promise<Snapshot> {
    const reply = await this.client.send(
      new GetItemCommand({ TableName: this.options.tableName, Key: watcherKey(LEASE_SK), ConsistentRead: true }),
    );
    const lease = toLease(reply.Item);
    return { ...lease, state: (await this.readState(lease)).state };
  }

  /**
   * Take the watcher's lease until `now + leaseMs`, or return undefined when another run holds it. Returns the
   * account-wide fields the run starts from (its orders are read with `readState`).
   */
  async acquireLease(owner: string, leaseMs: number, now = Date.now()): Promise<Lease | undefined> {
    try {
      const reply = await this.client.send(
        new UpdateItemCommand({
          TableName: this.options.tableName,
          Key: watcherKey(LEASE_SK),
          UpdateExpression: 'SET leaseOwner = :owner, leaseUntil = :until',
          ConditionExpression: 'attribute_not_exists(leaseUntil) OR leaseUntil < :now',
          ExpressionAttributeValues: {
            ':owner': { S: owner },
            ':until': { N: String(now + leaseMs) },
            ':now': { N: String(now) },
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toLease(reply.Attributes);
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  /**
   * Move the state from `before` to `after` and give the lease back. The order items that changed are written
   * first; then the lease item, only if this run still holds it (and, when the account-wide fields change, at the
   * version it read). False when the lease was lost (the run overran it): the next run starts from what was
   * written, and the published markers keep it from publishing anything twice.
   */
  async commit(
    owner: string,
    lease: Lease,
    before: WatcherState,
    after: WatcherState,
    /** When the pending list this state comes from was read (epoch ms): the copy's age is counted from it. */
    listedAt?: number,
  ): Promise<{ committed: boolean } & CommitStats> {
    // The copy's writes first: they may leave some new orders for the next run, which the state's writes then record.
    // Built as they are written, 25 at a time (watcher-items.ts's generators): a first run's 100,000 writes are
    // never held at once. Counted on the way.
    let itemsWritten = 0;
    let bytesWritten = 0;
    let copiesWritten = 0;
    const writes = counted(stateWrites(before, after), (w) => {
      itemsWritten++;
      if (w.PutRequest?.Item) bytesWritten += itemBytes(w.PutRequest.Item);
    });
    const copies = counted(copyWrites(before, after), () => copiesWritten++);
    // The copy's items beside the state's, in parallel: neither waits for the other (a copy item written by a run
    // that then fails is only newer than the lease's `copyAt` says, never older).
    const [stateCalls, copyCalls] = await Promise.all([this.batchWrite(writes), this.batchWrite(copies)]);
    const calls = stateCalls + copyCalls;
    const stats = { itemsWritten, bytesWritten, calls: calls + 1, copiesWritten };
    // The copy is as old as its list read; a run that did not read the list (a dead session) leaves it as it was.
    const copyAt: Record<string, AttributeValue> = listedAt === undefined ? {} : { ':copyAt': { N: String(listedAt) } };
    const setCopyAt = listedAt === undefined ? '' : ', copyAt = :copyAt';
    const changed = after.initialized !== lease.initialized || after.session !== lease.session;
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.options.tableName,
          Key: watcherKey(LEASE_SK),
          ...(changed
            ? {
                UpdateExpression: `SET initialized = :initialized, #session = :session, version = :next${setCopyAt} REMOVE leaseOwner, leaseUntil`,
                ConditionExpression: 'leaseOwner = :owner AND (attribute_not_exists(version) OR version = :version)',
                ExpressionAttributeNames: { '#session': 'session' },
                ExpressionAttributeValues: {
                  ':initialized': { BOOL: after.initialized },
                  ':session': { S: after.session },
                  ':next': { N: String(lease.version + 1) },
                  ':owner': { S: owner },
                  ':version': { N: String(lease.version) },
                  ...copyAt,
                },
              }
            : {
                UpdateExpression: `${setCopyAt ? `SET ${setCopyAt.slice(2)} ` : ''}REMOVE leaseOwner, leaseUntil`,
                ConditionExpression: 'leaseOwner = :owner',
                ExpressionAttributeValues: { ':owner': { S: owner }, ...copyAt },
              }),
        }),
      );
      return { committed: true, ...stats };
    } catch (error) {
      if (isConditionFailure(error)) return { committed: false, ...stats };
      throw error;
    }
  }

  /** Give the lease back without changing the state (a failed run: the next run starts from the same place). */
  async release(owner: string): Promise<void> {
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.options.tableName,
          Key: watcherKey(LEASE_SK),
          UpdateExpression: 'REMOVE leaseOwner, leaseUntil',
          ConditionExpression: 'leaseOwner = :owner',
          ExpressionAttributeValues: { ':owner': { S: owner } },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}

/** The writes of `source`, each seen by `see` as it is taken. */
function* counted(source: Iterable<WriteRequest>, see: (w: WriteRequest) => void): Generator<WriteRequest> {
  for (const w of source) {
    see(w);
    yield w;
  }
}
