/**
 * One page of a list read as it arrives (`limit`, and `cursor` after the first page: base/schemas/paging.ts): the
 * broker has no paging and no read by id, so a page read from the broker reads the whole list (a walk's later pages are
 * cut from the snapshot its first page kept, when the container holds it: page-snapshots.ts), but only the page's
 * records are read in their dialect, checked and normalised. Each record is parsed (JSON.parse of its text) for its
 * al_id and, when the page asks for them, its `tsym` and `exch`; a record before the cursor's position, or not of the
 * filters, is dropped at once, and of the rest only the `limit + 1` first in the page's order (al_id, then list order)
 * are kept (and those with the cursor's own al_id that earlier pages listed, for `pageOf` to skip), in a bounded heap.
 * At the end those are decoded and `pageOf` cuts the page from them exactly as from the whole list (the one more says
 * whether a `nextCursor` follows). So a page holds at most `limit + 1` records, whatever the list's length, and costs
 * one parse per record plus the decoding of its own.
 *
 * What is not checked: a record outside the page is not read in its dialect nor checked by the record schema, so a
 * malformed record fails the pages it is on (BROKER_BAD_REPLY), not every page. A record without a usable al_id fails
 * every page (it cannot be placed in the order).
 */
import { compareIds, decodeCursor } from '../schemas/paging.js';
import { isRecord } from '../schemas/values.js';

/** A paged read's input: `limit` (with the default the schema gave), `cursor`, and the pending list's filters. */
interface PageInput {
  limit?: number;
  cursor?: string;
  tsym?: string;
  exch?: string;
}

/** Whether a read is of one page (the GttWatcher's reads take no `limit`: they want the whole list). */
export const isPageRead = (input: unknown): input is PageInput =>
  isRecord(input) && typeof input.limit === 'number' && Number.isInteger(input.limit) && input.limit > 0;

/** A field of a raw record in any key case (the dialects differ in case only: dialects.ts). */
export const fieldOf = (record: Record<string, unknown>, key: string): unknown => {
  if (key in record) return record[key];
  for (const k of Object.keys(record)) if (k.toLowerCase() === key) return record[k];
  return undefined;
};

/** A record's al_id as text (a whole number as its digits), or undefined. */
export const rawIdOf = (record: unknown): string | undefined => {
  if (!isRecord(record)) return undefined;
  const value = fieldOf(record, 'al_id');
  if (typeof value === 'string') return value;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
};

interface Candidate {
  id: string;
  index: number;
  record: unknown;
}

const before = (a: Candidate, b: Candidate) => compareIds(a.id, b.id) || a.index - b.index;

/**
 * Keeps the `size` first candidates (by `before`) of those offered: a max-heap, so each offer costs log(size).
 * `first()` gives them in order.
 */
class FirstOf {
  private readonly heap: Candidate[] = [];
  constructor(private readonly size: number) {}

  offer(c: Candidate): void {
    const heap = this.heap;
    if (heap.length < this.size) {
      heap.push(c);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (before(heap[parent]!, heap[i]!) >= 0) break;
        [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
        i = parent;
      }
      return;
    }
    if (before(c, heap[0]!) >= 0) return;
    heap[0] = c;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let largest = i;
      if (l < heap.length && before(heap[l]!, heap[largest]!) > 0) largest = l;
      if (r < heap.length && before(heap[r]!, heap[largest]!) > 0) largest = r;
      if (largest === i) break;
      [heap[largest], heap[i]] = [heap[i]!, heap[largest]!];
      i = largest;
    }
  }

  first(): Candidate[] {
    return [...this.heap].sort(before);
  }
}

/**
 * The records of one page as they arrive: `offer` each parsed record, then `records()` gives the page's records (at
 * most `limit + 1`, in list order as they came) for the operation's decoding and `pageOf`; `unplaced` counts the
 * records without a usable al_id.
 */
export class PageRecords {
  private readonly kept: FirstOf;
  private readonly after: string | undefined;
  unplaced = 0;

  /** The input's cursor was checked against its list by the operation's input schema. */
  constructor(private readonly input: PageInput) {
    const position = input.cursor === undefined ? undefined : decodeCursor(input.cursor, undefined);
    // The input schema refused a bad cursor already: a position that is not one here reads from the start.
    this.after = typeof position === 'object' ? position.after : undefined;
    // Records with the cursor's own al_id are kept, the `seen` first of them too: `pageOf` skips those as it does in
    // the whole list (they come in list order, which the sort keeps).
    this.kept = new FirstOf((input.limit ?? 1) + 1 + (typeof position === 'object' ? position.seen : 0));
  }

  offer(record: unknown, index: number): void {
    const id = rawIdOf(record);
    if (id === undefined) {
      this.unplaced++;
      return;
    }
    const rec = record as Record<string, unknown>;
    if (this.input.tsym !== undefined && fieldOf(rec, 'tsym') !== this.input.tsym) return;
    if (this.input.exch !== undefined && fieldOf(rec, 'exch') !== this.input.exch) return;
    if (this.after !== undefined && compareIds(id, this.after) < 0) return;
    this.kept.offer({ id, index, record });
  }

  /** The page's records (and one more, when there is one, and the cursor's own), in the list's order. */
  records(): unknown[] {
    return this.kept
      .first()
      .sort((a, b) => a.index - b.index)
      .map((c) => c.record);
  }
}
