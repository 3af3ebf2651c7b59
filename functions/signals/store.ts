/**
 * Signals in the events table (beside the plans and strategies), TTL on `expiresAt`:
 *
 * - `signal` / <signalId>: the record (state, alerts, preview, results or reason) as JSON, kept 30 days. Put once by
 *   the webhook (state `received`, or `refused` for a body it could not read: intake.ts); completed once by the
 *   worker in one transaction conditional on `received` (`complete`), with the outbox item of its event and the
 *   removal of its pending marker, so of two deliveries of one message only one completes it. A record an earlier
 *   version completed may still hold its event (`pendingEvent`) until the outbox has it. Beside it, `actedWith`: the
 *   strategy the signal is acted on with, on every delivery, so an alert's key stands for one order whatever the
 *   strategy says later (docs/reference/signals.md, "One alert, one order"): the version the webhook received it under
 *   (intake.ts), or, for a signal an earlier version recorded without it, the strategy as the worker first acted on
 *   it (`recordStrategy`, once).
 * - `signal-pending` / <receivedAt>#<signalId>: the marker the sweep reads, written with the record.
 * - `signal-rate` / <strategyId>#<minute>: the strategy's alerts this minute, counted by an ADD conditional on the
 *   count being under its limit (kept 2 minutes).
 * - `signal-dedupe` / <strategyId>#<dedupe key>: the first signal of an alert (DEDUPE_WINDOW_SECONDS): a put
 *   conditional on no live item, so the same alert posted twice is recorded, queued and acted on once.
 */
import { randomUUID } from 'node:crypto';

