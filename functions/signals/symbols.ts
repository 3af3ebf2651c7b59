/**
 * An alert's ticker made into the broker's symbol (docs/reference/signals.md, "Symbols"), and every one confirmed through
 * SearchScrip before anything is placed: a ticker the broker does not list is refused with the closest symbols it
 * does list, never guessed.
 *
 *   NSE   `INFY` -> `INFY-EQ` (the family's cash-segment naming); a ticker already suffixed (`INFY-EQ`, `X-BE`) kept
 *   BSE   `INFY` -> `INFY` (listed as named)
 *   `NSE:INFY` (TradingView's `{{exchange}}:{{ticker}}` form) -> exchange NSE, ticker INFY
 *   `M_M` -> `M&M` when the broker lists that and not the other (TradingView writes `&` as `_`)
 *   `NIFTY1!` -> the front month's future on NFO (BFO for a BSE name), `NIFTY<DD><MON><YY>F`; `NIFTY2!` the next
 *
 * NSE's monthly derivatives expire on the month's last Tuesday (from September 2025), a day earlier when that is a
 * holiday: the future's name is read from SearchScrip's list of the underlying's contracts when it answers one,
 * else each possible expiry day (Tuesday, then the trading days before it) is asked for by name.
 */
import type { BrokerCallDeps } from '../base/broker/call-broker.js';
import { type InstrumentRules, instrumentRules, searchSymbols } from '../base/broker/instruments.js';
import { ValidationFailedError } from '../base/contract/errors.js';
import { EXCHANGES } from '../base/schemas/fields.js';
import { IST_OFFSET_MS } from '../base/schemas/india-time.js';
import type { Alert, SignalOrder } from '../base/schemas/signals.js';

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAY_MS = 86_400_000;
const CONTINUOUS = /^([A-Z0-9&_-]+?)([12])!$/;
const FUTURE = /^(.+?)(\d{2})([A-Z]{3})(\d{2})F$/;

/** Where the alert's instrument trades, and the broker's symbol for it, confirmed. */
export interface Instrument {
  exch: string;
  tsym: string;
  rules: InstrumentRules;
}

const refused = (message: string, field: string) =>
  new ValidationFailedError(message, { details: [{ field, message }], outcome: 'not_executed' });

/** Today in India, as a UTC midnight timestamp. */
const indiaToday = (now: Date): number => {
  const india = new Date(now.getTime() + IST_OFFSET_MS);
  return Date.UTC(india.getUTCFullYear(), india.getUTCMonth(), india.getUTCDate());
};

/** The last Tuesday of a month (UTC midnight timestamp). */
export const lastTuesday = (year: number, month: number): number => {
  const last = Date.UTC(year, month + 1, 0);
  const back = (new Date(last).getUTCDay() - 2 + 7) % 7;
  return last - back * DAY_MS;
};

/** A contract's name: underlying, expiry DDMMMYY, F. */
export const futureName = (underlying: string, expiry: number): string => {
  const d = new Date(expiry);
  const dd = String(d.getUTCDate()).padStart(2, '0');
  const yy = String(d.getUTCFullYear() % 100).padStart(2, '0');
  return `${underlying}${dd}${MONTHS[d.getUTCMonth()]}${yy}F`;
};

/**
 * The monthly expiry (its last Tuesday) of the `n`th contract from today: 1 the front month (this month's, or next
 * month's once this month's has expired), 2 the one after.
 */
export const monthlyExpiry = (n: 1 | 2, now: Date): number => {
  const today = indiaToday(now);
  const d = new Date(today);
  let year = d.getUTCFullYear();
  let month = d.getUTCMonth();
  if (lastTuesday(year, month) < today) month += 1;
  month += n - 1;
  year += Math.floor(month / 12);
  month %= 12;
  return lastTuesday(year, month);
};

const expiryOf = (tsym: string): number | undefined => {
  const m = FUTURE.exec(tsym);
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[3]!);
  return month < 0 ? undefined : Date.UTC(2000 + Number(m[4]), month, Number(m[2]));
};

