/**
 * What the market sets on an instrument beside its tick and lot (base/broker/instruments.ts), read from the broker:
 * - today's price band, GetQuotes' `uc` (upper circuit limit) and `lc` (lower), kept BAND_TTL_MS per container since
 *   the exchange sets it each day;
 * - the freeze quantity, GetSecurityInfo's `frzqty` (the largest quantity one order may carry: NSE's quantity freeze
 *   of index derivatives), kept FREEZE_TTL_MS like the instrument's rules.
 * Either may be absent: a broker that leaves the field out or writes it as zero gives none, and `no data` (no quote
 * for the instrument) gives none. Broker calls of their own, not operations of the table: nobody calls them through
 * the API. A read that fails throws its named error.
 */
import * as z from 'zod';

import { BrokerBadReplyError, BrokerRejectedError, InternalError } from '../contract/errors.js';
import { defineOperation } from '../contract/operation.js';
import type { QuoteInput } from '../schemas/input.js';
import type { QuoteReply, QuoteResult } from '../schemas/quote.js';
import { type BrokerCallDeps, callBroker } from './call-broker.js';

const decimalText = () => z.union([z.string(), z.number()]).transform(String);

export const getQuotes = defineOperation({
  name: 'GetQuotes',
  broker: 'GetQuotes',
  id: 'get-quotes',
  summary: "an instrument's last traded price and today's price band",
  route: { method: 'GET', path: '/_internal/get-quotes' },
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  example: { exch: 'NSE', token: '1' },
  input: z.lazy(() => z.object({ exch: z.string(), token: z.string() })),
  reply: z.lazy(() =>
    z.looseObject({
      stat: z.literal('Ok'),
      lp: decimalText().optional(),
      uc: decimalText().optional(),
      lc: decimalText().optional(),
    }),
  ),
  toJData: (input, session) => ({ uid: session.uid, exch: input.exch, token: input.token }),
});

export const getSecurityInfo = defineOperation({
  name: 'GetSecurityInfo',
  broker: 'GetSecurityInfo',
  id: 'get-security-info',
  summary: "an instrument's properties, its freeze quantity among them",
  route: { method: 'GET', path: '/_internal/get-security-info' },
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  example: { exch: 'NFO', token: '1' },
  input: z.lazy(() => z.object({ exch: z.string(), token: z.string() })),
  reply: z.lazy(() => z.looseObject({ stat: z.literal('Ok'), frzqty: decimalText().optional() })),
  toJData: (input, session) => ({ uid: session.uid, exch: input.exch, token: input.token }),
});

/** Today's price band of an instrument (decimal strings as the broker wrote them). */
export interface PriceBand {
  lc: string;
  uc: string;
}

/** How long a container keeps a band: the exchange sets it each day, and may widen it during one. */
export const BAND_TTL_MS = 5 * 60_000;
/** How long a container keeps a freeze quantity (as the instrument's rules: revised by circular, rarely). */
export const FREEZE_TTL_MS = 60 * 60_000;
const MAX_CACHED = 1_000;
/** Keyed by the broker's URL too: a band is one broker's answer (tests run several emulators in one process). */
const bands = new Map<string, { band: PriceBand | undefined; until: number }>();
const freezes = new Map<string, { freeze: number | undefined; until: number }>();

/** Forget every cached band and freeze quantity (tests). */
export const clearMarketCache = (): void => {
  bands.clear();
  freezes.clear();
};

const positive = (text: string | undefined): text is string =>
  typeof text === 'string' && /^\d+(\.\d+)?$/.test(text.trim()) && Number(text) > 0;

/** The reply, or undefined when the broker answers `no data`. */
const read = async <R>(call: () => Promise<{ result: unknown }>): Promise<R | undefined> => {
  try {
    return (await call()).result as R;
  } catch (error) {
    if (error instanceof BrokerRejectedError && /no data/i.test(error.brokerMessage ?? '')) return undefined;
    throw error;
  }
};

const remember = <V>(cache: Map<string, { until: number } & V>, key: string, entry: { until: number } & V) => {
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, entry);
};

/**
 * Whether a GetQuotes reply is the quote of the instrument asked for: undefined when it is, else the instrument it
 * names instead (`NSE:NIFTY INDEX (token 26000)`). Shoonya's GetQuotes now and then answers a complete `stat: Ok`
 * snapshot of another instrument (9% of replies in one live count: marketcalls/openalgo issue #1792, fixed in its
 * PR #1904 by checking every reply against its request), and its `exch`, `token` and `tsym` are then the other
 * instrument's. A reply that names another exchange, token or symbol is never used: its price and band are dropped.
 * A field the reply leaves out is not checked (nothing to check it by). The one check every quote read makes: the
 * gateway's `GET /quotes` (so the command line, the console and MCP read it through the API), the band of the
 * exchange rules and the trailing stop's last price.
 */
