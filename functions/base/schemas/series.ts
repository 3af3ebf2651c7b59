/**
 * GET /quotes/series: an instrument's price bars of a span, read from the broker's `TPSeries` (NorenRestApiPy
 * `get_time_price_series(exchange, token, starttime, endtime, interval)`). What the caller sends, the broker's bar
 * records as any dialect of the family writes them (docs/explanation/broker-wire.md, "Time series"), and the bars the
 * caller reads, oldest first.
 */
import './zod-config.js';

import * as z from 'zod';

import { enumOf, EXCHANGES, tradingSymbol } from './fields.js';
import { IST_OFFSET_MS } from './india-time.js';
import type { InstrumentFacts } from './input.js';
import { memo } from './values.js';

/** The bar widths the family answers (`intrv`), in minutes. */
export const SERIES_INTERVALS = [1, 3, 5, 10, 15, 30, 60, 120, 240] as const;

/** The start of India's calendar day of `ms` (00:00 IST), epoch milliseconds. */
export const indiaDayStart = (ms: number): number => {
  const day = 86_400_000;
  return Math.floor((ms + IST_OFFSET_MS) / day) * day - IST_OFFSET_MS;
};

export interface SeriesInput {
  exch: (typeof EXCHANGES)[number];
  tsym: string;
  /** Minutes per bar. */
  interval: number;
  /** The span, ISO UTC. */
  from: string;
  to: string;
  rules?: InstrumentFacts;
}

const isoTime = (field: string) =>
  z
    .string({ error: `${field} must be an ISO time, e.g. 2026-12-07T09:15:00+05:30` })
    .refine((text) => /^\d{4}-\d{2}-\d{2}T/.test(text) && !Number.isNaN(Date.parse(text)), {
      error: `${field} must be an ISO time, e.g. 2026-12-07T09:15:00+05:30`,
    });

const intervalField = () =>
  z.union([z.string(), z.number()]).transform((value, ctx) => {
    const minutes = Number(value);
    if (String(value).trim() !== '' && (SERIES_INTERVALS as readonly number[]).includes(minutes)) return minutes;
    ctx.addIssue({
      code: 'custom',
      message: `interval must be one of ${SERIES_INTERVALS.join(', ')} (minutes), got ${JSON.stringify(value)}`,
    });
    return z.NEVER;
  });

/**
 * `exch` and `tsym` required; `interval` in minutes (default 1); `from`/`to` ISO times, by default today in India
 * time (from 00:00 IST to now). `from` after `to` is refused naming `from`.
 */
export const seriesInput = z.lazy(() =>
  z
    .strictObject({
      exch: enumOf('exch', EXCHANGES),
      tsym: tradingSymbol(),
      interval: intervalField().optional(),
      from: isoTime('from').optional(),
      to: isoTime('to').optional(),
    })
    .transform((input, ctx): SeriesInput => {
      const now = Date.now();
      const to = input.to === undefined ? now : Date.parse(input.to);
      const from = input.from === undefined ? Math.min(indiaDayStart(now), to) : Date.parse(input.from);
      if (from > to) {
        ctx.addIssue({ code: 'custom', path: ['from'], message: `from must not be after to (${input.to ?? 'now'})` });
        return z.NEVER;
      }
      return {
        exch: input.exch,
        tsym: input.tsym,
        interval: input.interval ?? 1,
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
      };
    }),
);

const decimal = () =>
  z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .refine((text) => /^\d+(\.\d+)?$/.test(text), { error: 'must be a decimal' });

/** `dd-mm-yyyy HH:MM:SS`, India time, as the family writes a bar's `time`. */
export const BAR_TIME = /^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * One bar record: keys in any case (`Into`, `INTC`), numbers as strings or numbers, `time` the family's India-time
 * text and `ssboe` its epoch seconds (either suffices; `ssboe` wins), other fields passing through unread.
 */
const seriesRecordSchema = memo(() =>
  z.preprocess(
    (record) =>
      record !== null && typeof record === 'object' && !Array.isArray(record)
        ? Object.fromEntries(Object.entries(record).map(([key, value]) => [key.toLowerCase(), value]))
        : record,
    z
      .looseObject({
        time: z.string().optional(),
        ssboe: z.union([z.string(), z.number()]).transform(String).optional(),
        into: decimal(),
        inth: decimal(),
        intl: decimal(),
        intc: decimal(),
        intv: z.union([z.string(), z.number()]).transform(String).optional(),
      })
      .refine((bar) => /^\d+$/.test(bar.ssboe?.trim() ?? '') || BAR_TIME.test(bar.time?.trim() ?? ''), {
        error: "a bar needs its time: 'ssboe' (epoch seconds) or 'time' (dd-mm-yyyy HH:MM:SS, India time)",
      }),
  ),
);
export const seriesRecord = z.lazy(seriesRecordSchema);
export type SeriesRecord = z.output<typeof seriesRecord>;
export const seriesReply = z.lazy(() => z.array(seriesRecordSchema()));

const seriesResultSchema = memo(() =>
  z.object({
    exch: z.string(),
    tsym: z.string(),
    interval: z.number().describe('minutes per bar'),
    bars: z
      .array(
        z.object({
          time: z.string().describe("the bar's start (ISO 8601, UTC)"),
          open: z.string(),
          high: z.string(),
          low: z.string(),
          close: z.string(),
          volume: z.number().optional().describe("the bar's volume, where the broker gives one"),
        }),
      )
      .describe('oldest first; empty when the broker has none (`no data`)'),
  }),
);
export const seriesResult = z.lazy(seriesResultSchema);
export type SeriesResult = z.output<typeof seriesResult>;
