/**
 * The market beside a list of orders: each symbol's last traded price (GET /quotes, one call per distinct symbol, a
 * few at a time, at most MAX_QUOTED_SYMBOLS), and how far each trigger lies from it. A quote that fails, has no
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

/** The last traded prices by `EXCH:TSYM`; a symbol without a usable quote is absent. */
export type LastPrices = ReadonlyMap<string, number>;

export const symbolKey = (o: { exch: string; tsym: string }): string => `${o.exch}:${o.tsym}`;

/** One symbol's last price, or undefined: no quote, no trade today, or a reply for another instrument. */
const lastPriceOf = async (ctx: Context, exch: string, tsym: string): Promise<number | undefined> => {
  try {
    // Two attempts: a list waits on its slowest quote, and a price missing from it is shown as missing.
    const q = await ctx.client.quote(exch as Parameters<Context['client']['quote']>[0], tsym, {
      ...ctx.callOptions,
      maxAttempts: 2,
    });
    if (q.lp === undefined) return undefined;
    const lp = Number(q.lp);
    return Number.isFinite(lp) && lp > 0 ? lp : undefined;
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
  const prices = new Map<string, number>();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < quoted.length; i = next++) {
      const { exch, tsym } = quoted[i]!;
      const lp = await lastPriceOf(ctx, exch, tsym);
      if (lp !== undefined) prices.set(symbolKey(quoted[i]!), lp);
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

/** An order's last price and its distance to the trigger (an OCO: to each leg's, target/stop). */
export const marketCells = (o: Omit<GttOrder, 'stat'>, prices: LastPrices): [string, string] => {
  const last = prices.get(symbolKey(o));
  const lastText = last === undefined ? NO_PRICE : String(last);
  if (o.type === 'oco' && o.target && o.stopLoss)
    return [lastText, `${distanceText(o.target.trigger, last)} / ${distanceText(o.stopLoss.trigger, last)}`];
  return [lastText, distanceText(o.trigger ?? o.d, last)];
};
