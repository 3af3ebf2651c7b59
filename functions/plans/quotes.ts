/**
 * An instrument as plans need it: its tick size (the broker's `SearchScrip`, `ti`), for a plan's prices on the grid,
 * and its last traded price (`SearchScrip` for the instrument token, then `GetQuotes`, its `lp`), for the trailing
 * stop. Broker calls of their own, not operations of the table: nobody calls them through the API. A price that
 * cannot be read throws its named error: the stop stays where it is, and the run says so.
 */
import * as z from 'zod';

import { type BrokerCallDeps, callBroker } from '../broker/call-broker.js';
import { BrokerBadReplyError, ValidationFailedError } from '../contract/errors.js';
import { defineOperation } from '../contract/operation.js';
import type { Instrument } from './engine-deps.js';

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
    values: z.array(z.looseObject({ tsym: z.string(), token: z.string(), ti: z.string().optional() })),
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

const scrip = async (exch: string, tsym: string, deps: BrokerCallDeps) => {
  const found = (await callBroker(search, { exch, tsym }, deps)).result as z.output<typeof search.reply>;
  const record = found.values.find((v) => v.tsym === tsym);
  if (!record)
    throw new ValidationFailedError(
      `${exch}:${tsym} is not a symbol the broker lists (SearchScrip); nothing was placed.`,
      {
        details: [{ field: 'tsym', message: `${tsym} is not listed on ${exch}` }],
        outcome: 'not_executed',
      },
    );
  return record;
};

/** The instrument's tick size (SearchScrip's `ti`; 0.05, the equity tick, when the broker leaves it out). */
export const instrument = async (exch: string, tsym: string, deps: BrokerCallDeps): Promise<Instrument> => {
  const record = await scrip(exch, tsym, deps);
  const tick =
    typeof record.ti === 'string' && /^\d+(\.\d+)?$/.test(record.ti) && Number(record.ti) > 0 ? record.ti : '0.05';
  return { tick };
};

/** The last traded price; the broker's named error when it cannot be read. */
/** Instrument tokens this container has looked up: a symbol's token does not change, so each is read once. */
const tokens = new Map<string, string>();
const MAX_TOKENS = 1_000;

const tokenOf = async (exch: string, tsym: string, deps: BrokerCallDeps): Promise<string> => {
  const key = `${exch}:${tsym}`;
  const known = tokens.get(key);
  if (known !== undefined) return known;
  const { token } = await scrip(exch, tsym, deps);
  if (tokens.size >= MAX_TOKENS) tokens.clear();
  tokens.set(key, token);
  return token;
};

export const lastPrice = async (exch: string, tsym: string, deps: BrokerCallDeps): Promise<number> => {
  const token = await tokenOf(exch, tsym, deps);
  const quote = (await callBroker(quotes, { exch, token }, deps)).result as z.output<typeof quotes.reply>;
  const price = Number(quote.lp);
  if (!Number.isFinite(price) || price <= 0)
    throw new BrokerBadReplyError(
      `GetQuotes answered no usable last traded price for ${exch}:${tsym} (lp ${quote.lp}).`,
      {
        outcome: 'not_executed',
      },
    );
  return price;
};
