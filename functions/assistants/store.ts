/**
 * Assistants in the events table (beside the strategies):
 *
 * - `assistant` / <assistantId> and `assistant-token` / <token hash>: the assistant as a record holding its token's
 *   hash (base/aws/token-holders.ts), so a token finds its assistant in one consistent GetItem.
 * - `assistant-day` / <assistantId>#<India date>: the orders the assistant placed that day, counted by an ADD
 *   conditional on the count being under its limit; gone two days later (TTL on `expiresAt`).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import { isConditionFailure, UpdateItemCommand } from '../base/aws/dynamo.js';
import { type Held, holderKeys, holderPartitions, TokenHolderTable } from '../base/aws/token-holders.js';
import type { Assistant } from '../base/schemas/assistants.js';
import { indiaDay } from '../base/schemas/india-time.js';

/** The assistants' partitions: records, token items and day counters (what the Assistants and MCP grants name). */
export const ASSISTANT_PARTITIONS = { ...holderPartitions('assistant'), day: 'assistant-day' } as const;
const DAY_PK = ASSISTANT_PARTITIONS.day;
/** How long a day's counter is kept: past the India day it counts, whatever the clock's zone. */
const DAY_ITEM_SECONDS = 2 * 86_400;

/** The keys of an assistant's items (tests read the table through them). */
export const assistantItemKey = holderKeys('assistant').item;
export const tokenItemKey = holderKeys('assistant').token;
export const dayItemKey = (assistantId: string, day: string): Record<string, AttributeValue> => ({
  pk: { S: DAY_PK },
  sk: { S: `${assistantId}#${day}` },
});

export type StoredAssistant = Held<'assistant', Assistant>;

export class AssistantStore extends TokenHolderTable<'assistant', Assistant> {
  constructor(options: { tableName: string; endpoint?: string | undefined }) {
    super(options, { kind: 'assistant', idAttribute: 'assistantId', idOf: (a) => a.assistantId });
  }

  private get table() {
    return this.options.tableName;
  }

  /** The assistant whose token hashes to `hash`, or undefined (compared in constant time). */
  async byTokenHash(hash: string): Promise<Assistant | undefined> {
    return (await this.findByTokenHash(hash))?.record;
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
