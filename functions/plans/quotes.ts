/**
 * The last traded price of a symbol, for the trailing stop: the broker's `SearchScrip` (the symbol's instrument
 * token) and `GetQuotes` (its `lp`). Two broker calls of their own, not operations of the table: nobody calls them
 * through the API. A price that cannot be read is `undefined`: the stop stays where it is until the next run.
 */
import * as z from 'zod';

import { type BrokerCallDeps, callBroker } from '../broker/call-broker.js';
import { defineOperation } from '../contract/operation.js';

const search = defineOperation({
  name: 'SearchScrip',
  broker: 'SearchScrip',
  id: 'search-scrip',
  summary: "a symbol's instrument token",
  route: { method: 'GET', path: '/_internal/search-scrip' },
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  example: { exch: 'NSE', tsym: 'M&M-EQ' },
  input: z.object({ exch: z.string(), tsym: z.string() }),
  reply: z.looseObject({
    stat: z.literal('Ok'),
    values: z.array(z.looseObject({ tsym: z.string(), token: z.string() })),
  }),
  toJData: (input, session) => ({ uid: session.uid, exch: input.exch, stext: encodeURIComponent(input.tsym) }),
});

const quotes = defineOperation({
  name: 'GetQuotes',
  broker: 'GetQuotes',
  id: 'get-quotes',
  summary: 'the last traded price of an instrument',
  route: { method: 'GET', path: '/_internal/get-quotes' },
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  example: { exch: 'NSE', token: '1' },
  input: z.object({ exch: z.string(), token: z.string() }),
  reply: z.looseObject({ stat: z.literal('Ok'), lp: z.string() }),
  toJData: (input, session) => ({ uid: session.uid, exch: input.exch, token: input.token }),
});

export const lastPrice = async (exch: string, tsym: string, deps: BrokerCallDeps): Promise<number | undefined> => {
  try {
    const found = (await callBroker(search, { exch, tsym }, deps)).result as z.output<typeof search.reply>;
    const token = found.values.find((v) => v.tsym === tsym)?.token;
    if (!token) return undefined;
    const quote = (await callBroker(quotes, { exch, token }, deps)).result as z.output<typeof quotes.reply>;
    const price = Number(quote.lp);
    return Number.isFinite(price) && price > 0 ? price : undefined;
  } catch {
    return undefined;
  }
};
