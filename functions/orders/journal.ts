/**
 * The journal of broker writes (docs/explanation/order-safety.md): one entry per write with an idempotency key, which is
 * at once the key's record (the same key answers the same result) and the write's journal entry (what was about to
 * be sent, with which stamp, until when it may still land). There is no second item.
 *
 * Before a write is sent, its entry is claimed (`INPROGRESS`, conditional: one claim per key) with its stamp
 * (base/broker/order-stamps.ts), the deadline of the call that sends it and `landBy`, the deadline plus the late window
 * (how long after our client gave up a broker may still act on a request). After it, the outcome: `COMPLETED`
 * (success; its lifecycle events ride in the same write: the transactional outbox, events/core/outbox.ts), `UNKNOWN`
 * (lost reply, timeout), or deleted (the broker certainly did not act: the key is free).
 *
 * A write whose outcome is unknown (an `UNKNOWN` entry, or an `INPROGRESS` one whose sender is past its deadline:
 * killed, out of memory, host lost) is never sent again blindly. The next request with the key reads the broker's
 * books for the stamp, or the record of a later change that replaced it (`adopt`; moves.ts): found, the write
 * happened and is adopted (completed with what the books show, events included); not found while it may still
 * land, the request is told so (409, retry after `landBy`); not found once it can no longer land, it is taken over
 * (conditional on the attempt, so one taker) and sent once more with the same stamp. A write without a stamp (a
 * caller's tag too long to leave room) can only be reported unknown.
 *
 * This file decides; a store keeps the entries (journal-store.ts): DynamoDB in the deployment (journal-dynamo.ts,
 * one item per entry in the idempotency table), memory in the tests.
 */
import type { GatewayError } from '../base/contract/errors.js';
import {
  errorFromBody,
  IdempotencyInProgressError,
  IdempotencyKeyReusedError,
  InternalError,
  toGatewayError,
} from '../base/contract/errors.js';
import { redactDeep } from '../base/contract/redact.js';
import type { LifecycleEvent } from '../base/schemas/events.js';
import { readBooks } from './books-unread.js';
import { deepSort, type Entry, md5, type Stored } from './journal-entry.js';
import type { JournalStore } from './journal-store.js';
import type { StampMove } from './moves.js';
import { canonicalNumbers } from './safety/idempotency-input.js';

/** What a write (or an adoption) yields: its result, and the lifecycle events of its success. */
export interface Executed<T = unknown> {
  result: T;
  events?: readonly LifecycleEvent[] | undefined;
  /**
   * A check of the success made alongside the record's completing write (the kill switch read after a place or
   * modify landed): resolves to how to undo the write when it must not stand (told whether the completing write
   * carried its events; it throws the refusal, recorded as the key's outcome), or undefined. Never rejects.
   */
  landed?: Promise<((carriedEvents: boolean) => Promise<never>) | undefined> | undefined;
}

export interface JournalRun<T> {
  result: T;
  /** Answered from the journal (a replay) or from the broker's books (an adopted write), not by this request's send. */
  replayed: boolean;
  /** The books showed the write of an earlier attempt whose outcome was unknown. */
  adopted?: boolean;
  /** The events of this request's own success or adoption (none for a replay). */
  events: readonly LifecycleEvent[];
}

/** One journaled write: how to send it with its stamp, and how to find it in the broker's books. */
export interface JournaledWrite<T> {
  /** The stamp the broker keeps with it, or undefined when there is no room for one. */
  stamp: string | undefined;
  /** The epoch ms by which this request's send ends (the invocation's deadline). */
  deadline: number;
  send: () => Promise<Executed<T>>;
  /** The write as the broker's books show it (pending, triggered, order book), or undefined if they do not. */
  adopt: () => Promise<Executed<T> | undefined>;
}

/**
 * The journal as the order core uses it: one per operation (a key is that operation's). On DynamoDB in the deployment
 * (`DynamoOrderJournal`, journal-dynamo.ts), in memory in the tests (`MemoryOrderJournal`,
 * test/support/memory-journal.ts): both are this file's `StoredOrderJournal` on a store of their own (journal-store.ts).
 */
