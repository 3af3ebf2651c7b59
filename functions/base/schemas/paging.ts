/**
 * Pages of a list (the pending orders, the triggered history): `limit` and an opaque `cursor` in, `nextCursor` out
 * while more remain.
 *
 * The broker has no paging: the gateway reads the whole list and cuts a page out of it. Orders are sorted by
 * `al_id` (numerically: the broker's ids are digit strings that grow), and the cursor says where the last page
 * ended (the last `al_id` and how many records with that id were listed), not an offset, and which snapshot of the
 * list its walk reads (base/broker/page-snapshots.ts: the later pages of a walk show the list as its first page read
 * it). A page that finds no snapshot reads the broker, and a page sequence still lists every order that stays
 * pending throughout exactly once, whatever is placed or cancelled between pages: an order cancelled before its page
 * is not listed, one placed meanwhile is listed if its id sorts after the cursor (a new order's id does, so it
 * appears on a later page), and nothing shifts or repeats.
 *
 * Sizes: an order is about 600 bytes of JSON, so the default page (100) is about 60 KB and the largest (1,000)
 * about 600 KB, a tenth of Lambda's 6 MB response limit. Whatever the records hold, a page also stops before its
 * orders pass PAGE_BYTES (4 MB: the HTTP body is a JSON string inside Lambda's response, so its quotes are escaped
 * again), with `nextCursor` for the rest: no page can be a reply Lambda or API Gateway refuses.
 */
import * as z from 'zod';

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1_000;
/** The most a page's orders may weigh as JSON (at least one order is listed, whatever its size). */
export const PAGE_BYTES = 4 * 1024 * 1024;

/**
 * What a cursor says: which list, the last al_id listed, how many records with that al_id were listed, and the
 * snapshot of the list its walk reads (base/broker/page-snapshots.ts), when one was kept.
 */
interface Position {
  list: string;
  after: string;
  seen: number;
  snapshot?: string;
}

const ID = /^[0-9A-Za-z_-]{1,40}$/;

const SNAPSHOT_ID = /^[A-Za-z0-9_-]{8,24}$/;

export const encodeCursor = (position: Position): string =>
  Buffer.from(
    JSON.stringify([
      1,
      position.list,
      position.after,
      position.seen,
      ...(position.snapshot === undefined ? [] : [position.snapshot]),
    ]),
  ).toString('base64url');

/** The same position, read from the snapshot `snapshot` (a cursor this module wrote: anything else is unchanged). */
export const withSnapshot = (cursor: string, snapshot: string): string => {
  const position = decodeCursor(cursor, undefined);
  return typeof position === 'string' ? cursor : encodeCursor({ ...position, snapshot });
};

/** The position a cursor names, or a sentence saying why it is not one (`list` undefined: of whichever list). */
export const decodeCursor = (cursor: string, list: string | undefined): Position | string => {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return 'cursor must be a nextCursor from an earlier page of this list';
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return 'cursor is not a cursor of this API: pass nextCursor from an earlier page unchanged';
  }
  if (
    !Array.isArray(parsed) ||
    (parsed.length !== 4 && !(parsed.length === 5 && typeof parsed[4] === 'string' && SNAPSHOT_ID.test(parsed[4]))) ||
    parsed[0] !== 1 ||
    typeof parsed[1] !== 'string' ||
    typeof parsed[2] !== 'string' ||
    !ID.test(parsed[2]) ||
    !Number.isInteger(parsed[3]) ||
    (parsed[3] as number) < 1
  ) {
    return 'cursor is not a cursor of this API: pass nextCursor from an earlier page unchanged';
  }
  if (list !== undefined && parsed[1] !== list) return `cursor belongs to another list (${parsed[1]}), not ${list}`;
  const position: Position = { list: parsed[1], after: parsed[2], seen: parsed[3] as number };
  if (parsed.length === 5) position.snapshot = parsed[4] as string;
  return position;
};

/** Numeric order for digit strings (shorter first), then plain string order. */
export const compareIds = (a: string, b: string): number =>
  a.length !== b.length && /^\d+$/.test(a) && /^\d+$/.test(b) ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;

const LIMIT_ERROR = `limit must be a whole number from 1 to ${MAX_PAGE_LIMIT}`;

/**
 * A page's `limit`: a whole number, or its plain decimal digits as a query parameter is. Strict: `0x10`, `1e2`,
 * ` 16` or `16.0` are refused, never read as another number.
 */
export const pageLimit = () =>
  z
    .preprocess(
      (value) => (typeof value === 'string' ? (/^\d{1,7}$/.test(value) ? Number(value) : Number.NaN) : value),
      z
        .number({ error: LIMIT_ERROR })
        .int({ error: LIMIT_ERROR })
        .min(1, { error: LIMIT_ERROR })
        .max(MAX_PAGE_LIMIT, { error: LIMIT_ERROR }),
    )
    .default(DEFAULT_PAGE_LIMIT);

/** `limit` and `cursor` of one list, as query parameters (strings) or direct-invocation fields (a number works too). */
export const pageFields = (list: string) => ({
  limit: pageLimit(),
  cursor: z
    .string({ error: 'cursor must be a string (nextCursor from an earlier page)' })
    .superRefine((value, ctx) => {
      const position = decodeCursor(value, list);
      if (typeof position === 'string') ctx.addIssue({ code: 'custom', message: position });
    })
    .optional(),
});

/**
 * One page of `items` (already filtered): sorted by al_id, from the cursor on, at most `limit`. A `limit` of
 * undefined takes every item (the GttWatcher reads whole lists through the same operations).
 */
export const pageOf = <T extends { al_id: string }>(
  items: readonly T[],
  list: string,
  input: { limit?: number | undefined; cursor?: string | undefined },
): { orders: T[]; nextCursor?: string } => {
  const sorted = items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => compareIds(a.item.al_id, b.item.al_id) || a.index - b.index)
    .map((x) => x.item);
  let start = 0;
  if (input.cursor) {
    const position = decodeCursor(input.cursor, list);
    if (typeof position === 'string') throw new Error(position); // the input schema refused it already
    while (start < sorted.length && compareIds(sorted[start]!.al_id, position.after) < 0) start++;
    let same = 0;
    while (start < sorted.length && same < position.seen && sorted[start]!.al_id === position.after) {
      start++;
      same++;
    }
  }
  if (input.limit === undefined) return { orders: sorted.slice(start) };
  let end = start;
  for (let bytes = 0; end < sorted.length && end - start < input.limit; end++) {
    bytes += Buffer.byteLength(JSON.stringify(sorted[end]));
    if (bytes > PAGE_BYTES && end > start) break;
  }
  const orders = sorted.slice(start, end);
  if (start + orders.length >= sorted.length || !orders.length) return { orders };
  const last = orders.at(-1)!.al_id;
  let seen = 0;
  for (let i = start + orders.length - 1; i >= 0 && sorted[i]!.al_id === last; i--) seen++;
  return { orders, nextCursor: encodeCursor({ list, after: last, seen }) };
};
