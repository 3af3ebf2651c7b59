/**
 * Assistants in the events table (beside the strategies):
 *
 * - `assistant` / <assistantId>: the assistant as JSON, the SHA-256 of its token and of the input that created it (a
 *   retried Idempotency-Key is matched on it). The token itself is never stored.
 * - `assistant-token` / <token hash>: the assistant whole, so a token finds its assistant in one consistent GetItem.
 *   Rotating puts the new one and deletes the old one before the reply, so the old token stops working at once.
 * - `assistant-day` / <assistantId>#<India date>: the orders the assistant placed that day, counted by an ADD
 *   conditional on the count being under its limit; gone two days later (TTL on `expiresAt`).
 */
import {
  type AttributeValue,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';

import { dynamoDbClient, isConditionFailure } from '../base/aws/dynamodb-client.js';
import type { Assistant } from '../base/schemas/assistants.js';
import { indiaDay } from '../orders/instruments/rules.js';
import { sameHash } from './tokens.js';

const PK = 'assistant';
const TOKEN_PK = 'assistant-token';
const DAY_PK = 'assistant-day';
/** How long a day's counter is kept: past the India day it counts, whatever the clock's zone. */
const DAY_ITEM_SECONDS = 2 * 86_400;

const key = (pk: string, sk: string): Record<string, AttributeValue> => ({ pk: { S: pk }, sk: { S: sk } });

/** The keys of an assistant's items (tests read the table through them). */
export const assistantItemKey = (assistantId: string) => key(PK, assistantId);
export const tokenItemKey = (hash: string) => key(TOKEN_PK, hash);
export const dayItemKey = (assistantId: string, day: string) => key(DAY_PK, `${assistantId}#${day}`);

export interface StoredAssistant {
  assistant: Assistant;
  tokenHash: string;
  inputHash: string;
}

const storedOf = (item: Record<string, AttributeValue>): StoredAssistant => ({
  assistant: JSON.parse(item.assistant!.S!) as Assistant,
  tokenHash: item.tokenHash!.S!,
  inputHash: item.inputHash?.S ?? '',
});

export class AssistantStore {
  private readonly client: DynamoDBClient;

  constructor(private readonly options: { tableName: string; endpoint?: string | undefined }) {
    this.client = dynamoDbClient(options.endpoint);
  }

  private get table() {
    return this.options.tableName;
  }

  private async getItem(k: Record<string, AttributeValue>) {
    const reply = await this.client.send(new GetItemCommand({ TableName: this.table, Key: k, ConsistentRead: true }));
    return reply.Item;
  }

  private async putTokenItem(stored: StoredAssistant): Promise<void> {
    await this.client.send(
      new PutItemCommand({
        TableName: this.table,
        Item: {
          ...tokenItemKey(stored.tokenHash),
          assistantId: { S: stored.assistant.assistantId },
          tokenHash: { S: stored.tokenHash },
          assistant: { S: JSON.stringify(stored.assistant) },
        },
      }),
    );
  }

  private async deleteTokenItem(hash: string): Promise<void> {
    await this.client.send(new DeleteItemCommand({ TableName: this.table, Key: tokenItemKey(hash) }));
  }

  async get(assistantId: string): Promise<StoredAssistant | undefined> {
    const item = await this.getItem(assistantItemKey(assistantId));
    return item ? storedOf(item) : undefined;
  }

  /**
   * The assistant whose token hashes to `hash`, or undefined. The stored hash is compared with the presented one in
   * constant time, whatever the key lookup found.
   */
  async byTokenHash(hash: string): Promise<Assistant | undefined> {
    const item = await this.getItem(tokenItemKey(hash));
    const stored = item?.tokenHash?.S ?? '0'.repeat(hash.length);
    const same = sameHash(stored, hash);
    const json = item?.assistant?.S;
    return item && same && json ? (JSON.parse(json) as Assistant) : undefined;
  }

  /** False when an assistant with this id exists already (a retried or concurrent create). */
  async create(stored: StoredAssistant): Promise<boolean> {
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.table,
          Item: {
            ...assistantItemKey(stored.assistant.assistantId),
            tokenHash: { S: stored.tokenHash },
            inputHash: { S: stored.inputHash },
            assistant: { S: JSON.stringify(stored.assistant) },
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
   * A new token: the assistant item moves to the new hash (conditional on the old one, so two rotations at once
   * cannot both win, nor a rotation of a deleted assistant), the new token item is put, the old one deleted.
   * Undefined: it changed meanwhile.
   */
  async rotate(previous: StoredAssistant, hash: string, at: string): Promise<StoredAssistant | undefined> {
    const assistant: Assistant = { ...previous.assistant, tokenSetAt: at };
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.table,
          Key: assistantItemKey(assistant.assistantId),
          UpdateExpression: 'SET tokenHash = :new, #assistant = :a',
          ExpressionAttributeNames: { '#assistant': 'assistant' },
          ConditionExpression: 'tokenHash = :old',
          ExpressionAttributeValues: {
            ':new': { S: hash },
            ':old': { S: previous.tokenHash },
            ':a': { S: JSON.stringify(assistant) },
          },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
    const next = { ...previous, assistant, tokenHash: hash };
    await this.putTokenItem(next);
    await this.deleteTokenItem(previous.tokenHash);
    return next;
  }

  /** The token item first: from then on the token finds nothing, whatever happens to the rest. */
  async remove(stored: StoredAssistant): Promise<void> {
    await this.deleteTokenItem(stored.tokenHash);
    await this.client.send(
      new DeleteItemCommand({ TableName: this.table, Key: assistantItemKey(stored.assistant.assistantId) }),
    );
  }

  /** Every assistant, by id (strongly consistent, paged through). */
  async list(): Promise<Assistant[]> {
    const out: Assistant[] = [];
    let start: Record<string, AttributeValue> | undefined;
    do {
      const reply = await this.client.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: PK } },
          ConsistentRead: true,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      out.push(...(reply.Items ?? []).map((item) => storedOf(item).assistant));
      start = reply.LastEvaluatedKey;
    } while (start);
    return out;
  }

  /** The orders the assistant placed on the India day of `now` (0 when none). */
  async ordersOn(assistantId: string, now: number): Promise<number> {
    const item = await this.getItem(dayItemKey(assistantId, indiaDay(now)));
    return Number(item?.count?.N ?? 0);
  }

  /**
   * One more order today, taken only while the day's count is under `max` (no `max`: always counted). Answers the
   * count with this order, or undefined when the day's limit is reached (nothing counted).
   */
  async countOrder(assistantId: string, max: number | undefined, now: number): Promise<number | undefined> {
    try {
      const reply = await this.client.send(
        new UpdateItemCommand({
          TableName: this.table,
          Key: dayItemKey(assistantId, indiaDay(now)),
          UpdateExpression: 'ADD #count :one SET expiresAt = if_not_exists(expiresAt, :expires)',
          ...(max === undefined ? {} : { ConditionExpression: 'attribute_not_exists(#count) OR #count < :max' }),
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: {
            ':one': { N: '1' },
            ':expires': { N: String(Math.floor(now / 1000) + DAY_ITEM_SECONDS) },
            ...(max === undefined ? {} : { ':max': { N: String(max) } }),
          },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(reply.Attributes?.count?.N ?? 1);
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }
}
