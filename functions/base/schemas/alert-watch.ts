/**
 * The value a single GTT's alert compares its trigger `d` with, read from a quote (`GET /quotes`: `lp` and
 * `figures`), and how far the trigger lies from it: the last price for the LTP and 52-week types (the 52-week ones
 * watch the last price against the level `d`: docs/explanation/broker-wire.md, "Alert types"), the change from the
 * close for `CH_PER_*`, the average price, open interest, total open interest or volume for the others. Where the
 * quote lacks the figure, the reason, never the last price in its place. The MCP previews and the console use it;
 * the command line keeps its own copy (client/ imports nothing outside it).
 */
import { alertMeasureOf } from './alert-types.js';

/** What a quote carries that an alert may watch (the shape of GET /quotes' reply, only the fields read here). */
export interface WatchedQuote {
  lp?: string | undefined;
  figures?:
    | {
        changePercent?: string | undefined;
        averagePrice?: string | undefined;
        openInterest?: string | undefined;
        totalOpenInterest?: string | undefined;
        volume?: string | undefined;
      }
    | undefined;
}

/** The figure an alert type watches: its name for a person, and where the quote keeps it. */
interface Watch {
  what: string;
  figure: keyof NonNullable<WatchedQuote['figures']> | 'lp';
  missing: string;
}

const WATCHES: readonly (readonly [RegExp, Watch])[] = [
  [
    /^CH_PER_/,
    {
      what: 'change',
      figure: 'changePercent',
      missing: 'the quote gives no price or previous close to measure the change by',
    },
  ],
  [/^ATP_/, { what: 'average price', figure: 'averagePrice', missing: "the broker's quote gives no average price" }],
  [/^OI_/, { what: 'open interest', figure: 'openInterest', missing: "the broker's quote gives no open interest" }],
  [
    /^TOI_/,
    {
      what: 'total open interest',
      figure: 'totalOpenInterest',
      missing: "the broker's quote gives no total open interest",
    },
  ],
  [/^VOLUME_/, { what: 'volume', figure: 'volume', missing: "the broker's quote gives no volume" }],
];
const LAST_PRICE: Watch = { what: 'last price', figure: 'lp', missing: 'the broker has no quote for it yet' };

/** What an alert type watches, in a person's words (`last price`, `average price`, `open interest`...). */
export const watchedName = (alertType: string | undefined): string => watchOf(alertType).what;

const watchOf = (alertType: string | undefined): Watch =>
  WATCHES.find(([pattern]) => pattern.test(alertType ?? ''))?.[1] ?? LAST_PRICE;

/** The watched value (a number, as the quote wrote it), or why there is none. */
export type Watched = { what: string; value: number; text: string } | { what: string; unavailable: string };

export const watchedValue = (alertType: string | undefined, quote: WatchedQuote): Watched => {
  const watch = watchOf(alertType);
  const text = watch.figure === 'lp' ? quote.lp : quote.figures?.[watch.figure];
  const value = Number(text);
  const usable = text !== undefined && text !== '' && Number.isFinite(value) && (watch.figure !== 'lp' || value > 0);
  return usable ? { what: watch.what, value, text } : { what: watch.what, unavailable: watch.missing };
};

/**
 * How far `trigger` lies from the watched value: `points` the difference (in the price's decimals for a price, whole
 * for a count, two decimals of percentage points for a change) and `pct` the difference as a percentage of the value
 * (absent for a change, which is a percentage already, and for a value of 0). Both signed (`+10.00`, `-0.67`).
 */
export const triggerDistance = (
  alertType: string | undefined,
  trigger: string,
  value: number,
  precision = 2,
): { points?: string; pct?: string } => {
  const t = Number(trigger);
  if (trigger === '' || !Number.isFinite(t)) return {};
  const measure = alertType ? alertMeasureOf(alertType) : 'price';
  const signed = (n: number, digits: number) => `${n > 0 ? '+' : ''}${n.toFixed(digits)}`;
  const points = t - value;
  const digits = measure === 'count' ? 0 : measure === 'percent' ? 2 : precision;
  return {
    points: signed(points, digits),
    ...(measure === 'percent' || value === 0 ? {} : { pct: signed((points / value) * 100, 2) }),
  };
};
