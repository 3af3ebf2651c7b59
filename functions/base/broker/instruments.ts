/**
 * An instrument as the broker publishes it (SearchScrip: `token`, and the exchange's rules `ti` tick size, `ls` lot
 * size, `pp` price precision), read once per container and kept for INSTRUMENT_TTL_MS: tick sizes move with the
 * exchange's price bands and lot sizes with its periodic revisions, rarely but not never. A symbol the broker does not
 * list is refused with the closest symbols it does list ("did you mean RELIANCE-EQ?"). A broker call of its own, not
 * an operation of the table: nobody calls it through the API.
 */
import * as z from 'zod';

import { BrokerRejectedError, ValidationFailedError } from '../contract/errors.js';
import { defineOperation } from '../contract/operation.js';
import { editDistance } from '../schemas/edit-distance.js';
import { type BrokerCallDeps, callBroker } from './call-broker.js';

export const searchScrip = defineOperation({
  name: 'SearchScrip',
  broker: 'SearchScrip',
  id: 'search-scrip',
  summary: "a symbol's instrument token and the exchange's rules on it",
  route: { method: 'GET', path: '/_internal/search-scrip' },
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  example: { exch: 'NSE', tsym: 'M&M-EQ' },
  input: z.object({ exch: z.string(), tsym: z.string() }),
  reply: z.looseObject({
    stat: z.literal('Ok'),
    values: z.array(
      z.looseObject({
        tsym: z.string(),
        token: z.string(),
        ti: z.string().optional(),
        ls: z.string().optional(),
        pp: z.string().optional(),
      }),
    ),
  }),
  toJData: (input, session) => ({ uid: session.uid, exch: input.exch, stext: encodeURIComponent(input.tsym) }),
});

/** The exchange's rules on an instrument, as the broker publishes them. */
export interface InstrumentRules {
  exch: string;
  tsym: string;
  token: string;
  /** Tick size, a decimal string ("0.05"); 0.05, the equity tick, when the broker leaves it out. */
  tick: string;
  /** Lot size: quantities are multiples of it; 1 when the broker leaves it out. */
  lot: number;
  /** Price precision (decimals); 2 when the broker leaves it out. */
  precision: number;
}

/** How long a container keeps an instrument's rules. */
export const INSTRUMENT_TTL_MS = 60 * 60_000;
const MAX_CACHED = 1_000;
const cache = new Map<string, { rules: InstrumentRules; until: number }>();

/** Forget every cached instrument (tests). */
export const clearInstrumentCache = (): void => cache.clear();

/** SearchScrip's matches; none when the broker answers `no data`. */
export const searchSymbols = async (exch: string, text: string, deps: BrokerCallDeps) => {
  try {
    return ((await callBroker(searchScrip, { exch, tsym: text }, deps)).result as z.output<typeof searchScrip.reply>)
      .values;
  } catch (error) {
    if (error instanceof BrokerRejectedError && /no data/i.test(error.brokerMessage ?? '')) return [];
    throw error;
  }
};

/**
 * The name with an `&` after its first letter, where a trader typing it may have left one out (`MM-EQ` for
 * `M&M-EQ`, `LTFH` for `L&TFH`, as URLs and some alert tools drop the `&`); none when the name has one already.
 */
const withAmpersand = (wanted: string): string[] =>
  /^[A-Z][A-Z]/.test(wanted) && !wanted.includes('&') ? [`${wanted[0]}&${wanted.slice(1)}`] : [];

/**
 * Up to `limit` listed symbols closest to `tsym` (SearchScrip for the symbol, the symbol with an `&` after its first
 * letter, its name before any `-` suffix, and the name's first four letters), nearest first.
 */
export const closestSymbols = async (exch: string, tsym: string, deps: BrokerCallDeps, limit = 3) => {
  const wanted = tsym.trim().toUpperCase();
  const name = wanted.split('-')[0]!;
  const found = new Set<string>();
  const texts = [wanted, ...withAmpersand(wanted), name, name.slice(0, 4)];
  for (const text of [...new Set(texts)].filter((t) => t.length >= 2)) {
    for (const v of await searchSymbols(exch, text, deps)) found.add(v.tsym);
    if (found.size >= limit) break;
  }
  found.delete(wanted);
  return [...found]
    .sort((a, b) => editDistance(wanted, a) - editDistance(wanted, b) || a.localeCompare(b))
    .slice(0, limit);
};

/** The refusal of a symbol the broker does not list, naming the closest it does. */
export const unknownSymbolError = (
  exch: string,
  tsym: string,
  suggestions: readonly string[],
  options: { brokerMessage?: string; field?: string } = {},
): ValidationFailedError => {
  const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.join(', ')}?` : '';
  return new ValidationFailedError(`${exch}:${tsym} is not a symbol the broker lists; nothing was sent.${hint}`, {
    details: [
      {
        field: options.field ?? 'tsym',
        message: `${tsym} is not listed on ${exch}${suggestions.length > 0 ? `; did you mean ${suggestions.join(', ')}?` : ''}`,
      },
    ],
    outcome: 'not_executed',
    ...(options.brokerMessage === undefined ? {} : { brokerMessage: options.brokerMessage }),
  });
};

const positiveDecimal = (text: string | undefined): text is string =>
  typeof text === 'string' && /^\d+(\.\d+)?$/.test(text) && Number(text) > 0;

/**
 * The instrument's rules, from this container's cache or SearchScrip. A symbol the broker does not list: VALIDATION_FAILED
 * with the closest listed symbols. A SearchScrip that fails: its own named error (timeout, unavailable, ...).
 */
export const instrumentRules = async (
  exch: string,
  tsym: string,
  deps: BrokerCallDeps,
  now: () => number = Date.now,
): Promise<InstrumentRules> => {
  // Keyed by the broker's URL too: the rules are one broker's answer (tests run several emulators in one process).
  const key = `${deps.baseUrl} ${exch}:${tsym}`;
  const cached = cache.get(key);
  if (cached && cached.until > now()) return cached.rules;
  const values = await searchSymbols(exch, tsym, deps);
  const record = values.find((v) => v.tsym === tsym);
  if (!record) throw unknownSymbolError(exch, tsym, await closestSymbols(exch, tsym, deps).catch(() => []));
  const lot = Number(record.ls);
  const precision = Number(record.pp);
  const rules: InstrumentRules = {
    exch,
    tsym,
    token: record.token,
    tick: positiveDecimal(record.ti) ? record.ti : '0.05',
    lot: Number.isInteger(lot) && lot > 0 ? lot : 1,
    precision: Number.isInteger(precision) && precision >= 0 ? precision : 2,
  };
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, { rules, until: now() + INSTRUMENT_TTL_MS });
  return rules;
};
