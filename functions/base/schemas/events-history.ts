/**
 * `GET /events` (and `gtt events`): the account's recent lifecycle events, oldest first, paged. `since` is an ISO
 * time (default: the start of today in India time), `type` one detail-type, `limit`/`cursor` as the other lists.
 */
import * as z from 'zod';

import { DETAIL_TYPES } from './event-types.js';
import { pageLimit } from './paging.js';

const SINCE_ERROR = 'since must be an ISO time, e.g. 2026-11-24T09:15:00+05:30';
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)?)?$/;

/** An ISO time whose date exists: `2026-02-30` is refused, never read as 2 March. */
const isIsoTime = (value: string): boolean => {
  const m = ISO_TIME.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    !Number.isNaN(Date.parse(value))
  );
};

/** How long the history keeps an event (the archive on the bus keeps the same 30 days for replay). */
export const HISTORY_DAYS = 30;

/** 00:00 India time (UTC+05:30, no daylight saving) of the day `now` falls on, as an ISO time. */
export const startOfIndiaDay = (now: Date): string => {
  const offsetMs = 330 * 60_000;
  const local = new Date(now.getTime() + offsetMs);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - offsetMs).toISOString();
};

const CURSOR = /^[A-Za-z0-9_-]{1,300}$/;

export const eventsHistoryInput = z
  .object({
    since: z
      .string({ error: SINCE_ERROR })
      .refine(isIsoTime, { error: `${SINCE_ERROR} (a date that exists)` })
      .optional(),
    type: z
      .enum(DETAIL_TYPES, { error: `type must be one of the detail-types: ${DETAIL_TYPES.join(', ')}` })
      .optional(),
    limit: pageLimit(),
    cursor: z
      .string({ error: 'cursor must be a string (nextCursor from an earlier page)' })
      .regex(CURSOR, { error: 'cursor must be a nextCursor from an earlier page of GET /events' })
      .optional(),
  })
  .strict();

export type EventsHistoryInput = z.output<typeof eventsHistoryInput>;

export const historyEvent = z.object({
  detailType: z.string(),
  /** When the event was published (the gateway's clock). */
  publishedAt: z.string(),
  detail: z.record(z.string(), z.unknown()),
});

export const eventsHistoryResult = z.object({
  events: z.array(historyEvent),
  /** From when the page was read (the request's `since`, or the start of today in India time). */
  since: z.string(),
  nextCursor: z.string().optional(),
});

export type EventsHistoryResult = z.output<typeof eventsHistoryResult>;
