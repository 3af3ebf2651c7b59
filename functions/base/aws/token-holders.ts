/**
 * Records that hold a bearer token only as its SHA-256 (a strategy's webhook token, an assistant's token), two items
 * each in one table:
 *
 * - `<kind>` / <id>: the record as JSON (attribute `<kind>`), the hash of its token and of the input that created it
 *   (a retried Idempotency-Key is matched on it). The token itself is never stored.
 * - `<kind>-token` / <token hash>: the record whole, so a token finds its record in one consistent GetItem, the
 *   stored hash then compared with the presented one in constant time.
 *
 * Rotating moves the record to the new hash (conditional on the old one, so two rotations at once cannot both win,
 * nor a rotation of a deleted record), puts the new token item and deletes the old one before the reply: an old token
 * stops working at once. Removing deletes the token item first.
 */
import { timingSafeEqual } from 'node:crypto';

import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import {
  DeleteItemCommand,
  type DynamoClient,
  dynamoDbClient,
  GetItemCommand,
  isConditionFailure,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
} from './dynamo.js';

/** Both hashes as bytes, compared in constant time (equal lengths: both are SHA-256 hex). */
export const sameHash = (a: string, b: string): boolean => {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
};

/** A record as stored: under its kind's name (`strategy`, `assistant`), with its hashes. */
export type Held<K extends string, T> = { [P in K]: T } & {
  tokenHash: string;
  inputHash: string;
  /** The stored text of the record, when read (a change can be made conditional on it). */
  json?: string;
};

/** A record as its token item holds it. */
export interface FoundByToken<T> {
  record: T;
  tokenHash: string;
  /** The stored text, which a write can be made conditional on. */
  json: string;
}

export interface HolderKind<K extends string, T> {
  /** The partition and attribute name: `strategy` (and `strategy-token`), `assistant` (and `assistant-token`). */
  kind: K;
  /** The record's id attribute on its token item, and how to read it. */
  idAttribute: string;
  idOf: (record: T) => string;
  /**
   * Tries of a token item's delete that a transaction holding the item refused (`TransactionConflictException`, which
   * the client does not retry: base/aws/retry.ts); 1 when nothing writes the token item in a transaction.
   */
  deleteTries?: number;
}

const key = (pk: string, sk: string): Record<string, AttributeValue> => ({ pk: { S: pk }, sk: { S: sk } });

/** The partitions (`pk`) of a kind's items: its records (`<kind>`) and its token items (`<kind>-token`). */
export const holderPartitions = <K extends string>(kind: K) => ({ item: kind, token: `${kind}-token` as const });

/** The keys of a kind's items: the record's (`<kind>` / <id>) and its token item's (`<kind>-token` / <hash>). */
export const holderKeys = (kind: string) => ({
  item: (id: string): Record<string, AttributeValue> => key(holderPartitions(kind).item, id),
  token: (hash: string): Record<string, AttributeValue> => key(holderPartitions(kind).token, hash),
});

export class TokenHolderTable<K extends string, T extends { tokenSetAt: string }> {
  protected readonly client: DynamoClient;

  constructor(
    protected readonly options: { tableName: string; endpoint?: string | undefined },
    protected readonly holder: HolderKind<K, T>,
  ) {
    this.client = dynamoDbClient(options.endpoint);
  }

  /** The record item's key (`<kind>` / <id>). */
  itemKey(id: string): Record<string, AttributeValue> {
    return holderKeys(this.holder.kind).item(id);
  }

  /** The token item's key (`<kind>-token` / <token hash>). */
  tokenItemKey(hash: string): Record<string, AttributeValue> {
    return holderKeys(this.holder.kind).token(hash);
  }

  protected held(record: T, tokenHash: string, inputHash: string, json?: string): Held<K, T> {
    return { [this.holder.kind]: record, tokenHash, inputHash, ...(json === undefined ? {} : { json }) } as Held<K, T>;
  }

  protected recordOf(stored: Held<K, T>): T {
    return (stored as Record<K, T>)[this.holder.kind];
  }

  private heldOf(item: Record<string, AttributeValue>): Held<K, T> {
    const json = item[this.holder.kind]!.S!;
    return this.held(JSON.parse(json) as T, item.tokenHash!.S!, item.inputHash?.S ?? '', json);
  }

