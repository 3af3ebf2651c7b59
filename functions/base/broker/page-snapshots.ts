/**
 * A walk of a long list reads the broker once. The broker has no paging, so a page read from the broker reads the
 * whole list (page-records.ts); walking every page of 50,000 orders that way re-read and re-parsed the list 500
 * times. So a page read from the broker keeps the list's records (their texts as the broker sent them, sorted in
 * the pages' order) in this container's memory, and its `nextCursor` names that snapshot: the walk's next pages are
 * cut from it, with no broker call, for SNAPSHOT_TTL_MS after the broker's read. Every page of one walk then shows
 * the list as the broker answered at that read (`asOf`), a consistent view: nothing twice, nothing skipped.
 *
 * A snapshot is found only where it was made and while it is young: a page whose cursor names a snapshot this
 * container does not hold (another container, a cold start, an expired or evicted one, another session) reads the
 * broker as any page did, and keeps a new snapshot from there. Answers stay right either way; only the cost differs.
 *
 * Memory: a record's text (about 460 bytes) and a small entry, so 100,000 orders is about 55 MB; at most
 * MAX_HELD_BYTES are held (the oldest dropped first). A snapshot is kept only for a list longer than its page.
 * What identifies the session is a hash of its token: the token itself is never kept here.
 */
import { createHash, randomBytes } from 'node:crypto';

import type { AnyOperation } from '../contract/operation.js';
import { decodeCursor, withSnapshot } from '../schemas/paging.js';
import { isRecord } from '../schemas/values.js';
import { fieldOf, isPageRead, rawIdOf } from './page-records.js';
import type { BrokerSession } from './session.js';
import type { RecordSink } from './transport.js';

/** How long a walk's later pages read its snapshot (then the broker again). */
export const SNAPSHOT_TTL_MS = 120_000;
/** The most this container holds in snapshots (the list functions have 512 MB). */
export const MAX_HELD_BYTES = 96 * 1024 * 1024;
/** What an entry costs beside its text (object, id, filters), for the budget. */
const ENTRY_BYTES = 120;

interface Entry {
  id: string;
  /** Whether `id` is all digits (the broker's ids: they compare by length first, paging.ts's compareIds). */
  digits: boolean;
  index: number;
  text: string;
  tsym: unknown;
  exch: unknown;
}

interface Snapshot {
  id: string;
  operation: string;
  session: string;
  takenAt: number;
  bytes: number;
  /** In the pages' order: al_id, then list order. */
  entries: Entry[];
}

/** A page read from a snapshot: its records (parsed, with their list indexes) and the snapshot's id and time. */
export interface HeldPage {
  records: { record: unknown; index: number; text: string }[];
  snapshot: string;
  takenAt: number;
}

const held = new Map<string, Snapshot>();

/** paging.ts's compareIds, on entries whose digit-ness is known (no regex per comparison). */
const compareEntries = (a: Entry, b: Entry): number => {
  if (a.id.length !== b.id.length && a.digits && b.digits) return a.id.length - b.id.length || a.index - b.index;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : a.index - b.index;
};

const DIGITS = /^\d+$/;

const sessionKey = (session: BrokerSession): string =>
  createHash('sha256').update(`${session.uid}\n${session.accessToken}`).digest('base64url').slice(0, 22);

const pageInput = (input: unknown) =>
  isPageRead(input) ? (input as { limit: number; cursor?: string; tsym?: string; exch?: string }) : undefined;

/**
 * The page `input` asks for, cut from the snapshot its cursor names, or undefined (not a later page of a walk, or
 * the snapshot is not here, not of this operation and session, or too old): then the broker is read.
 */
