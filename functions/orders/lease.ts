/**
 * One change per order at a time: a modify, PATCH or cancel holds a lease on its `al_id` (one item of the control
 * table, `lease#<account>#<al_id>`) from before it reads the order until its write has ended. A second change while
 * the lease is held is refused with ORDER_BUSY (409, "read the order again"), never left to overwrite the first:
 * the broker has no conditional modify, so two changes merged from one read would lose one (docs/explanation/order-safety.md).
 *
 * The lease lasts until the holder's deadline plus the late window (a holder killed mid-write may still land until
 * then). A write whose outcome is unknown keeps its lease until the late window after its send.
 *
 * A lease belongs to one change: its operation and idempotency key (`ikey`, `<operation>#<key>`; a key is per
 * operation, as the journal's entries are). A retry of that change (same operation, same key) that finds the lease
 * held is not refused and takes nothing: it joins the lease without owning it, so its release is a no-op and the
 * holder keeps the lease until its own write has ended (or its late window passed); the journal answers the retry
 * (in flight: 409; completed: the replay; unknown: the books). Only when the journal lets the retry send (the
 * first attempt can no longer land, or never claimed the key) does the retry take the lease over (`own`), and only
 * from the holder it saw: had another change taken it meanwhile, the retry is ORDER_BUSY and sends nothing. A retry
 * that settles the change from the books (its write found) takes it the same way, to give it back with its reply.
 *
 * A lease given back is not deleted: it lapses (`until` in the past) and keeps when its change began and ended
 * (`changedAt`, `endedAt`) for a day (`expiresAt`, the table's TTL), so one order by id knows whether the watcher's
 * copy can hold that change (orders/gateway/order-copy.ts: not when the change ended after the copy's list read).
 */
import { randomUUID } from 'node:crypto';

import { dynamoDbClient, isConditionFailure, PutItemCommand, UpdateItemCommand } from '../base/aws/dynamo.js';
import { InternalError, OrderBusyError } from '../base/contract/errors.js';

/** The lease item of `alId` (control table): the copy read asks for it too. */
/** The control table's key (`pk`) of an order's lease begins with this. */
export const LEASE_PREFIX = 'lease#';
export const leaseKey = (account: string, alId: string) => ({ pk: { S: `${LEASE_PREFIX}${account}#${alId}` } });

/** How long a given-back lease says when its order last changed. */
const KEPT_MS = 24 * 60 * 60_000;
const expiresAt = (ms: number) => ({ N: String(Math.ceil((ms + KEPT_MS) / 1_000)) });

export interface LeaseOptions {
  tableName: string;
  lateWindowMs: number;
  endpoint?: string | undefined;
  now?: () => number;
}

/** The change a lease belongs to: its operation and idempotency key. */
export interface LeasedChange {
  operation: string;
  key: string;
}

export interface Lease {
  /** False for a retry of the change that holds the lease (joined): it gives back or keeps nothing until `own`. */
  readonly owned: boolean;
  /** Before a joined retry sends: takes the lease from the holder it saw (ORDER_BUSY if another took it since). */
  own: () => Promise<void>;
  /** Gives the lease back: the change has ended (done, or certainly not executed). */
  release: () => Promise<void>;
  /** The change's outcome is unknown: held until the late window after now. */
  keepForLateWindow: () => Promise<void>;
}

/**
 * The leases as the order core uses them. On the control table in the deployment (`DynamoOrderLeases`, below), in
 * memory in the tests (`MemoryOrderLeases`, test/support/memory-leases.ts); test/contract/lease-contract.test.ts runs
 * one suite against both.
 */
export interface OrderLeases {
  /**
   * Takes the lease on `alId` until `deadline` plus the late window; joins it (not owned) when `change` holds it
   * already; else throws ORDER_BUSY naming the way forward.
   */
  acquire(account: string, alId: string, deadline: number, change?: LeasedChange): Promise<Lease>;
}

/** The change a lease belongs to, as the lease records it: `<operation>#<key>`. */
export const changeOf = (change: LeasedChange) => `${change.operation}#${change.key}`;

/** Another change holds the order's lease until `held` (ms): ORDER_BUSY, nothing sent. */
export const orderBusy = (alId: string, held: number, now: number): OrderBusyError => {
  const retryAfterSeconds = Math.max(1, Math.ceil((held - now) / 1_000));
  return new OrderBusyError(
    `Another change to GTT order ${alId} is in flight (a modify, PATCH or cancel); read the order again (GET /gtt-orders/${alId}) and decide, at the latest after ${retryAfterSeconds} s. Nothing was sent.`,
    { outcome: 'not_executed', details: { al_id: alId, retryAfterSeconds } },
  );
};

