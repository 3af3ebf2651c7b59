/**
 * An option plan said in a trader's words (option-plan.ts): the pick (`ATM CE, nearest expiry, 2 lots`), the level
 * (`above 24,500`), the contract once chosen, and the whole plan as one sentence. The console and the MCP server's
 * preview say it the same way.
 */
import { rupeesAndPaise } from './assistant-limits.js';

type Pick = { expiry: string; strike: string | number; type: string };
type Level = { above?: string | number | undefined; below?: string | number | undefined };

/** `24,500`, `24,512.35`, `1,24,500`: a number grouped the Indian way; text that is not a number is kept. */
export const indian = (value: string | number | undefined): string => {
  const n = typeof value === 'number' ? value : Number(value);
  if (value === undefined || value === '' || !Number.isFinite(n)) return String(value ?? '');
  return n.toLocaleString('en-IN', { maximumFractionDigits: 2 });
};

/** `nearest expiry`, `next month's expiry`, `expiry 2026-12-31`. */
export const expiryWords = (expiry: string): string =>
  expiry === 'nearest' ? 'nearest expiry' : expiry === 'next-month' ? "next month's expiry" : `expiry ${expiry}`;

/** `ATM CE`, `ATM+2 PE`, `24,500 CE`: the strike the pick names and the option type. */
export const strikeWords = (pick: Pick): string =>
  `${typeof pick.strike === 'number' || /^\d/.test(pick.strike) ? indian(pick.strike) : pick.strike} ${pick.type}`;

/** `ATM CE, nearest expiry, 2 lots`. */
export const pickWords = (pick: Pick, lots?: number): string =>
  `${strikeWords(pick)}, ${expiryWords(pick.expiry)}${lots === undefined ? '' : `, ${lots} lot${lots === 1 ? '' : 's'}`}`;

/** `above 24,500` or `below 24,000`. */
export const levelWords = (when: Level): string =>
  when.above !== undefined ? `above ${indian(when.above)}` : `below ${indian(when.below)}`;

/** `20 points` or `25%`: an exit distance on the premium. */
export const distanceWords = (distance: string | number): string =>
  String(distance).endsWith('%') ? String(distance) : `${distance} points`;

/** `exit stop 20 points, target 25%` (on the premium). */
export const exitWords = (exit: { stop: string | number; target: string | number }): string =>
  `exit stop ${distanceWords(exit.stop)}, target ${distanceWords(exit.target)}`;

/** `NIFTY08DEC26C24500 (strike 24,500, expiry 2026-12-08), chosen at NIFTY 24,512`. */
export const contractWords = (resolved: PickedContract, underlying: string): string =>
  `${resolved.tsym} (strike ${indian(resolved.strike)}, expiry ${resolved.expiry}), chosen at ${underlying} ${indian(resolved.price)}`;

/** A contract an option plan chose (its record's `option.resolved`) or would choose now (its dry run's). */
export interface PickedContract {
  /** The index's price it was chosen at. */
  price: number;
  exch: string;
  tsym: string;
  expiry: string;
  type: string;
  strike: number;
  atm: number;
  strikeStep: number;
  lot: number;
  qty: number;
  /** A dry run's: the contract's last price, and the protected limit its entry would be sent at now. */
  lastPrice?: number;
  prc?: string;
}

/**
 * The contract a dry run of an option plan (`POST /plans?dryRun=true`) says it would pick now: its `contract`, the
 * index's `underlying.price`, the plan's `qty` and its entry's limit (functions/plans/option-create.ts); undefined when
 * it says none.
 */
export const resolvedOfDryRun = (dryRun: unknown): PickedContract | undefined => {
  const answer = (dryRun ?? {}) as {
    underlying?: { price?: unknown };
    contract?: Omit<PickedContract, 'price' | 'qty' | 'prc'>;
    qty?: unknown;
    entry?: { prc?: unknown };
  };
  const c = answer.contract;
  if (!c || typeof c.tsym !== 'string' || typeof answer.qty !== 'number') return undefined;
  const price = Number(answer.underlying?.price);
  const prc = answer.entry?.prc;
  return { ...c, price, qty: answer.qty, ...(typeof prc === 'string' ? { prc } : {}) };
};

