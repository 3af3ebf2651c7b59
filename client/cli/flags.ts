/**
 * Reading a command's flags and collecting what is wrong with them, so that every missing flag and every bad value
 * is named at once, before anything is sent (one usage error, exit 2).
 */
import { closest } from './suggest.js';
import { canonicalValue, choicesText, type ValueTable } from './trader-values.js';

/** A usage error: the message, then one line of usage for `command` (none: the general line). */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command the hint is about, if known. */
    readonly command?: string,
  ) {
    super(message);
  }
}

/** `unknown flag: --x (did you mean --y?)`, or `unknown flags: ...` naming each. */
export const unknownText = (named: readonly string[]): string =>
  `unknown flag${named.length === 1 ? '' : 's'}: ${named.join(', ')}`;

/** The parsed flags: a string, a switch, or the list of a repeatable flag. */
export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

export const str = (values: Values, name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};

// The gateway's own rules for numbers (functions/base/schemas/input.ts), checked here so that every bad flag is named at
// once before anything is sent; test/unit/cli-args.test.ts holds the two to the same answers.
export const PLAIN_DECIMAL = /^(0|[1-9]\d{0,11})(\.\d{1,8})?$/;
const POSITIVE_INTEGER = /^[1-9]\d{0,9}$/;
/** The products the gateway takes as `prd` (functions/base/schemas/fields.ts): the letters and the aliases of two. */
const PRODUCT_NAMES: readonly string[] = ['C', 'M', 'H', 'CNC', 'cnc', 'NRML', 'nrml'];
/** A plan's exit distance (functions/base/schemas/option-plan.ts, EXIT_DISTANCE): points or a percentage. */
const EXIT_DISTANCE = /^(0|[1-9]\d{0,6})(\.\d{1,2})?%?$/;
const LOTS = /^[1-9]\d{0,3}$/;

/** A product's letter, as a plan takes `prd`. */
export type ProductLetter = 'C' | 'M' | 'H';

/** Whether `text` is a number of lots as the option plans take it: a whole number from 1 to 1000. */
export const isLots = (text: string): boolean => LOTS.test(text) && Number(text) <= 1000;

/** Reads flags and collects what is wrong with them: every missing flag and every bad value, named together. */
export class Flags {
  private readonly missing: string[] = [];
  private readonly bad: string[] = [];
  private readonly unknown: string[] = [];
  /** The flags the unknown ones were meant to be: not reported missing as well. */
  private readonly meant = new Set<string>();
  private alone: UsageError | undefined;
  constructor(readonly values: Values) {}

  str(name: string): string | undefined {
    return str(this.values, name);
  }

  need(name: string): string {
    const value = this.str(name);
    if (value === undefined || value === '') this.missing.push(`--${name}`);
    return value ?? '';
  }

  /** A positive whole number, as the gateway takes `qty`. */
  quantity(name: string): string {
    const value = this.need(name);
    if (value !== '' && !POSITIVE_INTEGER.test(value.trim()))
      this.bad.push(`--${name} must be a positive whole number, got ${JSON.stringify(value)}`);
    return value;
  }

  /** A plain non-negative decimal, as the gateway takes prices and triggers; `required` false: may be absent. */
  decimal(name: string, required = true): string | undefined {
    const value = required ? this.need(name) : this.str(name);
    if (value !== undefined && value !== '' && !PLAIN_DECIMAL.test(value.trim())) {
      this.bad.push(
        `--${name} must be a plain non-negative decimal number (no sign, exponent or more than 8 decimals), got ${JSON.stringify(value)}`,
      );
    }
    return value;
  }

  /**
   * A product as the gateway takes `prd`: C, M or H, or CNC (C) and NRML (M). Intraday (MIS) and bracket products
   * are refused here with the reason, before anything is sent.
   */
  product(name: string): string {
    const value = this.need(name);
    const named = value.trim().toUpperCase();
    if (value === '' || PRODUCT_NAMES.includes(value)) return value;
    if (named === 'MIS' || named === 'I')
      this.bad.push(
        `--${name} ${value} is intraday, which a GTT cannot carry (squared off the same day, while a GTT waits up to a year): use C (CNC, delivery) or M (NRML, carry forward)`,
      );
    else if (named === 'B' || named === 'BO')
      this.bad.push(
        `--${name} ${value} is a bracket order, which a GTT cannot carry: use plan-create (a bracket plan)`,
      );
    else this.bad.push(`--${name} must be C, M or H (or CNC for C, NRML for M), got ${JSON.stringify(value)}`);
    return value;
  }