/** The leases as items of the control table (module comment). */
export class DynamoOrderLeases implements OrderLeases {
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

  private unavailable(error: unknown): InternalError {
    return new InternalError(`The control table is unavailable (order lease); nothing was sent to the broker.`, {
      cause: error,
      outcome: 'not_executed',
    });
  }

  async acquire(account: string, alId: string, deadline: number, change?: LeasedChange): Promise<Lease> {
    const owner = randomUUID();
    const now = this.now();
    const until = deadline + this.options.lateWindowMs;
    const ikey = change ? changeOf(change) : undefined;
    // The holder this request runs under: itself, or (joined) none until it owns the lease.
    let holder: string | undefined = owner;
    let seen: string | undefined;
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
            ...(ikey ? { ikey: { S: ikey } } : {}),
          },
          // Never over a held lease, not even one of the same change: its holder keeps it (module comment).
          ConditionExpression: 'attribute_not_exists(pk) OR #u < :now',
          ExpressionAttributeNames: { '#u': 'until' },
          ExpressionAttributeValues: { ':now': { N: String(now) } },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw this.unavailable(error);
      const old = (error as { Item?: { until?: { N?: string }; owner?: { S?: string }; ikey?: { S?: string } } }).Item;
      const held = Number(old?.until?.N ?? now + 1_000);
      if (ikey === undefined || old?.ikey?.S !== ikey || old.owner?.S === undefined) throw orderBusy(alId, held, now);
      // A retry of the change that holds it: joined, owning nothing (the journal answers it).
      holder = undefined;
      seen = old.owner.S;
    }
    const mine = () =>
      ({
        ConditionExpression: '#o = :o',
        ExpressionAttributeValues: { ':o': { S: holder! } },
      }) as const;
    const quietly = async (send: () => Promise<unknown>) => {
      // Joined and never owned: nothing to give back or keep (the holder does).
      if (holder === undefined) return;
      try {
        await send();
      } catch (error) {
        // Taken over after it lapsed (a condition failure), or the table is unreachable: it lapses at `until`.
        void error;
      }
    };
    return {
      get owned() {
        return holder !== undefined;
      },
      own: async () => {
        if (holder !== undefined) return;
        const at = this.now();
        try {
          await this.client.send(
            new UpdateItemCommand({
              TableName: this.options.tableName,
              Key: this.key(account, alId),
              UpdateExpression: 'SET #o = :o, #u = :u, changedAt = :at, expiresAt = :e REMOVE endedAt',
              // Only from the holder it saw: a change that took the lease since keeps it.
              ConditionExpression: '#o = :seen AND ikey = :k',
              ExpressionAttributeNames: { '#u': 'until', '#o': 'owner' },
              ExpressionAttributeValues: {
                ':o': { S: owner },
                ':u': { N: String(until) },
                ':at': { N: String(at) },
                ':e': expiresAt(until),
                ':seen': { S: seen! },
                ':k': { S: ikey! },
              },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            }),
          );
        } catch (error) {
          if (!isConditionFailure(error)) throw this.unavailable(error);
          const old = (error as { Item?: { until?: { N?: string } } }).Item;
          throw orderBusy(alId, Number(old?.until?.N ?? at + 1_000), at);
        }
        holder = owner;
      },
      release: () =>
        quietly(() => {
          const at = this.now();
          return this.client.send(
            new UpdateItemCommand({
              TableName: this.options.tableName,
              Key: this.key(account, alId),
              // Lapsed at once (the next change may take it), and when this one ended.
              UpdateExpression: 'SET #u = :u, endedAt = :at, expiresAt = :e',
              ConditionExpression: mine().ConditionExpression,
              ExpressionAttributeNames: { '#u': 'until', '#o': 'owner' },
              ExpressionAttributeValues: {
                ...mine().ExpressionAttributeValues,
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
              ConditionExpression: mine().ConditionExpression,
              ExpressionAttributeNames: { '#u': 'until', '#o': 'owner' },
              ExpressionAttributeValues: {
                ...mine().ExpressionAttributeValues,
                ':u': { N: String(this.now() + this.options.lateWindowMs) },
                ':e': expiresAt(this.now() + this.options.lateWindowMs),
              },
            }),
          ),
        ),
    };
  }
}
