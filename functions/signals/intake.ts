/**
 * The webhook's one DynamoDB write (docs/reference/signals.md, "The webhook"): a signal recorded, or refused for a body it
 * could not read, in one `TransactWriteItems`, all or nothing:
 *
 * - a ConditionCheck on the strategy's token item (`strategy-token` / <token hash>): it still exists and still holds
 *   the strategy exactly as the webhook read it, so a token rotated or deleted, or a strategy changed, since the
 *   webhook's copy was read (strategy-cache.ts) records nothing (`stale`: read it again);
 * - the rate counter (`signal-rate` / <strategyId>#<minute>): an ADD conditional on the count being under the
 *   strategy's `ratePerMinute` (`rate-limited`);
 * - the duplicate claim (`signal-dedupe` / <strategyId>#<key>), conditional on no live claim (`duplicate`, with the
 *   first signal's id);
 * - the pending marker (`signal-pending` / <receivedAt>#<signalId>: what the sweep reads) and the signal record
 *   (`signal` / <signalId>) with the strategy it was received under (`actedWith`: every delivery acts with it), for a
 *   received signal; the record alone for a refused one;
 * - the outbox item of its event (Signal Received, or Signal Refused), in the idempotency table.
 *
 * A transaction that met another on one of its items (DynamoDB's `TransactionConflict`: two alerts of one strategy
 * at once share the token item and the rate counter) wrote nothing and is tried again, at most CONFLICT_TRIES times
 * in all. Each try carries its own ClientRequestToken, so the client's own retry (base/aws/retry.ts) of a
 * try whose answer was lost answers that try's outcome rather than claiming the alert a second time.
 */
import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';

import {
  cancellationReasons,
  type DynamoClient,
  dynamoDbClient,
  GetItemCommand,
  TransactWriteItemsCommand,
} from '../base/aws/dynamo.js';
import type { LifecycleEvent } from '../base/schemas/events.js';
import type { SignalRecord } from '../base/schemas/signals.js';
import { outboxItem } from '../events/core/outbox.js';
import {
  DEDUPE_WINDOW_SECONDS,
  dedupeItemKey,
  KEEP_SIGNALS_SECONDS,
  pendingKey,
  rateItemKey,
  signalItem,
} from './store.js';
import { tokenItemKey, type TokenStrategy } from './strategy-store.js';

const RATE_KEEP_SECONDS = 120;
export const CONFLICT_TRIES = 4;

export type IntakeOutcome =
  | { kind: 'recorded' }
  | { kind: 'stale' }
  | { kind: 'rate-limited'; retryAfter: number }
  | { kind: 'duplicate'; signalId: string | undefined };

export interface IntakeInput {
  /** The strategy as the webhook read it from its token item. */
  strategy: TokenStrategy;
  signal: SignalRecord;
  /** The duplicate key of a received signal (none for a refused one). */
  dedupeKey?: string;
  event: LifecycleEvent;
  now?: number;
}