export interface OrderJournal {
  /** Runs the write once per key (module comment): a replay, an adoption, a refusal, or this request's send. */
  run<T>(key: string, input: unknown, write: JournaledWrite<T>): Promise<JournalRun<T>>;
  /** The order a stamped write placed and the gateway's kill switch cancelled since (gone.ts), if any. */
  goneOrder(stamp: string): Promise<string | undefined>;
  /** Records, before a change of order `alId` is sent, the stamp it carries (moves.ts); `by`: the change's stamp. */
  recordMove(stamp: string, alId: string, by: string | undefined): Promise<void>;
  /** Where a stamp was seen before a change through the gateway replaced it, if one did. */
  findMove(stamp: string): Promise<StampMove | undefined>;
  /** The stamp a keyed change (its stamp `by`) saw on its order right before it was sent, if any. */
  findSeen(by: string): Promise<string | undefined>;
}

export interface JournalRules {
  /** How long after a send's deadline the broker may still act on it (docs/explanation/order-safety.md, "The late window"). */
  lateWindowMs: number;
  /** The clock (ms); a test's fake one. */
  now?: (() => number) | undefined;
}

/** The journal's decisions (module comment) on a store that keeps its entries (journal-store.ts). */
export class StoredOrderJournal implements OrderJournal {
  private readonly now: () => number;

  constructor(
    private readonly store: JournalStore,
    private readonly rules: JournalRules,
  ) {
    this.now = rules.now ?? Date.now;
  }

  /** Runs the write once per key (module comment): a replay, an adoption, a refusal, or this request's send. */
  async run<T>(key: string, input: unknown, write: JournaledWrite<T>): Promise<JournalRun<T>> {
    const validation = md5(JSON.stringify(deepSort(canonicalNumbers(input))));
    let claimed = await this.claim(key, validation, write, 1);
    while ('entry' in claimed) {
      const { entry } = claimed;
      if (entry.validation !== undefined && entry.validation !== validation)
        throw new IdempotencyKeyReusedError(
          `Idempotency key "${key}" was already used with a different request body; use a new key for a new order.`,
          { outcome: 'not_executed' },
        );
      if (entry.status === 'COMPLETED') return this.replay<T>(key, entry);
      const now = this.now();
      if (entry.status === 'INPROGRESS' && entry.inProgressUntil > now)
        throw this.inProgress(key, entry.inProgressUntil, 'is still in flight');
      // Its sender is gone (or told the caller the outcome is unknown): the broker's books decide.
      // A read of the books that fails leaves it unknown, and is answered so (books-unread.ts).
      const found = entry.stamp === undefined ? undefined : await readBooks(key, entry, write.adopt);
      if (found) {
        await this.complete(key, entry.attempt, { kind: 'ok', result: found.result }, found.events);
        return { result: found.result, replayed: true, adopted: true, events: found.events ?? [] };
      }
      if (entry.stamp === undefined || entry.landBy > now) {
        if (entry.status === 'UNKNOWN' && entry.data?.kind === 'unknown') {
          const error = errorFromBody(entry.data.error);
          error.message = `Replay of idempotency key "${key}": the first attempt's outcome is unknown${
            entry.stamp === undefined
              ? ' and it carries no stamp to find it by (its tag leaves no room): check the pending orders (GET /gtt-orders) before sending it again with a new key'
              : ` and the broker does not show it yet; it may still arrive until ${new Date(entry.landBy).toISOString()}, after which a retry with this key finds it or sends it once more`
          }. ${error.message}`;
          throw error;
        }
        if (entry.stamp === undefined)
          // Its sender stopped before recording anything (killed), and nothing names its order at the broker.
          throw new InternalError(
            `The first attempt with idempotency key "${key}" stopped before its outcome was recorded, and it carries no stamp to find it by (its tag leaves no room): check the pending orders (GET /gtt-orders) before sending it again with a new key.`,
            { outcome: 'unknown' },
          );
        throw this.inProgress(key, entry.landBy, 'may still reach the broker');
      }
      // Not in the books, and it can no longer land: this request takes the write over (one taker per attempt).
      claimed = await this.claim(key, validation, write, entry.attempt + 1, entry.attempt);
    }
    return this.send(key, write, claimed.attempt);
  }

  /**
   * Claims attempt `attempt` of the key's write: a new entry, or (`over`) the entry of attempt `over` taken over.
   * `{attempt}` when this request holds the claim; the entry as it is when another holds it.
   */
  private async claim<T>(
    key: string,
    validation: string,
    write: JournaledWrite<T>,
    attempt: number,
    over?: number,
  ): Promise<{ attempt: number } | { entry: Entry }> {
    const claimed = await this.store.claim(
      key,
      {
        validation,
        inProgressUntil: write.deadline,
        landBy: write.deadline + this.rules.lateWindowMs,
        attempt,
        stamp: write.stamp || undefined,
      },
      over,
      this.now(),
    );
    if (claimed.claimed) return { attempt };
    const { entry } = claimed;
    // Removed meanwhile (its send was certainly not executed): the key is free again.
    if (!entry) return this.claim(key, validation, write, 1);
    // Taken over by another request meanwhile: it is in flight now.
    if (over !== undefined && entry.attempt !== over && entry.status === 'INPROGRESS')
      throw this.inProgress(key, entry.inProgressUntil, 'is being sent again by another request');
    return { entry };
  }