  protected async getItem(k: Record<string, AttributeValue>): Promise<Record<string, AttributeValue> | undefined> {
    const reply = await this.client.send(
      new GetItemCommand({ TableName: this.options.tableName, Key: k, ConsistentRead: true }),
    );
    return reply.Item;
  }

  private async putTokenItem(stored: Held<K, T>): Promise<void> {
    const record = this.recordOf(stored);
    await this.client.send(
      new PutItemCommand({
        TableName: this.options.tableName,
        Item: {
          ...this.tokenItemKey(stored.tokenHash),
          [this.holder.idAttribute]: { S: this.holder.idOf(record) },
          tokenHash: { S: stored.tokenHash },
          [this.holder.kind]: { S: JSON.stringify(record) },
        },
      }),
    );
  }

  /** The token stops working (tried again while a transaction holding the item refuses the delete). */
  private async deleteTokenItem(hash: string): Promise<void> {
    const tries = this.holder.deleteTries ?? 1;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.send(
          new DeleteItemCommand({ TableName: this.options.tableName, Key: this.tokenItemKey(hash) }),
        );
        return;
      } catch (error) {
        const conflict = error instanceof Error && error.name === 'TransactionConflictException';
        if (!conflict || attempt >= tries) throw error;
        await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
      }
    }
  }

  async get(id: string): Promise<Held<K, T> | undefined> {
    const item = await this.getItem(this.itemKey(id));
    return item ? this.heldOf(item) : undefined;
  }

  /**
   * The record whose token hashes to `hash`, or undefined. The stored hash is compared with the presented one in
   * constant time, whatever the key lookup found.
   */
  async findByTokenHash(hash: string): Promise<FoundByToken<T> | undefined> {
    const item = await this.getItem(this.tokenItemKey(hash));
    const stored = item?.tokenHash?.S ?? '0'.repeat(hash.length);
    const same = sameHash(stored, hash);
    const json = item?.[this.holder.kind]?.S;
    return item && same && json ? { record: JSON.parse(json) as T, tokenHash: stored, json } : undefined;
  }

  /** False when a record with this id exists already (a retried or concurrent create). */
  async create(stored: Held<K, T>): Promise<boolean> {
    const record = this.recordOf(stored);
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.options.tableName,
          Item: {
            ...this.itemKey(this.holder.idOf(record)),
            tokenHash: { S: stored.tokenHash },
            inputHash: { S: stored.inputHash },
            [this.holder.kind]: { S: JSON.stringify(record) },
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

  /** A new token (its hash, set at `at`). Undefined: the record changed meanwhile (rotated, removed). */
  async rotate(previous: Held<K, T>, hash: string, at: string): Promise<Held<K, T> | undefined> {
    const record: T = { ...this.recordOf(previous), tokenSetAt: at };
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.options.tableName,
          Key: this.itemKey(this.holder.idOf(record)),
          UpdateExpression: 'SET tokenHash = :new, #record = :r',
          ExpressionAttributeNames: { '#record': this.holder.kind },
          ConditionExpression: 'tokenHash = :old',
          ExpressionAttributeValues: {
            ':new': { S: hash },
            ':old': { S: previous.tokenHash },
            ':r': { S: JSON.stringify(record) },
          },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
    const next = this.held(record, hash, previous.inputHash);
    await this.putTokenItem(next);
    await this.deleteTokenItem(previous.tokenHash);
    return next;
  }

  /** The token item first: from then on the token finds nothing, whatever happens to the rest. */
  async remove(stored: Held<K, T>): Promise<void> {
    await this.deleteTokenItem(stored.tokenHash);
    await this.client.send(
      new DeleteItemCommand({
        TableName: this.options.tableName,
        Key: this.itemKey(this.holder.idOf(this.recordOf(stored))),
      }),
    );
  }

  /** Every record, by id (strongly consistent, paged through). */
  async list(): Promise<T[]> {
    const out: T[] = [];
    let start: Record<string, AttributeValue> | undefined;
    do {
      const reply = await this.client.send(
        new QueryCommand({
          TableName: this.options.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: holderPartitions(this.holder.kind).item } },
          ConsistentRead: true,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      out.push(...(reply.Items ?? []).map((item) => this.recordOf(this.heldOf(item))));
      start = reply.LastEvaluatedKey;
    } while (start);
    return out;
  }
}