  /**
   * A product as a plan's letter (`product`'s rules, CNC read as C and NRML as M); absent: `fallback`. A value
   * `product` refuses is said to the flags, so `check` throws before it is sent: only then is it no letter.
   */
  productLetter(name: string, fallback: ProductLetter): ProductLetter {
    if (this.str(name) === undefined) return fallback;
    const value = this.product(name);
    const named = value.toUpperCase();
    return (named === 'NRML' ? 'M' : named === 'CNC' ? 'C' : value) as ProductLetter;
  }

  /**
   * A plan's exit distance, `--stop` or `--target` (needed): points or a percentage, greater than 0; `form` says
   * what they count from, in the command's words (`premium points (20, 12.5) or a percentage of ... (25%)`).
   */
  exitDistance(name: 'stop' | 'target', form: string): string {
    const value = this.need(name).trim();
    if (value !== '' && (!EXIT_DISTANCE.test(value) || parseFloat(value) <= 0))
      this.bad.push(`--${name} must be ${form}, greater than 0, got ${JSON.stringify(value)}`);
    return value;
  }

  /**
   * One of a field's values as a trader types it (`buy`, `nse`, `lmt`), read as the API's canonical one; absent:
   * `fallback` when there is one (said by the command), else missing. A value none of the table's is named here.
   */
  choice(name: string, table: ValueTable, fallback?: string): string {
    const value = this.str(name);
    if (value === undefined && fallback !== undefined) return fallback;
    const given = this.need(name);
    if (given === '') return given;
    const canonical = canonicalValue(table, given);
    if (canonical === undefined) this.bad.push(`--${name} must be ${choicesText(table)}, got ${JSON.stringify(given)}`);
    return canonical ?? given;
  }

  positiveInt(name: string): number | undefined {
    const value = this.str(name);
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!POSITIVE_INTEGER.test(value)) {
      this.bad.push(`--${name} must be a positive whole number, got ${JSON.stringify(value)}`);
      return undefined;
    }
    return n;
  }

  /** `name=value` pairs of a repeatable flag. */
  pairs(name: string): Record<string, string> {
    const list = this.values[name];
    const entries = (Array.isArray(list) ? list : []).map(String).flatMap((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0) {
        this.problem(`--${name} takes name=value, got ${JSON.stringify(pair)}`);
        return [];
      }
      return [[pair.slice(0, at), pair.slice(at + 1)] as const];
    });
    return Object.fromEntries(entries);
  }

  /** Flags nobody knows, each named with the closest of `candidates` (the flags of the command at hand). */
  unknownFlags(names: readonly string[], candidates: readonly string[]): void {
    for (const name of names) {
      const meant = closest(name, candidates);
      this.unknown.push(meant === undefined ? `--${name}` : `--${name} (did you mean --${meant}?)`);
      if (meant !== undefined) this.meant.add(meant);
    }
  }

  problem(message: string): void {
    this.bad.push(message);
  }

  /**
   * A problem that is reported on its own, with the usage line of `command` (none: the general one), when nothing
   * else is wrong: the input cannot be read at all (a body that is not JSON, a kill-switch action it has not).
   */
  standalone(message: string, command?: string): void {
    this.alone ??= new UsageError(message, command);
  }

  /** Throws one usage error naming everything found so far. */
  check(command?: string): void {
    const missing = this.missing.filter((flag) => !this.meant.has(flag.slice(2)));
    const parts = [
      ...(this.unknown.length ? [unknownText(this.unknown)] : []),
      ...(missing.length ? [`missing ${missing.join(', ')}`] : []),
      ...this.bad,
    ];
    if (parts.length) throw new UsageError(parts.join('; '), command);
    if (this.alone) throw this.alone;
  }
}

/** For tests: whether the CLI takes `value` as a quantity or a decimal (the gateway's rules, checked beside them). */
export const cliAccepts = (rule: 'quantity' | 'decimal' | 'product', value: string): boolean => {
  const f = new Flags({ x: value });
  if (rule === 'quantity') f.quantity('x');
  else if (rule === 'product') f.product('x');
  else f.decimal('x');
  try {
    f.check();
    return true;
  } catch {
    return false;
  }
};
