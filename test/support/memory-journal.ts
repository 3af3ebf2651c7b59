/**
 * The journal of broker writes in memory, for tests of the order core without a database: the journal's own
 * decisions (functions/orders/journal.ts, `StoredOrderJournal`, unchanged) on a store that keeps its entries in maps
 * with the conditions of the DynamoDB store (functions/orders/journal-store.ts says them): a claim only of a free key
 * (none, or past its time to live) or of the attempt it saw, an outcome or a removal only while the entry is still its
 * attempt's. Each call reads and writes with no await in between, so a condition holds as DynamoDB's does.
 * test/contract/journal-contract.test.ts runs the same cases against it and against the DynamoDB journal on dynalite.
 *
 * One `MemoryJournalTable` is the idempotency table: journals of several operations (a place, its modify) and the
 * kill switch's sweep (`recordGone`) share it, as they share the table deployed.
 */
import { InternalError } from '../../functions/base/contract/errors.js';
import { StoredOrderJournal } from '../../functions/orders/journal.js';
import type { Entry, Stored } from '../../functions/orders/journal-entry.js';
import type { Claim, Claimed, JournalStore } from '../../functions/orders/journal-store.js';
import type { StampMove } from '../../functions/orders/moves.js';

/** The idempotency table in memory: the entries of every operation's keys, and the records of stamps. */
export class MemoryJournalTable {
  /** By operation and key: the entry and its time to live (epoch seconds). */
  readonly entries = new Map<string, { entry: Entry; expiration: number }>();
  readonly moves = new Map<string, { alId: string; seenBy: Set<string> }>();
  /** By a keyed change's stamp: the stamp it saw on its order before it was sent. */
  readonly seen = new Map<string, string>();
  readonly gone = new Map<string, string>();
  /** While true every call fails as an unreachable table does (INTERNAL_ERROR, not executed, where it is read). */
  unavailable = false;

  /** What the kill switch's sweep records when it cancels a stamped order (functions/orders/gone.ts). */
  recordGone(stamp: string, alId: string): void {
    this.gone.set(stamp, alId);
  }

  /** Throws as an unreachable table does. */
  reach(): void {
    if (this.unavailable)
      throw new InternalError('The idempotency store is unavailable; nothing was sent to the broker.', {
        cause: new Error('the memory journal table is set unavailable'),
        outcome: 'not_executed',
      });
  }
}

/** A document as a table keeps it: a copy, so neither the writer nor a reader changes what is stored. */
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** One operation's entries (and every operation's records of stamps) in a `MemoryJournalTable`. */
export class MemoryJournalStore implements JournalStore {
  constructor(
    private readonly operation: string,
    private readonly table: MemoryJournalTable,
    private readonly ttlSeconds: number,
  ) {}

  private id(key: string): string {
    return `${this.operation}#${key}`;
  }

  async claim(key: string, claim: Claim, over: number | undefined, now: number): Promise<Claimed> {
    this.table.reach();
    const id = this.id(key);
    const current = this.table.entries.get(id);
    const seconds = Math.floor(now / 1000);
    const free =
      over === undefined ? current === undefined || current.expiration < seconds : current?.entry.attempt === over;
    if (!free) return { claimed: false, entry: current && copy(current.entry) };
    const entry: Entry = {
      status: 'INPROGRESS',
      validation: claim.validation,
      inProgressUntil: claim.inProgressUntil,
      landBy: claim.landBy,
      attempt: claim.attempt,
      ...(claim.stamp ? { stamp: claim.stamp } : {}),
    };
    this.table.entries.set(id, { entry, expiration: seconds + this.ttlSeconds });
    return { claimed: true };
  }

  async finish(key: string, attempt: number, status: Entry['status'], data: Stored, landBy?: number): Promise<void> {
    this.table.reach();
    const current = this.table.entries.get(this.id(key));
    // Another request took the write over: its outcome is the one recorded.
    if (current?.entry.attempt === attempt)
      current.entry = { ...current.entry, status, data: copy(data), ...(landBy === undefined ? {} : { landBy }) };
  }

  async release(key: string, attempt: number): Promise<void> {
    this.table.reach();
    const id = this.id(key);
    if (this.table.entries.get(id)?.entry.attempt === attempt) this.table.entries.delete(id);
  }

  async recordMove(stamp: string, alId: string, by: string | undefined): Promise<void> {
    this.table.reach();
    const move = this.table.moves.get(stamp) ?? { alId, seenBy: new Set<string>() };
    move.alId = alId;
    if (by !== undefined) {
      move.seenBy.add(by);
      this.table.seen.set(by, stamp);
    }
    this.table.moves.set(stamp, move);
  }

  async findMove(stamp: string): Promise<StampMove | undefined> {
    this.table.reach();
    const move = this.table.moves.get(stamp);
    return move && { alId: move.alId, seenBy: [...move.seenBy] };
  }

  async findSeen(by: string): Promise<string | undefined> {
    this.table.reach();
    return this.table.seen.get(by);
  }

  async findGone(stamp: string): Promise<string | undefined> {
    this.table.reach();
    return this.table.gone.get(stamp);
  }
}

export interface MemoryJournalOptions {
  /** How long after a send's deadline the broker may still act on it. */
  lateWindowMs: number;
  /** How long a key is kept (the table's time to live); a day unless said. */
  ttlSeconds?: number;
  /** The clock (ms): a test's fake one. */
  now?: () => number;
  /** The table it shares with other operations' journals; a new one unless given. */
  table?: MemoryJournalTable;
}

/** The journal of one operation's writes in memory: the order core's `OrderJournal` without a database. */
export class MemoryOrderJournal extends StoredOrderJournal {
  readonly table: MemoryJournalTable;

  constructor(operation: string, options: MemoryJournalOptions) {
    const table = options.table ?? new MemoryJournalTable();
    super(new MemoryJournalStore(operation, table, options.ttlSeconds ?? 86_400), {
      lateWindowMs: options.lateWindowMs,
      now: options.now,
    });
    this.table = table;
  }
}
