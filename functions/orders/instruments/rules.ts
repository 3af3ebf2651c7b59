/**
 * The order path's read of an instrument's rules for today (docs/explanation/exchange-rules.md): tick, lot and precision, today's
 * band and the freeze quantity, from the first of
 *
 *   1. this container, until India's calendar day changes (no call);
 *   2. the account's copy (copy.ts, one GetItem), when it holds today's item with today's market;
 *   3. the broker: SearchScrip (unless today's item has the instrument, e.g. from the symbol master), then GetQuotes
 *      and GetSecurityInfo together; what it read is written to the copy, so no other container reads it that day.
 *
 * A copy that cannot be read or written costs a broker read, never an order (logged through `onCopyError`). A
 * previous day's item is never used. When neither the copy nor the broker gives today's rules the read throws the
 * broker's own retryable error (BROKER_TIMEOUT, BROKER_UNAVAILABLE, ...) with `outcome: not_executed` and a message
 * that says what to do: the order is refused, never sent unchecked.
 */
import type { BrokerCallDeps } from '../../base/broker/call-broker.js';
import { instrumentRules } from '../../base/broker/instruments.js';
import { freezeQuantity, type PriceBand, priceBand } from '../../base/broker/market.js';
import { GatewayError } from '../../base/contract/errors.js';
import { indiaDay } from '../../base/schemas/india-time.js';
import type { RulesSource } from '../safety/market-rules.js';
import type { CopiedRules, InstrumentCopy } from './copy.js';

/** An instrument's rules for today, with their source. */
export interface DayRules {
  exch: string;
  tsym: string;
  token: string;
  tick: string;
  lot: number;
  precision: number;
  band: PriceBand | undefined;
  freeze: number | undefined;
  source: RulesSource;
}

const MAX_KEPT = 1_000;
const kept = new Map<string, DayRules>();

/** Forget every instrument this container keeps (tests: a second container). */
export const clearDayRules = (): void => kept.clear();

export interface RulesReadOptions {
  copy?: InstrumentCopy | undefined;
  now?: () => number;
  /** A copy read or write that failed: logged by the caller, and the broker read instead. */
  onCopyError?: (error: unknown, what: 'read' | 'write') => void;
}

const fromCopy = (item: CopiedRules, day: string): DayRules | undefined =>
  item.day === day && item.market?.day === day
    ? {
        exch: item.exch,
        tsym: item.tsym,
        token: item.token,
        tick: item.tick,
        lot: item.lot,
        precision: item.precision,
        band: item.market.band,
        freeze: item.market.freeze,
        source: { day, instrument: item.from, marketReadAt: item.market.at, via: 'copy' },
      }
    : undefined;

/** The broker read `what` of `exch:tsym`, its failure made the order's refusal (nothing sent). */
const brokerRead = async <T>(exch: string, tsym: string, day: string, what: string, run: () => Promise<T>) => {
  try {
    return await run();
  } catch (error) {
    if (error instanceof GatewayError && error.code !== 'VALIDATION_FAILED') {
      error.message =
        `The exchange's rules for ${exch}:${tsym} could not be read (${what}) and the account's copy holds none for ` +
        `today (${day}), so nothing was sent unchecked: ${error.message} Send the order again in a moment; if this ` +
        'persists, check the broker, or run the InstrumentRefresh function to fill the copy.';
      error.outcome = 'not_executed';
    }
    throw error;
  }
};

/** Keyed by the broker's URL too: the rules are one broker's (tests run several emulators in one process). */
const keyOf = (baseUrl: string, exch: string, tsym: string) => `${baseUrl} ${exch}:${tsym}`;

const keep = (baseUrl: string, rules: DayRules): DayRules => {
  if (kept.size >= MAX_KEPT) kept.clear();
  kept.set(keyOf(baseUrl, rules.exch, rules.tsym), rules);
  return rules;
};

/**
 * Today's rules of `exch:tsym` (the module's comment has the order). A symbol the broker does not list is refused
 * with the closest it does (VALIDATION_FAILED, from base/broker/instruments.ts).
 */
export const todaysRules = async (
  exch: string,
  tsym: string,
  deps: BrokerCallDeps,
  options: RulesReadOptions = {},
): Promise<DayRules> => {
  const now = options.now ?? Date.now;
  const day = indiaDay(now());
  const mine = kept.get(keyOf(deps.baseUrl, exch, tsym));
  if (mine && mine.source.day === day) return { ...mine, source: { ...mine.source, via: 'container' } };

  let item: CopiedRules | undefined;
  if (options.copy) {
    try {
      item = await options.copy.get(exch, tsym);
    } catch (error) {
      options.onCopyError?.(error, 'read');
    }
    const copied = item && fromCopy(item, day);
    if (copied) return keep(deps.baseUrl, copied);
  }

  const instrument =
    item && item.day === day
      ? { token: item.token, tick: item.tick, lot: item.lot, precision: item.precision, from: item.from }
      : {
          ...(await brokerRead(exch, tsym, day, 'SearchScrip', () => instrumentRules(exch, tsym, deps, now))),
          from: 'SearchScrip' as const,
        };
  const [band, freeze] = await Promise.all([
    brokerRead(exch, tsym, day, 'GetQuotes', () => priceBand(exch, instrument.token, deps, now)),
    brokerRead(exch, tsym, day, 'GetSecurityInfo', () => freezeQuantity(exch, instrument.token, deps, now)),
  ]);
  const at = new Date(now()).toISOString();
  const rules: DayRules = {
    exch,
    tsym,
    token: instrument.token,
    tick: instrument.tick,
    lot: instrument.lot,
    precision: instrument.precision,
    band,
    freeze,
    source: { day, instrument: instrument.from, marketReadAt: at, via: 'broker' },
  };
  if (options.copy) {
    const { token, tick, lot, precision } = rules;
    const copied: CopiedRules = { exch, tsym, token, tick, lot, precision, day, from: instrument.from };
    await options.copy
      .save({ ...copied, market: { day, band, freeze, at } }, now())
      .catch((error: unknown) => options.onCopyError?.(error, 'write'));
  }
  return keep(deps.baseUrl, rules);
};
