/**
 * The market beside the orders: one `GET /quotes` per distinct symbol of a list, each answer kept only when it names
 * the instrument asked for (a reply about another instrument is no price of this one: shown as "—").
 */
import { type Api, ok } from './api.js';
import type { Exch, Quote } from './reads.js';

/** A symbol's key in the quotes map: `NSE:M&M-EQ`. */
export const symbolKey = (exch: string, tsym: string): string => `${exch}:${tsym}`;

/** The last price of each distinct symbol of `orders`, by `symbolKey`; a symbol whose read failed or named another instrument has none. */
export const quotesFor = async (
  api: Api,
  orders: readonly { exch: string; tsym: string }[],
): Promise<Map<string, Quote>> => {
  const symbols = [...new Map(orders.map((o) => [symbolKey(o.exch, o.tsym), o])).values()];
  const answers = await Promise.all(
    symbols.map(async ({ exch, tsym }) => {
      try {
        const quote = await ok(api.GET('/quotes', { params: { query: { exch: exch as Exch, tsym } } }));
        return quote.exch === exch && quote.tsym === tsym ? ([symbolKey(exch, tsym), quote] as const) : undefined;
      } catch {
        // No price is shown as "—": the order itself is still listed.
        return undefined;
      }
    }),
  );
  return new Map(answers.filter((a) => a !== undefined));
};