export const otherInstrumentOf = (
  reply: Readonly<Record<string, unknown>>,
  asked: { exch: string; token: string; tsym?: string },
): string | undefined => {
  const named = (v: unknown): string | undefined =>
    typeof v === 'string' || typeof v === 'number' ? String(v).trim() : undefined;
  const exch = named(reply.exch);
  const token = named(reply.token);
  const tsym = named(reply.tsym);
  const differs =
    (exch !== undefined && exch.toUpperCase() !== asked.exch.trim().toUpperCase()) ||
    (token !== undefined && token !== asked.token.trim()) ||
    (tsym !== undefined && asked.tsym !== undefined && tsym.toUpperCase() !== asked.tsym.trim().toUpperCase());
  if (!differs) return undefined;
  return `${exch ?? asked.exch}:${tsym ?? '?'} (token ${token ?? '?'})`;
};

/** Why a quote naming another instrument is not used, in the words GET /quotes and the trailing stop say it. */
export const otherInstrumentWords = (asked: string, other: string): string =>
  `the broker's quote for ${asked} named another instrument, ${other}; it was not used (ask again)`;

/** Today's band (GetQuotes `lc`, `uc`), or undefined where the broker gives none (absent, `0`, `0.00`, `no data`). */
export const priceBand = async (
  exch: string,
  token: string,
  deps: BrokerCallDeps,
  now: () => number = Date.now,
): Promise<PriceBand | undefined> => {
  const key = `${deps.baseUrl} ${exch}|${token}`;
  const cached = bands.get(key);
  if (cached && cached.until > now()) return cached.band;
  const quote = await read<z.output<typeof getQuotes.reply>>(() => callBroker(getQuotes, { exch, token }, deps));
  // A quote of another instrument gives no band, and is not kept: the next read asks again.
  if (quote && otherInstrumentOf(quote, { exch, token })) return undefined;
  const band =
    quote && positive(quote.lc) && positive(quote.uc) && Number(quote.uc) > Number(quote.lc)
      ? { lc: quote.lc.trim(), uc: quote.uc.trim() }
      : undefined;
  remember(bands, key, { band, until: now() + BAND_TTL_MS });
  return band;
};

/** The freeze quantity (GetSecurityInfo `frzqty`), or undefined where the broker gives none. */
export const freezeQuantity = async (
  exch: string,
  token: string,
  deps: BrokerCallDeps,
  now: () => number = Date.now,
): Promise<number | undefined> => {
  const key = `${deps.baseUrl} ${exch}|${token}`;
  const cached = freezes.get(key);
  if (cached && cached.until > now()) return cached.freeze;
  const info = await read<z.output<typeof getSecurityInfo.reply>>(() =>
    callBroker(getSecurityInfo, { exch, token }, deps),
  );
  const frzqty = Number(info?.frzqty);
  const freeze = positive(info?.frzqty) && Number.isInteger(frzqty) ? frzqty : undefined;
  remember(freezes, key, { freeze, until: now() + FREEZE_TTL_MS });
  return freeze;
};

/**
 * The quote a caller reads (GET /quotes): the last traded price, today's band (the quote's own `lc`/`uc` where it
 * gives a usable pair, else the day's rules'), the day's open, high, low and previous close the broker gives (a `0`
 * left out), and the instrument's tick, lot and precision. A reply naming another instrument answers the rules
 * without `lp` or `day` and with `priceUnavailable` saying why (otherInstrumentOf).
 */
