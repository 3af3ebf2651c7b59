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
import type { QuoteReply, QuoteResult } from '../schemas/reply.js';
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
 * The instrument a GetQuotes reply names (its `exch`, `tsym`, `token`, where it gives them), when that is not the one
 * asked for: Shoonya answers for another instrument now and then (reported in openalgo #1792, about 9% of quotes in
 * one trader's log), and that price must never pass for the asked instrument's. Undefined when it names no other.
 */
export const otherInstrumentOf = (
  reply: object,
  asked: { exch: string; token: string; tsym?: string },
): string | undefined => {
  const named = reply as { exch?: unknown; tsym?: unknown; token?: unknown };
  // Symbols and exchanges compared as the brokers list them, in capitals.
  const other = (field: unknown, want: string | undefined) =>
    want !== undefined &&
    typeof field === 'string' &&
    field.trim() !== '' &&
    field.trim().toUpperCase() !== want.trim().toUpperCase();
  if (!other(named.exch, asked.exch) && !other(named.tsym, asked.tsym) && !other(named.token, asked.token))
    return undefined;
  const text = (field: unknown, fallback: string | undefined) =>
    typeof field === 'string' && field.trim() !== '' ? field.trim() : (fallback ?? '?');
  return `${text(named.exch, asked.exch)}:${text(named.tsym, '?')} (token ${text(named.token, '?')})`;
};

/**
 * The quote a caller reads (GET /quotes): the last traded price, today's band (the quote's own `lc`/`uc` where it
 * gives a usable pair, else the day's rules'), and the instrument's tick, lot and precision.
 */
export const quoteResultOf = (reply: QuoteReply, input: QuoteInput, now: () => number = Date.now): QuoteResult => {
  const rules = input.rules;
  if (!rules)
    throw new InternalError(`the quote of ${input.exch}:${input.tsym} was read without its instrument's rules`);
  const other = otherInstrumentOf(reply, { exch: input.exch, tsym: input.tsym, token: rules.token });
  if (other !== undefined)
    throw new BrokerBadReplyError(
      `GetQuotes answered for ${other} where ${input.exch}:${input.tsym} (token ${rules.token}) was asked: its price is ` +
        "not shown as this instrument's. Read the quote again.",
    );
  const lp = reply.lp !== undefined && positive(reply.lp) ? reply.lp : undefined;
  const band =
    positive(reply.lc) && positive(reply.uc) && Number(reply.uc) > Number(reply.lc)
      ? { lc: reply.lc.trim(), uc: reply.uc.trim() }
      : rules.band;
  return {
    exch: input.exch,
    tsym: input.tsym,
    token: rules.token,
    ...(lp === undefined ? {} : { lp }),
    ...(band === undefined ? {} : { band }),
    tick: rules.tick,
    lot: rules.lot,
    precision: rules.precision,
    quotedAt: new Date(now()).toISOString(),
  };
};

/** GetQuotes' jData for a quote: the instrument's token, read with its rules before the call. */
export const quoteJData = (input: QuoteInput, session: { uid: string }) => {
  if (!input.rules) throw new InternalError(`no instrument token was read for ${input.exch}:${input.tsym}`);
  return { uid: session.uid, exch: input.exch, token: input.rules.token };
};