/** The `n`th future of `underlying` on `segment`, confirmed by SearchScrip; refused when the broker lists none. */
const continuousFuture = async (
  segment: string,
  underlying: string,
  n: 1 | 2,
  deps: BrokerCallDeps,
  now: Date,
): Promise<string> => {
  const today = indiaToday(now);
  // The broker's own list of the underlying's futures, when its search answers them.
  const listed = (await searchSymbols(segment, underlying, deps))
    .map((v) => v.tsym)
    .filter((tsym) => FUTURE.exec(tsym)?.[1] === underlying)
    .map((tsym) => ({ tsym, expiry: expiryOf(tsym) }))
    .filter((c): c is { tsym: string; expiry: number } => c.expiry !== undefined && c.expiry >= today)
    .sort((a, b) => a.expiry - b.expiry);
  if (listed.length >= n) return listed[n - 1]!.tsym;
  // Else the expiry day's name, asked for by name: the last Tuesday, then the trading days before it (a holiday).
  const tuesday = monthlyExpiry(n, now);
  const tried: string[] = [];
  for (const back of [0, 1, 4, 5]) {
    const tsym = futureName(underlying, tuesday - back * DAY_MS);
    tried.push(tsym);
    if ((await searchSymbols(segment, tsym, deps)).some((v) => v.tsym === tsym)) return tsym;
  }
  throw refused(
    `${underlying}${n}! is the ${n === 1 ? 'front' : 'next'} month's future, but the broker lists none of ${tried.join(', ')} on ${segment}; nothing was placed. Name the contract in the strategy (order.tsym) instead.`,
    'ticker',
  );
};

/** The alert's exchange and ticker: TradingView's `NSE:INFY`, its `exchange` field, or the strategy's `order.exch`. */
const exchangeAndTicker = (alert: Alert, order: Pick<SignalOrder, 'exch'>): { exch: string; ticker: string } => {
  const raw = (alert.ticker ?? '').trim().toUpperCase();
  const colon = raw.indexOf(':');
  const prefix = colon > 0 ? raw.slice(0, colon) : undefined;
  const ticker = colon > 0 ? raw.slice(colon + 1) : raw;
  if (!ticker)
    throw refused('The alert names no ticker (TradingView: "ticker": "{{ticker}}"); nothing was placed.', 'ticker');
  const exch = prefix ?? alert.exchange?.trim().toUpperCase() ?? order.exch;
  if (!exch)
    throw refused(
      `The alert names no exchange for ${ticker}: set order.exch in the strategy, or send "exchange": "{{exchange}}"; nothing was placed.`,
      'exchange',
    );
  if (!(EXCHANGES as readonly string[]).includes(exch))
    throw refused(
      `The alert's exchange ${exch} is not one the broker trades (${EXCHANGES.join(', ')}); nothing was placed.`,
      'exchange',
    );
  return { exch, ticker };
};

/** The broker's symbols the ticker may be on `exch`, most likely first. */
const candidates = (exch: string, ticker: string): string[] => {
  const names = ticker.includes('_') ? [ticker, ticker.replace(/_/g, '&')] : [ticker];
  if (exch !== 'NSE') return names;
  return names.map((name) => (/-[A-Z0-9]{1,3}$/.test(name) ? name : `${name}-EQ`));
};

/**
 * The instrument the alert names (or the strategy fixes with `order.tsym`), confirmed through SearchScrip with its
 * tick and lot. Refused (VALIDATION_FAILED, nothing sent) when the broker lists no such symbol, naming the closest it
 * does; a SearchScrip that fails throws its own named error.
 */
export const resolveInstrument = async (
  alert: Alert,
  order: Pick<SignalOrder, 'exch' | 'tsym'>,
  deps: BrokerCallDeps,
  now: Date = new Date(),
): Promise<Instrument> => {
  if (order.tsym) {
    const exch = order.exch ?? alert.exchange?.trim().toUpperCase() ?? 'NSE';
    return { exch, tsym: order.tsym, rules: await instrumentRules(exch, order.tsym, deps) };
  }
  const { exch, ticker } = exchangeAndTicker(alert, order);
  const continuous = CONTINUOUS.exec(ticker);
  if (continuous) {
    // Derivatives of an NSE name trade on NFO, of a BSE name on BFO.
    const segment = exch === 'BSE' || exch === 'BFO' ? 'BFO' : 'NFO';
    const tsym = await continuousFuture(segment, continuous[1]!, Number(continuous[2]) as 1 | 2, deps, now);
    return { exch: segment, tsym, rules: await instrumentRules(segment, tsym, deps) };
  }
  // The first name the broker lists (one SearchScrip, kept in the container's instrument cache); none: the first
  // name's refusal, which names the closest listed symbols.
  let refusal: unknown;
  for (const tsym of candidates(exch, ticker)) {
    try {
      return { exch, tsym, rules: await instrumentRules(exch, tsym, deps) };
    } catch (error) {
      if (!(error instanceof ValidationFailedError)) throw error;
      refusal ??= error;
    }
  }
  throw refusal;
};