export const quoteResultOf = (reply: QuoteReply, input: QuoteInput, now: () => number = Date.now): QuoteResult => {
  const rules = input.rules;
  if (!rules)
    throw new InternalError(`the quote of ${input.exch}:${input.tsym} was read without its instrument's rules`);
  const other = otherInstrumentOf(reply, { exch: input.exch, token: rules.token, tsym: input.tsym });
  if (other)
    return {
      exch: input.exch,
      tsym: input.tsym,
      token: rules.token,
      ...(rules.band === undefined ? {} : { band: rules.band }),
      tick: rules.tick,
      lot: rules.lot,
      precision: rules.precision,
      quotedAt: new Date(now()).toISOString(),
      priceUnavailable: otherInstrumentWords(`${input.exch}:${input.tsym}`, other),
    };
  const lp = reply.lp !== undefined && positive(reply.lp) ? reply.lp : undefined;
  const band =
    positive(reply.lc) && positive(reply.uc) && Number(reply.uc) > Number(reply.lc)
      ? { lc: reply.lc.trim(), uc: reply.uc.trim() }
      : rules.band;
  const day: { open?: string; high?: string; low?: string; close?: string } = {};
  const given = { open: reply.o, high: reply.h, low: reply.l, close: reply.c ?? reply.C };
  for (const [name, value] of Object.entries(given)) if (positive(value)) day[name as keyof typeof given] = value;
  const figures = figuresOf(reply, lp, day.close);
  return {
    exch: input.exch,
    tsym: input.tsym,
    token: rules.token,
    ...(lp === undefined ? {} : { lp }),
    ...(band === undefined ? {} : { band }),
    ...(Object.keys(day).length === 0 ? {} : { day }),
    ...(Object.keys(figures).length === 0 ? {} : { figures }),
    tick: rules.tick,
    lot: rules.lot,
    precision: rules.precision,
    quotedAt: new Date(now()).toISOString(),
  };
};

/** A count as the broker writes it (`96248`, `96248.00`, `0`): its whole-number text, or undefined. */
const count = (text: string | undefined): string | undefined =>
  typeof text === 'string' && /^\d{1,15}(\.0+)?$/.test(text.trim()) ? String(Number(text)) : undefined;

/**
 * What the other alert types watch, those the reply gives: the change from the previous close in percent (from `lp`
 * and the close), `ap`, `oi`, `toi`, `v`, `wk52_h`, `wk52_l`. A price of 0 is the broker's "none" and is left out; a
 * count of 0 is a count (no contracts open yet, nothing traded yet) and is kept.
 */
const figuresOf = (reply: QuoteReply, lp: string | undefined, close: string | undefined) => {
  const figures: NonNullable<QuoteResult['figures']> = {};
  if (lp !== undefined && close !== undefined)
    figures.changePercent = (((Number(lp) - Number(close)) / Number(close)) * 100).toFixed(2);
  const prices = { averagePrice: reply.ap, week52High: reply.wk52_h, week52Low: reply.wk52_l } as const;
  for (const [name, value] of Object.entries(prices))
    if (positive(value)) figures[name as keyof typeof prices] = value.trim();
  const counts = {
    openInterest: count(reply.oi),
    totalOpenInterest: count(reply.toi),
    volume: count(reply.v),
  } as const;
  for (const [name, value] of Object.entries(counts))
    if (value !== undefined) figures[name as keyof typeof counts] = value;
  return figures;
};

/** GetQuotes' jData for a quote: the instrument's token, read with its rules before the call. */
export const quoteJData = (input: QuoteInput, session: { uid: string }) => {
  if (!input.rules) throw new InternalError(`no instrument token was read for ${input.exch}:${input.tsym}`);
  return { uid: session.uid, exch: input.exch, token: input.rules.token };
};

/**
 * The last traded price of the instrument `exch`/`token` (GetQuotes `lp`), named `name` in what it throws: the
 * broker's `no data` (no quote yet) in words, a quote of another instrument (otherInstrumentOf: never used), an `lp`
 * that is not a price. The plans' price reads (plans/quotes.ts) and the option chain's ATM (GET /options) use it.
 */
export const lastTradedPrice = async (
  exch: string,
  token: string,
  name: string,
  deps: BrokerCallDeps,
  tsym?: string,
): Promise<number> => {
  let quote: z.output<typeof getQuotes.reply>;
  try {
    quote = (await callBroker(getQuotes, { exch, token }, deps)).result as z.output<typeof getQuotes.reply>;
  } catch (error) {
    if (error instanceof BrokerRejectedError && /no data/i.test(error.brokerMessage ?? ''))
      throw new BrokerRejectedError(`the broker has no quote for ${name} yet (GetQuotes answered no data)`, {
        brokerMessage: error.brokerMessage,
        outcome: 'not_executed',
      });
    throw error;
  }
  const other = otherInstrumentOf(quote, { exch, token, ...(tsym ? { tsym } : {}) });
  if (other) throw new BrokerBadReplyError(otherInstrumentWords(name, other), { outcome: 'not_executed' });
  const price = Number(quote.lp);
  if (!Number.isFinite(price) || price <= 0)
    throw new BrokerBadReplyError(`GetQuotes answered no usable last traded price for ${name} (lp ${quote.lp}).`, {
      outcome: 'not_executed',
    });
  return price;
};