  private async send<T>(key: string, write: JournaledWrite<T>, attempt: number): Promise<JournalRun<T>> {
    let executed: Executed<T>;
    try {
      executed = await write.send();
    } catch (thrown) {
      throw await this.failed(key, attempt, thrown);
    }
    // The record completed and the success checked in one round trip (a check that fails rewrites the record).
    const [completed, landed] = await Promise.allSettled([
      this.complete(key, attempt, { kind: 'ok', result: executed.result }, executed.events),
      executed.landed,
    ]);
    const undo = landed.status === 'fulfilled' ? landed.value : undefined;
    if (undo) {
      try {
        await undo(completed.status === 'fulfilled' && (executed.events?.length ?? 0) > 0);
      } catch (thrown) {
        throw await this.failed(key, attempt, thrown);
      }
    }
    if (completed.status === 'rejected') throw completed.reason;
    return { result: executed.result, replayed: false, events: executed.events ?? [] };
  }

  /** Records what a failed send (or an undone success) means for the key, and answers the error to throw. */
  private async failed(key: string, attempt: number, thrown: unknown): Promise<GatewayError> {
    const error = toGatewayError(thrown);
    if (error.outcome === 'unknown') {
      // The send has ended (our client gave up or lost the reply): the broker may act until the late window ends.
      await this.store
        .finish(
          key,
          attempt,
          'UNKNOWN',
          { kind: 'unknown', error: error.toBody() },
          this.now() + this.rules.lateWindowMs,
        )
        .catch(() => undefined);
    } else if (error.outcome === 'undone' || error.outcome === 'executed') {
      // It landed and the gateway undid it at once (the kill switch went on meanwhile, an OCO held otherwise than
      // asked), or failed to undo it (still live): replayed as it is, never sent again.
      await this.store
        .finish(key, attempt, 'COMPLETED', { kind: 'refused', error: error.toBody() })
        .catch(() => undefined);
    } else {
      // Certainly not executed: the key is free again.
      await this.store.release(key, attempt).catch(() => undefined);
    }
    return error;
  }

  private async complete(
    key: string,
    attempt: number,
    stored: Stored & { kind: 'ok' },
    events: readonly LifecycleEvent[] | undefined,
  ): Promise<void> {
    const data: Stored = {
      kind: 'ok',
      result: redactDeep(stored.result),
      ...(events?.length ? { outbox: redactDeep([...events]) } : {}),
    };
    try {
      await this.store.finish(key, attempt, 'COMPLETED', data);
    } catch (error) {
      throw new InternalError(
        `The broker call completed but its idempotency record for key "${key}" could not be saved; check the pending orders (GET /gtt-orders) before retrying.`,
        { cause: error, outcome: 'unknown' },
      );
    }
  }

  private replay<T>(key: string, entry: Entry): JournalRun<T> {
    const data = entry.data;
    if (data?.kind === 'ok') return { result: data.result as T, replayed: true, events: [] };
    if (data) {
      const error = errorFromBody(data.error);
      error.message = `Replay of idempotency key "${key}": ${error.message}`;
      throw error;
    }
    throw new InternalError(`The record of idempotency key "${key}" holds no result; check the pending orders.`, {
      outcome: 'unknown',
    });
  }

  goneOrder(stamp: string): Promise<string | undefined> {
    return this.store.findGone(stamp);
  }

  recordMove(stamp: string, alId: string, by: string | undefined): Promise<void> {
    return this.store.recordMove(stamp, alId, by);
  }

  findMove(stamp: string): Promise<StampMove | undefined> {
    return this.store.findMove(stamp);
  }

  findSeen(by: string): Promise<string | undefined> {
    return this.store.findSeen(by);
  }

  private inProgress(key: string, until: number, what: string): GatewayError {
    const retryAfterSeconds = Math.max(1, Math.ceil((until - this.now()) / 1_000));
    return new IdempotencyInProgressError(
      `The request with idempotency key "${key}" ${what}; retry after ${retryAfterSeconds} s to get its result (nothing is sent twice).`,
      { outcome: 'not_executed', details: { retryAfterSeconds, until: new Date(until).toISOString() } },
    );
  }
}
