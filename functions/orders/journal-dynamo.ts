/**
 * The journal of broker writes on DynamoDB (the deployment's): its entries and the records of stamps as items of the
 * idempotency table, each change of an entry one conditional write (journal-store.ts says which).
 *
 * The item's layout is that of Powertools' idempotency records (`id`, `status`, `data`, `expiration`, `validation`,
 * `in_progress_expiration`), so a record written before this journal replays, and the EventForwarder's stream filter
 * (COMPLETED items with an outbox) is unchanged. `expiration` is the table's time to live: a key past it is free.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';

import {
  DeleteItemCommand,
  dynamoDbClient,
  GetItemCommand,
  isConditionFailure,
  PutItemCommand,
  UpdateItemCommand,
} from '../base/aws/dynamo.js';
import { findGone, unavailable } from './gone.js';
import { StoredOrderJournal } from './journal.js';
import { type Entry, entryOf, md5, type Stored } from './journal-entry.js';
import type { Claim, Claimed, JournalStore } from './journal-store.js';
import { findMove, findSeen, recordMove, type StampMove } from './moves.js';

export interface JournalOptions {
  tableName: string;
  ttlSeconds: number;
  /** How long after a send's deadline the broker may still act on it (docs/explanation/order-safety.md, "The late window"). */
  lateWindowMs: number;
  /** Local runs and tests only (dynalite). */
  endpoint?: string | undefined;
  now?: () => number;
}

/** One operation's entries (and every operation's records of stamps) in the idempotency table. */
export class DynamoJournalStore implements JournalStore {
  constructor(
    private readonly operation: string,
    private readonly options: Omit<JournalOptions, 'now'>,
  ) {}

  private get client() {
    return dynamoDbClient(this.options.endpoint);
  }

  private get table() {
    return { tableName: this.options.tableName, endpoint: this.options.endpoint };
  }

  /** Powertools' record key: a stable prefix per operation, then the MD5 of the key as JSON. */
  private id(key: string): Record<string, AttributeValue> {
    return { id: { S: `gtt-gateway.${this.operation}#${md5(JSON.stringify(key))}` } };
  }

  async claim(key: string, claim: Claim, over: number | undefined, now: number): Promise<Claimed> {
    const item: Record<string, AttributeValue> = {
      ...this.id(key),
      status: { S: 'INPROGRESS' },
      validation: { S: claim.validation },
      expiration: { N: String(Math.floor(now / 1000) + this.options.ttlSeconds) },
      in_progress_expiration: { N: String(claim.inProgressUntil) },
      landBy: { N: String(claim.landBy) },
      attempt: { N: String(claim.attempt) },
      ...(claim.stamp ? { stamp: { S: claim.stamp } } : {}),
    };
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.options.tableName,
          Item: item,
          ...(over === undefined
            ? {
                ConditionExpression: 'attribute_not_exists(id) OR expiration < :now',
                ExpressionAttributeValues: { ':now': { N: String(Math.floor(now / 1000)) } },
              }
            : over === 0
              ? { ConditionExpression: 'attribute_exists(id) AND attribute_not_exists(attempt)' }
              : {
                  ConditionExpression: 'attempt = :over',
                  ExpressionAttributeValues: { ':over': { N: String(over) } },
                }),
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { claimed: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw unavailable(error);
      const current = (error as { Item?: Record<string, AttributeValue> }).Item ?? (await this.read(key));
      return { claimed: false, entry: current && entryOf(current, this.options.lateWindowMs) };
    }
  }

  private async read(key: string): Promise<Record<string, AttributeValue> | undefined> {
    try {
      return (
        await this.client.send(
          new GetItemCommand({ TableName: this.options.tableName, Key: this.id(key), ConsistentRead: true }),
        )
      ).Item;
    } catch (error) {
      throw unavailable(error);
    }
  }

  async finish(key: string, attempt: number, status: Entry['status'], data: Stored, landBy?: number): Promise<void> {
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.options.tableName,
          Key: this.id(key),
          UpdateExpression: `SET #s = :s, #d = :d${landBy === undefined ? '' : ', landBy = :l'}`,
          ConditionExpression: 'attempt = :a',
          ExpressionAttributeNames: { '#s': 'status', '#d': 'data' },
          ExpressionAttributeValues: {
            ':s': { S: status },
            ':d': { M: marshall(data, { removeUndefinedValues: true, convertClassInstanceToMap: true }) },
            ':a': { N: String(attempt) },
            ...(landBy === undefined ? {} : { ':l': { N: String(landBy) } }),
          },
        }),
      );
    } catch (error) {
      // Another request took the write over (this one was past its deadline): its outcome is the one recorded.
      if (!isConditionFailure(error)) throw error;
    }
  }

  async release(key: string, attempt: number): Promise<void> {
    try {
      await this.client.send(
        new DeleteItemCommand({
          TableName: this.options.tableName,
          Key: this.id(key),
          ConditionExpression: 'attempt = :a',
          ExpressionAttributeValues: { ':a': { N: String(attempt) } },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  recordMove(stamp: string, alId: string, by: string | undefined): Promise<void> {
    return recordMove({ ...this.table, ttlSeconds: this.options.ttlSeconds }, stamp, alId, by);
  }

  findMove(stamp: string): Promise<StampMove | undefined> {
    return findMove(this.table, stamp);
  }

  findSeen(by: string): Promise<string | undefined> {
    return findSeen(this.table, by);
  }

  findGone(stamp: string): Promise<string | undefined> {
    return findGone(this.table, stamp);
  }
}

/** The journal of one operation's writes on the idempotency table (journal-factory.ts builds the deployment's). */
export class DynamoOrderJournal extends StoredOrderJournal {
  constructor(operation: string, options: JournalOptions) {
    super(new DynamoJournalStore(operation, options), { lateWindowMs: options.lateWindowMs, now: options.now });
  }
}
