/**
 * The day's limits in the events table, one partition (`risk`) for the deployment's one account:
 *
 * - `settings`: what `PUT /risk` set (JSON in `data`).
 * - `day#<India date>`: that day's state (clear, hit, unchecked) and the last P&L the check saw, with a `version`
 *   each write moves on (a write conditional on the version read: two writers never both claim the hit); gone
 *   three days later (TTL on `expiresAt`). A new India day has no item yet: it starts clear.
 * - `key#<Idempotency-Key>`: a PUT's key with its body's hash and its answer, written in the same transaction as the
 *   settings it set; gone a day later.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import {
  cancellationReasons,
  dynamoDbClient,
  GetItemCommand,
  isConditionFailure,
  PutItemCommand,
  TransactWriteItemsCommand,
} from '../base/aws/dynamo.js';
import type { RiskResult, RiskSettings, RiskToday } from '../base/schemas/risk.js';

/** The partition of every risk item (what the grant `eventsTable:risk` names). */
export const RISK_PK = 'risk';
const DAY_ITEM_SECONDS = 3 * 86_400;
const KEY_ITEM_SECONDS = 86_400;

const key = (sk: string): Record<string, AttributeValue> => ({ pk: { S: RISK_PK }, sk: { S: sk } });
export const settingsKey = () => key('settings');
export const dayKey = (day: string) => key(`day#${day}`);
export const idempotencyItemKey = (idempotencyKey: string) => key(`key#${idempotencyKey}`);

/** A day's state as read, with the version a write must find. */
export interface StoredDay {
  today: RiskToday;
  version: number;
}

/** What a keyed PUT found: its own earlier answer (same body), or another body's. */
export type KeyedPut = { kind: 'written' } | { kind: 'replay'; hash: string; answer: RiskResult };

export class RiskStore {
  private readonly client;
  constructor(private readonly options: { tableName: string; endpoint?: string | undefined }) {
    this.client = dynamoDbClient(options.endpoint);
  }

  private async get(k: Record<string, AttributeValue>) {
    const reply = await this.client.send(
      new GetItemCommand({ TableName: this.options.tableName, Key: k, ConsistentRead: true }),
    );
    return reply.Item;
  }

  async settings(): Promise<RiskSettings | undefined> {
    const item = await this.get(settingsKey());
    return item?.data?.S ? (JSON.parse(item.data.S) as RiskSettings) : undefined;
  }

  async day(day: string): Promise<StoredDay> {
    const item = await this.get(dayKey(day));
    if (!item?.data?.S) return { today: { day, state: 'clear' }, version: 0 };
    return { today: JSON.parse(item.data.S) as RiskToday, version: Number(item.version?.N ?? 0) };
  }

  /**
   * The day's state written over the `version` read (0: none yet); answers the new version, or undefined when another
   * write came first (nothing written: read again).
   */
  async writeDay(today: RiskToday, version: number, now: number): Promise<number | undefined> {
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.options.tableName,
          Item: {
            ...dayKey(today.day),
            state: { S: today.state },
            data: { S: JSON.stringify(today) },
            version: { N: String(version + 1) },
            expiresAt: { N: String(Math.floor(now / 1000) + DAY_ITEM_SECONDS) },
          },
          ConditionExpression: version === 0 ? 'attribute_not_exists(pk)' : 'version = :v',
          ...(version === 0 ? {} : { ExpressionAttributeValues: { ':v': { N: String(version) } } }),
        }),
      );
      return version + 1;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  /**
   * The settings written; with a key, in one transaction with the key's item (its body's hash and the answer), which
   * must not exist yet. A key already used answers what it holds, and nothing is written.
   */
  async putSettings(
    settings: RiskSettings,
    keyed: { key: string; hash: string; answer: RiskResult } | undefined,
    now: number,
  ): Promise<KeyedPut> {
    const table = this.options.tableName;
    const write = { Put: { TableName: table, Item: { ...settingsKey(), data: { S: JSON.stringify(settings) } } } };
    if (!keyed) {
      await this.client.send(new TransactWriteItemsCommand({ TransactItems: [write] }));
      return { kind: 'written' };
    }
    try {
      await this.client.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            {
              Put: {
                TableName: table,
                Item: {
                  ...idempotencyItemKey(keyed.key),
                  hash: { S: keyed.hash },
                  data: { S: JSON.stringify(keyed.answer) },
                  expiresAt: { N: String(Math.floor(now / 1000) + KEY_ITEM_SECONDS) },
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            write,
          ],
        }),
      );
      return { kind: 'written' };
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (reasons?.[0]?.Code !== 'ConditionalCheckFailed') throw error;
      const item = await this.get(idempotencyItemKey(keyed.key));
      if (!item?.data?.S) throw error;
      return { kind: 'replay', hash: item.hash?.S ?? '', answer: JSON.parse(item.data.S) as RiskResult };
    }
  }
}
