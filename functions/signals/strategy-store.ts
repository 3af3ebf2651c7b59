/**
 * Strategies in the events table (beside the plans): partition `strategy`, sort key the strategyId, the strategy as
 * JSON, the SHA-256 of its webhook token and of the input that created it (a retried Idempotency-Key is matched on
 * it). The token itself is never stored. One more item per strategy, `strategy-token` / <token hash>, holds the
 * strategy whole, so the webhook finds a strategy by its token in one consistent GetItem; rotating the token puts
 * the new one and deletes the old one before the reply, so the old token stops working at once.
 */
import {
  type AttributeValue,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';

import { dynamoDbClient, isConditionFailure } from '../base/aws/dynamodb-client.js';
import type { Strategy } from '../base/schemas/signals.js';
import { sameHash } from './tokens.js';

const PK = 'strategy';
const DELETE_TRIES = 5;
const TOKEN_PK = 'strategy-token';

const key = (pk: string, sk: string): Record<string, AttributeValue> => ({ pk: { S: pk }, sk: { S: sk } });

/** A strategy as its token item holds it: `json` is the stored text, which a write can be made conditional on. */
export interface TokenStrategy {
  strategy: Strategy;
  tokenHash: string;
  json: string;
}

/** The token item's key (`strategy-token` / <token hash>). */
export const tokenItemKey = (hash: string): Record<string, AttributeValue> => key(TOKEN_PK, hash);

export interface StoredStrategy {
  strategy: Strategy;
  tokenHash: string;
  inputHash: string;
  /** The stored text of the strategy, when read (a change is made conditional on it). */
  json?: string;
}

const storedOf = (item: Record<string, AttributeValue>): StoredStrategy => ({
  strategy: JSON.parse(item.strategy!.S!) as Strategy,
  tokenHash: item.tokenHash!.S!,
  inputHash: item.inputHash?.S ?? '',
  json: item.strategy!.S!,
});

export class StrategyStore {
  private readonly client: DynamoDBClient;

  constructor(private readonly options: { tableName: string; endpoint?: string | undefined }) {
    this.client = dynamoDbClient(options.endpoint);
  }

  private async getItem(k: Record<string, AttributeValue>) {
    const reply = await this.client.send(
      new GetItemCommand({ TableName: this.options.tableName, Key: k, ConsistentRead: true }),
    );
    return reply.Item;
  }

  private async putTokenItem(stored: StoredStrategy): Promise<void> {
    await this.client.send(
      new PutItemCommand({
        TableName: this.options.tableName,
        Item: {
          ...key(TOKEN_PK, stored.tokenHash),
          strategyId: { S: stored.strategy.strategyId },
          tokenHash: { S: stored.tokenHash },
          strategy: { S: JSON.stringify(stored.strategy) },
        },
      }),
    );
  }

  /**
   * The token stops working. An alert's transaction holding the token item at this moment (intake.ts) makes DynamoDB
   * refuse the delete (`TransactionConflictException`, which the SDK does not retry): tried again, a few times.
   */
  private async deleteTokenItem(hash: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.send(new DeleteItemCommand({ TableName: this.options.tableName, Key: key(TOKEN_PK, hash) }));
        return;
      } catch (error) {
        const conflict = error instanceof Error && error.name === 'TransactionConflictException';
        if (!conflict || attempt >= DELETE_TRIES) throw error;
        await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
      }
    }
  }

  async get(strategyId: string): Promise<StoredStrategy | undefined> {
    const item = await this.getItem(key(PK, strategyId));
    return item ? storedOf(item) : undefined;
  }

  /**
   * The strategy whose token hashes to `hash`, or undefined. The stored hash is compared with the presented one in
   * constant time, whatever the key lookup found.
   */
  async byTokenHash(hash: string): Promise<TokenStrategy | undefined> {
    const item = await this.getItem(key(TOKEN_PK, hash));
    const stored = item?.tokenHash?.S ?? '0'.repeat(hash.length);
    const same = sameHash(stored, hash);
    const json = item?.strategy?.S;
    return item && same && json ? { strategy: JSON.parse(json) as Strategy, tokenHash: stored, json } : undefined;
  }

  /** False when a strategy with this id exists already (a retried or concurrent create). */
  async create(stored: StoredStrategy): Promise<boolean> {
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.options.tableName,
          Item: {
            ...key(PK, stored.strategy.strategyId),
            tokenHash: { S: stored.tokenHash },
            inputHash: { S: stored.inputHash },
            strategy: { S: JSON.stringify(stored.strategy) },
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
    await this.putTokenItem(stored);
    return true;
  }

  /**
   * A new token for the strategy: the strategy item moves to the new hash (conditional on the old one, so two
   * rotations at once cannot both win), the new token item is put, the old one deleted. False: it changed meanwhile.
   */
  async rotate(previous: StoredStrategy, hash: string, at: string): Promise<StoredStrategy | undefined> {
    const strategy: Strategy = { ...previous.strategy, tokenSetAt: at };
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.options.tableName,
          Key: key(PK, strategy.strategyId),
          UpdateExpression: 'SET tokenHash = :new, #strategy = :s',
          ExpressionAttributeNames: { '#strategy': 'strategy' },
          ConditionExpression: 'tokenHash = :old',
          ExpressionAttributeValues: {
            ':new': { S: hash },
            ':old': { S: previous.tokenHash },
            ':s': { S: JSON.stringify(strategy) },
          },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
    const next = { ...previous, strategy, tokenHash: hash };
    await this.putTokenItem(next);
    await this.deleteTokenItem(previous.tokenHash);
    return next;
  }

  /**
   * The strategy changed (PATCH), its token kept: the strategy item and its token item in one transaction, each
   * conditional on holding the strategy as read, so the webhook's next write (conditional on the token item) sees
   * the change at once. False: it changed meanwhile (another PATCH, a rotation, a delete).
   */
  async update(previous: StoredStrategy, strategy: Strategy): Promise<boolean> {
    const old = previous.json ?? JSON.stringify(previous.strategy);
    const next = JSON.stringify(strategy);
    const update = (k: Record<string, AttributeValue>, condition: string) => ({
      Update: {
        TableName: this.options.tableName,
        Key: k,
        UpdateExpression: 'SET #strategy = :new',
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#strategy': 'strategy' },
        ExpressionAttributeValues: {
          ':new': { S: next },
          ':old': { S: old },
          ...(condition.includes(':hash') ? { ':hash': { S: previous.tokenHash } } : {}),
        },
      },
    });
    try {
      await this.client.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            update(key(PK, strategy.strategyId), '#strategy = :old AND tokenHash = :hash'),
            update(key(TOKEN_PK, previous.tokenHash), '#strategy = :old'),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof Error && error.name === 'TransactionCanceledException') return false;
      throw error;
    }
  }

  /** The token item first: from then on the webhook refuses the token, whatever happens to the rest. */
  async remove(stored: StoredStrategy): Promise<void> {
    await this.deleteTokenItem(stored.tokenHash);
    await this.client.send(
      new DeleteItemCommand({ TableName: this.options.tableName, Key: key(PK, stored.strategy.strategyId) }),
    );
  }

  /** Every strategy, by id (strongly consistent, paged through). */
  async list(): Promise<Strategy[]> {
    const out: Strategy[] = [];
    let start: Record<string, AttributeValue> | undefined;
    do {
      const reply = await this.client.send(
        new QueryCommand({
          TableName: this.options.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: PK } },
          ConsistentRead: true,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      out.push(...(reply.Items ?? []).map((item) => storedOf(item).strategy));
      start = reply.LastEvaluatedKey;
    } while (start);
    return out;
  }
}