import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import {
  DeleteItemCommand,
  type DynamoClient,
  dynamoDbClient,
  GetItemCommand,
  isConditionFailure,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '../base/aws/dynamo.js';
import type { LifecycleEvent } from '../base/schemas/events.js';
import type { SignalRecord, SignalState, Strategy } from '../base/schemas/signals.js';
import { outboxItem } from '../events/core/outbox.js';

/** How long a duplicate is recognised: TradingView and ChartInk redeliver within seconds; an alert id's or body's repeat after this is a new signal. */
export const DEDUPE_WINDOW_SECONDS = 600;
export const KEEP_SIGNALS_SECONDS = 30 * 86_400;

const key = (pk: string, sk: string): Record<string, AttributeValue> => ({ pk: { S: pk }, sk: { S: sk } });
/** The partitions (the events table's `pk`) of the signals' items: what the webhook's and the worker's grants name. */
export const SIGNAL_PARTITIONS = {
  signal: 'signal',
  pending: 'signal-pending',
  rate: 'signal-rate',
  dedupe: 'signal-dedupe',
} as const;
const PENDING = SIGNAL_PARTITIONS.pending;
/** Sorted by when the signal was received (ISO times sort as text), so the sweep reads a key range. */
export const pendingKey = (signal: Pick<SignalRecord, 'signalId' | 'receivedAt'>) =>
  key(PENDING, `${signal.receivedAt}#${signal.signalId}`);
/** The strategy's alerts in one minute (the minute since the epoch). */
export const rateItemKey = (strategyId: string, minute: number) =>
  key(SIGNAL_PARTITIONS.rate, `${strategyId}#${minute}`);
/** An alert's duplicate claim. */
export const dedupeItemKey = (strategyId: string, dedupeKey: string) =>
  key(SIGNAL_PARTITIONS.dedupe, `${strategyId}#${dedupeKey}`);
/** The signal's record as first written (its `expiresAt` is the writer's). */
export const signalItem = (signal: SignalRecord): Record<string, AttributeValue> => ({
  ...key(SIGNAL_PARTITIONS.signal, signal.signalId),
  strategyId: { S: signal.strategyId },
  state: { S: signal.state },
  signal: { S: JSON.stringify(signal) },
});

export interface StoredSignal {
  signal: SignalRecord;
  /** The completion's event when the outbox does not hold it yet. */
  pendingEvent?: LifecycleEvent;
  /** The strategy the signal is acted on with (intake.ts, or recordStrategy): every delivery acts with it. */
  actedWith?: Strategy;
}

/** A signal still to be acted on, as its pending marker names it. */
export interface PendingSignal {
  signalId: string;
  strategyId: string;
  receivedAt: string;
}

export class SignalStore {
  private readonly client: DynamoClient;

  constructor(
    private readonly options: {
      tableName: string;
      /** The idempotency table, which holds the outbox (completions write their event there). */
      outboxTableName: string;
      endpoint?: string | undefined;
    },
  ) {
    this.client = dynamoDbClient(options.endpoint);
  }

  private get table() {
    return this.options.tableName;
  }

  async remove(signalId: string): Promise<void> {
    await this.client.send(
      new DeleteItemCommand({ TableName: this.table, Key: key(SIGNAL_PARTITIONS.signal, signalId) }),
    );
  }

  async get(signalId: string): Promise<StoredSignal | undefined> {
    const reply = await this.client.send(
      new GetItemCommand({ TableName: this.table, Key: key(SIGNAL_PARTITIONS.signal, signalId), ConsistentRead: true }),
    );
    const item = reply.Item;
    if (!item?.signal?.S) return undefined;
    return {
      signal: JSON.parse(item.signal.S) as SignalRecord,
      ...(item.pendingEvent?.S ? { pendingEvent: JSON.parse(item.pendingEvent.S) as LifecycleEvent } : {}),
      ...(item.actedWith?.S ? { actedWith: JSON.parse(item.actedWith.S) as Strategy } : {}),
    };
  }

  /**
   * The strategy a signal recorded without one (by an earlier version of the webhook) is acted on with: `strategy`
   * recorded on the still `received` signal when none is yet (a conditional write, so of two deliveries only one
   * records it), else the one recorded first. Undefined when the signal is no longer `received` (another delivery
   * completed it) or is gone.
   */
  async recordStrategy(signalId: string, strategy: Strategy): Promise<Strategy | undefined> {
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.table,
          Key: key(SIGNAL_PARTITIONS.signal, signalId),
          UpdateExpression: 'SET actedWith = :strategy',
          ConditionExpression: '#state = :received AND attribute_not_exists(actedWith)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':strategy': { S: JSON.stringify(strategy) },
            ':received': { S: 'received' },
          },
        }),
      );
      return strategy;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const stored = await this.get(signalId);
    return stored?.signal.state === 'received' ? stored.actedWith : undefined;
  }

  /**
   * received -> acted | refused, in one transaction with the outbox item of the event that tells of it and the
   * removal of the pending marker: all or nothing. False when the signal is not `received` any more (another
   * delivery completed it).
   */
  async complete(signal: SignalRecord & { state: Exclude<SignalState, 'received'> }, event: LifecycleEvent) {
    try {
      await this.client.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.table,
                Key: key(SIGNAL_PARTITIONS.signal, signal.signalId),
                UpdateExpression: 'SET #state = :state, #signal = :signal',
                ConditionExpression: '#state = :received',
                ExpressionAttributeNames: { '#state': 'state', '#signal': 'signal' },
                ExpressionAttributeValues: {
                  ':state': { S: signal.state },
                  ':signal': { S: JSON.stringify(signal) },
                  ':received': { S: 'received' },
                },
              },
            },
            { Put: { TableName: this.options.outboxTableName, Item: outboxItem([event]) } },
            { Delete: { TableName: this.table, Key: pendingKey(signal) } },
          ],
          // The SDK's own retry of a lost answer is answered as the first try, not as "completed elsewhere".
          ClientRequestToken: randomUUID(),
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof Error && error.name === 'TransactionCanceledException') {
        const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
        if (reasons[0]?.Code === 'ConditionalCheckFailed') return false;
      }
      throw error;
    }
  }

  /**
   * The pending signals received before `before` (an ISO time), oldest first, at most `limit` a page; `next` continues
   * from where this page ended.
   */
  async pending(
    before: string,
    limit: number,
    next?: Record<string, AttributeValue>,
  ): Promise<{ signals: PendingSignal[]; next?: Record<string, AttributeValue> }> {
    const reply = await this.client.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk AND sk < :before',
        ExpressionAttributeValues: { ':pk': { S: PENDING }, ':before': { S: before } },
        Limit: limit,
        ...(next ? { ExclusiveStartKey: next } : {}),
      }),
    );
    const signals = (reply.Items ?? []).flatMap((item) =>
      item.signalId?.S && item.strategyId?.S && item.receivedAt?.S
        ? [{ signalId: item.signalId.S, strategyId: item.strategyId.S, receivedAt: item.receivedAt.S }]
        : [],
    );
    return { signals, ...(reply.LastEvaluatedKey ? { next: reply.LastEvaluatedKey } : {}) };
  }

  /** No longer pending: completed, or given up by the sweep. Deleting a marker already gone is no error. */
  async unmark(signal: Pick<SignalRecord, 'signalId' | 'receivedAt'>): Promise<void> {
    await this.client.send(new DeleteItemCommand({ TableName: this.table, Key: pendingKey(signal) }));
  }

  /** The outbox holds the completion's event: forget it. */
  async clearPendingEvent(signalId: string): Promise<void> {
    await this.client.send(
      new UpdateItemCommand({
        TableName: this.table,
        Key: key(SIGNAL_PARTITIONS.signal, signalId),
        UpdateExpression: 'REMOVE pendingEvent',
      }),
    );
  }
}