const seconds = (ms: number) => Math.floor(ms / 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Slots {
  token: number;
  rate: number;
  dedupe?: number;
}

export class SignalIntake {
  constructor(
    private readonly options: { tableName: string; outboxTableName: string; endpoint?: string | undefined },
  ) {}

  private items(input: IntakeInput, now: number): { items: TransactWriteItem[]; slots: Slots } {
    const table = this.options.tableName;
    const { strategy, signal } = input;
    const strategyId = strategy.strategy.strategyId;
    const expiresAt = { N: String(seconds(now) + KEEP_SIGNALS_SECONDS) };
    const items: TransactWriteItem[] = [
      {
        ConditionCheck: {
          TableName: table,
          Key: tokenItemKey(strategy.tokenHash),
          ConditionExpression: 'tokenHash = :hash AND #strategy = :strategy',
          ExpressionAttributeNames: { '#strategy': 'strategy' },
          ExpressionAttributeValues: { ':hash': { S: strategy.tokenHash }, ':strategy': { S: strategy.json } },
        },
      },
      {
        Update: {
          TableName: table,
          Key: rateItemKey(strategyId, Math.floor(now / 60_000)),
          UpdateExpression: 'ADD n :one SET expiresAt = if_not_exists(expiresAt, :exp)',
          ConditionExpression: 'attribute_not_exists(n) OR n < :limit',
          ExpressionAttributeValues: {
            ':one': { N: '1' },
            ':limit': { N: String(strategy.strategy.ratePerMinute) },
            ':exp': { N: String(seconds(now) + RATE_KEEP_SECONDS) },
          },
        },
      },
    ];
    const slots: Slots = { token: 0, rate: 1 };
    if (input.dedupeKey !== undefined) {
      slots.dedupe = items.length;
      items.push({
        Put: {
          TableName: table,
          Item: {
            ...dedupeItemKey(strategyId, input.dedupeKey),
            signalId: { S: signal.signalId },
            expiresAt: { N: String(seconds(now) + DEDUPE_WINDOW_SECONDS) },
          },
          // TTL deletes late: a claim past its window is treated as gone.
          ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
          ExpressionAttributeValues: { ':now': { N: String(seconds(now)) } },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      });
    }
    if (signal.state === 'received')
      items.push({
        Put: {
          TableName: table,
          Item: {
            ...pendingKey(signal),
            signalId: { S: signal.signalId },
            strategyId: { S: signal.strategyId },
            receivedAt: { S: signal.receivedAt },
            expiresAt,
          },
        },
      });
    items.push(
      {
        Put: {
          TableName: table,
          // A received signal carries the strategy it was received under (the version the ConditionCheck holds):
          // every delivery acts with it (store.ts `actedWith`; docs/reference/signals.md, "One alert, one order").
          Item: {
            ...signalItem(signal),
            expiresAt,
            ...(signal.state === 'received' ? { actedWith: { S: strategy.json } } : {}),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      { Put: { TableName: this.options.outboxTableName, Item: outboxItem([input.event], now) } },
    );
    return { items, slots };
  }

  /** The signal that holds the duplicate claim (when the cancellation did not say). */
  private async claimOf(input: IntakeInput, client: DynamoClient): Promise<string | undefined> {
    const reply = await client.send(
      new GetItemCommand({
        TableName: this.options.tableName,
        Key: dedupeItemKey(input.strategy.strategy.strategyId, input.dedupeKey ?? ''),
        ConsistentRead: true,
      }),
    );
    return reply.Item?.signalId?.S;
  }

  /** Records the signal (and its event) in one transaction, or says why nothing was recorded. */
  async record(input: IntakeInput): Promise<IntakeOutcome> {
    const now = input.now ?? Date.now();
    const minute = Math.floor(now / 60_000);
    const retryAfter = Math.max(1, Math.ceil(((minute + 1) * 60_000 - now) / 1000));
    const { items, slots } = this.items(input, now);
    const client = dynamoDbClient(this.options.endpoint);
    for (let attempt = 1; ; attempt++) {
      try {
        await client.send(
          new TransactWriteItemsCommand({
            TransactItems: items,
            ClientRequestToken: `${input.signal.signalId}-${attempt}`,
          }),
        );
        return { kind: 'recorded' };
      } catch (error) {
        const reasons = cancellationReasons(error);
        if (!reasons) throw error;
        const failed = (slot: number | undefined) =>
          slot !== undefined && reasons[slot]?.Code === 'ConditionalCheckFailed';
        // In the order the webhook answers them: the token, the rate, the duplicate.
        if (failed(slots.token)) return { kind: 'stale' };
        if (failed(slots.rate)) return { kind: 'rate-limited', retryAfter };
        if (failed(slots.dedupe))
          return {
            kind: 'duplicate',
            signalId: reasons[slots.dedupe!]?.Item?.signalId?.S ?? (await this.claimOf(input, client)),
          };
        const conflict = reasons.some((r) => r.Code === 'TransactionConflict');
        if (!conflict || attempt >= CONFLICT_TRIES) throw error;
        await sleep(10 * attempt + Math.floor(Math.random() * 20 * attempt));
      }
    }
  }
}