export const heldPage = (
  operation: AnyOperation,
  input: unknown,
  session: BrokerSession,
  now = Date.now(),
): HeldPage | undefined => {
  const page = pageInput(input);
  if (page?.cursor === undefined) return undefined;
  const position = decodeCursor(page.cursor, undefined);
  if (typeof position === 'string' || position.snapshot === undefined) return undefined;
  const snapshot = held.get(position.snapshot);
  if (!snapshot || snapshot.operation !== operation.name || snapshot.session !== sessionKey(session)) return undefined;
  if (now - snapshot.takenAt >= SNAPSHOT_TTL_MS || now < snapshot.takenAt) {
    held.delete(snapshot.id);
    return undefined;
  }
  const entries = snapshot.entries;
  // The first entry at or after the cursor's al_id: what page-records.ts keeps of a whole read, found by bisection.
  const after: Entry = {
    id: position.after,
    digits: DIGITS.test(position.after),
    index: -1,
    text: '',
    tsym: 0,
    exch: 0,
  };
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareEntries(entries[mid]!, after) < 0) lo = mid + 1;
    else hi = mid;
  }
  // As page-records.ts keeps: the limit, one more (is there a next page?) and those of the cursor's al_id listed.
  const wanted = page.limit + 1 + position.seen;
  const records: HeldPage['records'] = [];
  for (let i = lo; i < entries.length && records.length < wanted; i++) {
    const entry = entries[i]!;
    if (page.tsym !== undefined && entry.tsym !== page.tsym) continue;
    if (page.exch !== undefined && entry.exch !== page.exch) continue;
    records.push({ record: JSON.parse(entry.text) as unknown, index: entry.index, text: entry.text });
  }
  return { records, snapshot: snapshot.id, takenAt: snapshot.takenAt };
};

/**
 * Keeps the records of a page read from the broker as they arrive (`sink` wraps the page's own), then `keep` holds
 * them if the answer has a next page, and names the snapshot in its cursor. Undefined for anything but a page read.
 */
export const snapshotOf = (operation: AnyOperation, input: unknown, session: BrokerSession, now = Date.now()) => {
  if (!pageInput(input)) return undefined;
  let entries: Entry[] | undefined = [];
  let bytes = 0;
  return {
    sink:
      (inner: RecordSink): RecordSink =>
      (record, index, text) => {
        inner(record, index, text);
        if (!entries) return;
        const id = rawIdOf(record);
        // A record without an al_id fails every page: nothing to keep.
        if (id === undefined || !isRecord(record)) {
          entries = undefined;
          return;
        }
        // A small list is parsed whole (the transport gives no texts then): its records are written back.
        const own = text || JSON.stringify(record);
        bytes += own.length + ENTRY_BYTES;
        if (bytes > MAX_HELD_BYTES) {
          entries = undefined;
          return;
        }
        const tsym = fieldOf(record, 'tsym');
        const exch = fieldOf(record, 'exch');
        entries.push({ id, digits: DIGITS.test(id), index, text: own, tsym, exch });
      },
    keep: (result: unknown): unknown => {
      if (!isRecord(result)) return result;
      const asOf = new Date(now).toISOString();
      if (typeof result.nextCursor !== 'string' || !entries) return { ...result, asOf };
      const snapshot: Snapshot = {
        id: randomBytes(12).toString('base64url'),
        operation: operation.name,
        session: sessionKey(session),
        takenAt: now,
        bytes,
        entries: entries.sort(compareEntries),
      };
      entries = undefined;
      hold(snapshot, now);
      return { ...result, nextCursor: withSnapshot(result.nextCursor, snapshot.id), asOf };
    },
  };
};

/** The answer of a page cut from a snapshot: its cursor names the snapshot again, `asOf` is the broker's read. */
export const fromSnapshot = (page: HeldPage, result: unknown): unknown => {
  if (!isRecord(result)) return result;
  const asOf = new Date(page.takenAt).toISOString();
  return typeof result.nextCursor === 'string'
    ? { ...result, nextCursor: withSnapshot(result.nextCursor, page.snapshot), asOf }
    : { ...result, asOf };
};

const hold = (snapshot: Snapshot, now: number) => {
  for (const old of held.values()) if (now - old.takenAt >= SNAPSHOT_TTL_MS) held.delete(old.id);
  held.set(snapshot.id, snapshot);
  let total = 0;
  for (const s of held.values()) total += s.bytes;
  for (const old of held.values()) {
    if (total <= MAX_HELD_BYTES || old === snapshot) break;
    held.delete(old.id);
    total -= old.bytes;
  }
};

/** Forgets every snapshot (a container's cold start, for tests: later pages then read the broker). */
export const dropPageSnapshots = (): void => held.clear();

/** How many snapshots this container holds, and their bytes (tests and the bench). */
export const heldSnapshots = (): { count: number; bytes: number } => {
  let bytes = 0;
  for (const s of held.values()) bytes += s.bytes;
  return { count: held.size, bytes };
};
