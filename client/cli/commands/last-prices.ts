/**
 * The market beside a list of orders: each symbol's last traded price (GET /quotes, one call per distinct symbol, a
 * few at a time, at most MAX_QUOTED_SYMBOLS), and how far each trigger lies from it. A single GTT whose alert type
 * watches another figure (the change from the close, the average price, open interest, total open interest, volume:
 * the quote's `figures`) is measured against that figure and says which (`-22.50 -1.49% atp`), or shows "—" and why
 * (`— no atp in quote`), never a distance from the last price. The gateway's functions/base/schemas/alert-watch.ts
 * holds the same rule; client/ imports nothing outside it, so this is its copy. A quote that fails, has no
 * price, or names another instrument than the one asked (a broker may answer for another: the gateway then answers
 * no `lp` and says why in `priceUnavailable`: the one check, functions/base/broker/market.ts) gives no price: the list shows "—" there and still prints.
 */
import type { GttOrder } from '../../types.js';
import type { Context } from '../command.js';

/** Quotes read at once. */
export const QUOTE_CONCURRENCY = 4;
/** Distinct symbols quoted for one list; the rest show "—" (a list of hundreds of symbols is not held up). */
export const MAX_QUOTED_SYMBOLS = 50;
/** What a list shows where it has no price. */
export const NO_PRICE = '—';

/** What a list keeps of a symbol's quote: its last price (absent without one) and the figures other alerts watch. */
export interface QuotedSymbol {
  lp?: number;
  figures: Readonly<Record<string, string | undefined>>;
}
/** The quotes by `EXCH:TSYM`; a symbol whose quote failed or named another instrument is absent. */
export type LastPrices = ReadonlyMap<string, QuotedSymbol>;

export const symbolKey = (o: { exch: string; tsym: string }): string => `${o.exch}:${o.tsym}`;

/** One symbol's quote, or undefined: the read failed or the reply was for another instrument. */
const quoteOf = async (ctx: Context, exch: string, tsym: string): Promise<QuotedSymbol | undefined> => {
  try {
    // Two attempts: a list waits on its slowest quote, and a price missing from it is shown as missing.
    const q = await ctx.client.quote(exch as Parameters<Context['client']['quote']>[0], tsym, {
      ...ctx.callOptions,
      maxAttempts: 2,
    });
    if (q.priceUnavailable !== undefined) return undefined;
    const lp = Number(q.lp);
    return { ...(q.lp !== undefined && Number.isFinite(lp) && lp > 0 ? { lp } : {}), figures: q.figures ?? {} };
  } catch {
    return undefined;
  }
};

/** The last prices of the orders' symbols, and how many symbols were left unquoted by the bound. */
export const lastPrices = async (
  ctx: Context,
  orders: readonly { exch: string; tsym: string }[],
): Promise<{ prices: LastPrices; unquoted: number }> => {
  const symbols = [...new Map(orders.map((o) => [symbolKey(o), o])).values()];
  const quoted = symbols.slice(0, MAX_QUOTED_SYMBOLS);
  const prices = new Map<string, QuotedSymbol>();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < quoted.length; i = next++) {
      const { exch, tsym } = quoted[i]!;
      const quote = await quoteOf(ctx, exch, tsym);
      if (quote !== undefined) prices.set(symbolKey(quoted[i]!), quote);
    }
  };
  await Promise.all(Array.from({ length: Math.min(QUOTE_CONCURRENCY, quoted.length) }, worker));
  return { prices, unquoted: symbols.length - quoted.length };
};

/** `+10.00 +0.67%`: how far `trigger` lies from `last`, in points and in percent of the last price. */
export const distanceText = (trigger: string | undefined, last: number | undefined): string => {
  const t = Number(trigger);
  if (last === undefined || trigger === undefined || trigger === '' || !Number.isFinite(t)) return NO_PRICE;
  const points = t - last;
  const sign = (n: number) => (n > 0 ? '+' : n < 0 ? '-' : '');
  return `${sign(points)}${Math.abs(points).toFixed(2)} ${sign(points)}${Math.abs((points / last) * 100).toFixed(2)}%`;
};

/** The figure an alert type other than the last price's watches: its short name and its key in the quote's `figures`. */
const OTHER_FIGURES: readonly (readonly [string, string, string])[] = [
  ['CH_PER_', 'chg', 'changePercent'],
  ['ATP_', 'atp', 'averagePrice'],
  ['OI_', 'oi', 'openInterest'],
  ['TOI_', 'toi', 'totalOpenInterest'],
  ['VOLUME_', 'vol', 'volume'],
];

/**
 * A single GTT's distance from what its alert type watches: the last price (LTP and 52-week types), else its figure,
 * named after the distance (`+9980 +6.65% oi`; a change in percentage points, `-3.50pt chg`), or `— no oi in quote`.
 */
/**
 * The key in the quote's `figures` an alert type's trigger is measured against; undefined for the last price's types
 * (a copy of the gateway's functions/base/schemas/alert-watch.ts, which client/ may not import: test/unit/alert-watch.test.ts
 * holds the two equal).
 */
export const watchedFigureKey = (alertType: string | undefined): string | undefined =>
  OTHER_FIGURES.find(([prefix]) => (alertType ?? '').startsWith(prefix))?.[2];

export const watchedDistanceText = (
  alertType: string | undefined,
  trigger: string | undefined,
  quote: QuotedSymbol | undefined,
): string => {
  const other = OTHER_FIGURES.find(([prefix]) => (alertType ?? '').startsWith(prefix));
  if (!other) return distanceText(trigger, quote?.lp);
  const [, name, key] = other;
  const text = quote?.figures[key];
  const value = Number(text);
  if (quote === undefined) return NO_PRICE;
  if (text === undefined || text === '' || !Number.isFinite(value)) return `${NO_PRICE} no ${name} in quote`;
  const t = Number(trigger);
  if (trigger === undefined || trigger === '' || !Number.isFinite(t)) return NO_PRICE;
  const points = t - value;
  const sign = points > 0 ? '+' : points < 0 ? '-' : '';
  if (name === 'chg') return `${sign}${Math.abs(points).toFixed(2)}pt ${name}`;
  const size = name === 'atp' ? Math.abs(points).toFixed(2) : String(Math.abs(points));
  const pct = value === 0 ? '' : ` ${sign}${Math.abs((points / value) * 100).toFixed(2)}%`;
  return `${sign}${size}${pct} ${name}`;
};

/** An order's last price and its distance to the trigger (an OCO: to each leg's, target/stop). */
export const marketCells = (o: Omit<GttOrder, 'stat'>, prices: LastPrices): [string, string] => {
  const quote = prices.get(symbolKey(o));
  const last = quote?.lp;
  const lastText = last === undefined ? NO_PRICE : String(last);
  if (o.type === 'oco' && o.target && o.stopLoss)
    return [lastText, `${distanceText(o.target.trigger, last)} / ${distanceText(o.stopLoss.trigger, last)}`];
  return [lastText, watchedDistanceText(o.ai_t, o.trigger ?? o.d, quote)];
};
