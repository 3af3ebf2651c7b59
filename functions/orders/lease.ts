/**
 * One change per order at a time: a modify, PATCH or cancel holds a lease on its `al_id` (one item of the control
 * table, `lease#<account>#<al_id>`) from before it reads the order until its write has ended. A second change while
 * the lease is held is refused with ORDER_BUSY (409, "read the order again"), never left to overwrite the first:
 * the broker has no conditional modify, so two changes merged from one read would lose one (docs/order-safety.md).
 *
 * The lease lasts until the holder's deadline plus the late window (a holder killed mid-write may still land until
 * then). A write whose outcome is unknown keeps its lease until the late window after its send, and the lease names
 * its idempotency key: a retry with that key is the same change and passes (the journal settles it).
 *
 * A lease given back is not deleted: it lapses (`until` in the past) and keeps when its change began and ended
 * (`changedAt`, `endedAt`) for a day (`expiresAt`, the table's TTL), so one order by id knows whether the watcher's
 * copy can hold that change (orders/gateway/order-copy.ts: not when the change ended after the copy's list read).
 */
import { randomUUID } from 'node:crypto';

import { PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';

import { dynamoDbClient, isConditionFailure } from '../base/aws/dynamodb-client.js';
import { InternalError, OrderBusyError } from '../base/contract/errors.js';

/** The lease item of `alId` (control table): the copy read asks for it too. */
export const leaseKey = (account: string, alId: string) => ({ pk: { S: `lease#${account}#${alId}` } });

/** How long a given-back lease says when its order last changed. */
const KEPT_MS = 24 * 60 * 60_000;
const expiresAt = (ms: number) => ({ N: String(Math.ceil((ms + KEPT_MS) / 1_000)) });

export interface LeaseOptions {
  tableName: string;
  lateWindowMs: number;
  endpoint?: string | undefined;
  now?: () => number;
}

export interface Lease {
  /** Gives the lease back: the change has ended (done, or certainly not executed). */
  release: () => Promise<void>;
  /** The change's outcome is unknown: held until the late window after now, for its key only. */
  keepForLateWindow: () => Promise<void>;
}

export class OrderLeases {
  private readonly now: () => number;

  constructor(private readonly options: LeaseOptions) {
    this.now = options.now ?? Date.now;
  }

  private get client() {
    return dynamoDbClient(this.options.endpoint);
  }

  private key(account: string, alId: string) {
    return leaseKey(account, alId);
  }

  /** Takes the lease on `alId` until `deadline` plus the late window, or throws ORDER_BUSY naming the way forward. */
  async acquire(account: string, alId: string, deadline: number, idempotencyKey?: string): Promise<Lease> {
    const owner = randomUUID();
    const now = this.now();
    const until = deadline + this.options.lateWindowMs;
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.options.tableName,
          Item: {
            ...this.key(account, alId),
            owner: { S: owner },
            until: { N: String(until) },
            changedAt: { N: String(now) },
            expiresAt: expiresAt(until),
            ...(idempotencyKey ? { ikey: { S: idempotencyKey } } : {}),
          },
          ConditionExpression: `attribute_not_exists(pk) OR #u < :now${idempotencyKey ? ' OR ikey = :k' : ''}`,
          ExpressionAttributeNames: { '#u': 'until' },
          ExpressionAttributeValues: {
            ':now': { N: String(now) },
            ...(idempotencyKey ? { ':k': { S: idempotencyKey } } : {}),
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error))
        throw new InternalError(`The control table is unavailable (order lease); nothing was sent to the broker.`, {
          cause: error,
          outcome: 'not_executed',
        });
      const held = Number((error as { Item?: { until?: { N?: string } } }).Item?.until?.N ?? now + 1_000);
      const retryAfterSeconds = Math.max(1, Math.ceil((held - now) / 1_000));
      throw new OrderBusyError(
        `Another change to GTT order ${alId} is in flight (a modify, PATCH or cancel); read the order again (GET /gtt-orders/${alId}) and decide, at the latest after ${retryAfterSeconds} s. Nothing was sent.`,
        { outcome: 'not_executed', details: { al_id: alId, retryAfterSeconds } },
      );
    }
    const mine = {
      ConditionExpression: '#o = :o',
      ExpressionAttributeValues: { ':o': { S: owner } },
    } as const;
    const quietly = async (send: () => Promise<unknown>) => {
      try {
        await send();
      } catch (error) {
        // Taken over after it lapsed (a condition failure), or the table is unreachable: it lapses at `until`.
        void error;
      }
    };
    return {
      release: () =>
        quietly(() => {
          const at = this.now();
          return this.client.send(
            new UpdateItemCommand({
              TableName: this.options.tableName,
              Key: this.key(account, alId),
              // Lapsed at once (the next change may take it), and when this one ended.
              UpdateExpression: 'SET #u = :u, endedAt = :at, expiresAt = :e',
              ConditionExpression: mine.ConditionExpression,
              ExpressionAttributeNames: { '#u': 'until', '#o': 'owner' },
              ExpressionAttributeValues: {
                ...mine.ExpressionAttributeValues,
                ':u': { N: String(at - 1) },
                ':at': { N: String(at) },
                ':e': expiresAt(at),
              },
            }),
          );
        }),
      keepForLateWindow: () =>
        quietly(() =>
          this.client.send(
            new UpdateItemCommand({
              TableName: this.options.tableName,
              Key: this.key(account, alId),
              UpdateExpression: 'SET #u = :u, expiresAt = :e',
              ConditionExpression: mine.ConditionExpression,
              ExpressionAttributeNames: { '#u': 'until', '#o': 'owner' },
              ExpressionAttributeValues: {
                ...mine.ExpressionAttributeValues,
                ':u': { N: String(this.now() + this.options.lateWindowMs) },
                ':e': expiresAt(this.now() + this.options.lateWindowMs),
              },
            }),
          ),
        ),
    };
  }
}
