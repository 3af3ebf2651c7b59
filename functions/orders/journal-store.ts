/**
 * What the journal of broker writes (journal.ts) keeps, apart from what it decides: its persistence layer. One entry
 * per key of an operation, every change of it conditional (a claim only of a free key or of the attempt it saw, an
 * outcome only while the entry is still its attempt's), so two requests never both hold a write; and, beside the
 * entries, the records of stamps (moves.ts: where a change's replaced stamp went; gone.ts: what the kill switch's sweep
 * cancelled). In the deployment DynamoDB keeps them (journal-dynamo.ts, one item each in the idempotency table); the
 * tests keep them in memory (test/support/memory-journal.ts). Both pass one contract suite
 * (test/contract/journal-contract.test.ts).
 */
import type { Entry, Stored } from './journal-entry.js';
import type { StampMove } from './moves.js';

/** A key's write as claimed, in flight (`INPROGRESS`) until its outcome is written. */
export interface Claim {
  /** The hash of the request the key stands for (journal.ts: the same key with another body is refused). */
  validation: string;
  /** The sender's deadline (ms): past it, the sender is gone. */
  inProgressUntil: number;
  /** Until when the write may still land at the broker (ms): its deadline plus the late window. */
  landBy: number;
  attempt: number;
  /** The stamp the broker keeps with the write, when there is room for one. */
  stamp?: string | undefined;
}

/** The claim was written, or (not) the entry as it is now: undefined when there is none (removed meanwhile). */
export type Claimed = { claimed: true } | { claimed: false; entry: Entry | undefined };

export interface JournalStore {
  /**
   * Writes `claim` as the key's entry if the key is free (`over` undefined: no entry, or one past its time to live at
   * `now`) or its entry is still attempt `over`'s (`0`: an entry without attempts, written before this journal).
   * Throws INTERNAL_ERROR (not executed) when the store cannot be reached.
   */
  claim(key: string, claim: Claim, over: number | undefined, now: number): Promise<Claimed>;
  /**
   * The attempt's outcome, written only while the entry is still that attempt's (another request that took the
   * write over has its own outcome to write); `landBy` moves the entry's bound (an outcome left unknown).
   */
  finish(key: string, attempt: number, status: Entry['status'], data: Stored, landBy?: number): Promise<void>;
  /** Removes the entry while it is still the attempt's: the write was certainly not executed, the key is free. */
  release(key: string, attempt: number): Promise<void>;
  /** Records, before a change of order `alId` is sent, the stamp it carries (moves.ts); `by`: the change's stamp. */
  recordMove(stamp: string, alId: string, by: string | undefined): Promise<void>;
  /** Where a stamp was seen before a change through the gateway replaced it, if one did. */
  findMove(stamp: string): Promise<StampMove | undefined>;
  /** The stamp a keyed change (its stamp `by`) saw on its order right before it was sent, if any. */
  findSeen(by: string): Promise<string | undefined>;
  /** The order a stamped write placed and the kill switch's sweep cancelled since (gone.ts), if any. */
  findGone(stamp: string): Promise<string | undefined>;
}