/** What an option plan's input says, read loosely (a body the gateway has not checked yet). */
export interface OptionWordsInput {
  underlying: string | { exch: string; tsym: string };
  when: Level;
  pick: Pick;
  lots: number;
  trantype?: string | undefined;
  exit: { stop: string | number; target: string | number };
}

/**
 * `Watch NIFTY; when it goes above ₹24,500 buy 2 lots (130) of the ATM CE of the nearest expiry, now
 * NIFTY08DEC26C24500 at NIFTY 24,512; exit stop 20 points, target 25%.` `now`: what a dry run would pick.
 */
export const optionPlanSentence = (input: OptionWordsInput, now?: PickedContract): string => {
  const name = typeof input.underlying === 'string' ? input.underlying.toUpperCase() : input.underlying.tsym;
  const level =
    input.when.above !== undefined
      ? `goes above ₹${indian(input.when.above)}`
      : `goes below ₹${indian(input.when.below)}`;
  const side = input.trantype === 'S' ? 'sell' : 'buy';
  const lots = `${input.lots} lot${input.lots === 1 ? '' : 's'}${now ? ` (${now.qty})` : ''}`;
  const which = `the ${strikeWords(input.pick)} of the ${expiryWords(input.pick.expiry)}`;
  const current = now ? `, now ${now.tsym} at ${name} ${indian(now.price)}` : '';
  return `Watch ${name}; when it ${level} ${side} ${lots} of ${which}${current}; ${exitWords(input.exit)}.`;
};

/** A leg of a legs plan's dry run (functions/plans/legs-create.ts): its entry order and its price now. */
interface DryRunLeg {
  exch: string;
  tsym: string;
  trantype: string;
  qty: number;
  prc: string;
  lots: number;
  lastPrice?: number;
}

/** The legs a legs plan's dry run (`POST /plans?dryRun=true`) would enter, or undefined when it says none. */
export const legsOfDryRun = (dryRun: unknown): DryRunLeg[] | undefined => {
  const legs = (dryRun as { legs?: unknown } | undefined)?.legs;
  return Array.isArray(legs) && legs.length ? (legs as DryRunLeg[]) : undefined;
};

/**
 * `Sell 1 lot (65) NIFTY08DEC26C25000 at a protected limit about ₹79.45 and sell 1 lot (65) NIFTY08DEC26P25000 at a
 * protected limit about ₹79.45 together; net premium received ₹158.90 a unit; close every leg when the move is 40
 * points against or 25% for.` From the dry run's legs (bought first, as they are placed) and its net premium.
 */
export const legsPlanSentence = (
  dryRun: unknown,
  exit: { stop: string | number; target: string | number },
): string | undefined => {
  const legs = legsOfDryRun(dryRun);
  const net = Number((dryRun as { net?: unknown }).net);
  if (!legs || !Number.isFinite(net)) return undefined;
  const said = legs
    .map((l, i) => {
      const side = l.trantype === 'S' ? 'sell' : 'buy';
      const lots = `${l.lots} lot${l.lots === 1 ? '' : 's'} (${l.qty})`;
      const about = l.lastPrice === undefined ? ` ${l.prc}` : ` about ${rupeesAndPaise(l.lastPrice)}`;
      return `${i ? side : side[0]!.toUpperCase() + side.slice(1)} ${lots} ${l.tsym} at a protected limit${about}`;
    })
    .join(' and ');
  const premium = `net premium ${net < 0 ? 'received' : 'paid'} ${rupeesAndPaise(Math.abs(net))} a unit`;
  return `${said} together; ${premium}; close every leg when the move is ${distanceWords(exit.stop)} against or ${distanceWords(exit.target)} for.`;
};
