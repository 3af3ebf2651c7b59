/**
 * Reading a command's flags and collecting what is wrong with them, so that every missing flag and every bad value
 * is named at once, before anything is sent (one usage error, exit 2).
 */

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

/** The parsed flags: a string, a switch, or the list of a repeatable flag. */
export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

export const str = (values: Values, name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};

// The gateway's own rules for numbers (functions/schemas/input.ts), checked here so that every bad flag is named at
// once before anything is sent; test/unit/cli-args.test.ts holds the two to the same answers.
export const PLAIN_DECIMAL = /^(0|[1-9]\d{0,11})(\.\d{1,8})?$/;
const POSITIVE_INTEGER = /^[1-9]\d{0,9}$/;

/** Reads flags and collects what is wrong with them: every missing flag and every bad value, named together. */
export class Flags {
  private readonly missing: string[] = [];
  private readonly bad: string[] = [];
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
    const parts = [...(this.missing.length ? [`missing ${this.missing.join(', ')}`] : []), ...this.bad];
    if (parts.length) throw new UsageError(parts.join('; '), command);
    if (this.alone) throw this.alone;
  }
}

/** For tests: whether the CLI takes `value` as a quantity or a decimal (the gateway's rules, checked beside them). */
export const cliAccepts = (rule: 'quantity' | 'decimal', value: string): boolean => {
  const f = new Flags({ x: value });
  if (rule === 'quantity') f.quantity('x');
  else f.decimal('x');
  try {
    f.check();
    return true;
  } catch {
    return false;
  }
};
