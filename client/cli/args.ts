/**
 * The command line's words into flags and positionals, with node:util's parseArgs: every flag of the table is
 * known (a switch when it has no value, a list when it repeats), a single-value flag given twice is refused, and
 * negative numbers reach the checks that name them.
 */
import { parseArgs } from 'node:util';

import type { FlagSpec } from './command.js';
import { UsageError, type Values } from './flags.js';
import { closest } from './suggest.js';

/** Values that start with a dash but are numbers (`--qty -1`, `ltp X -5`): parseArgs would take them for flags. */
const NEGATIVE_NUMBER = /^-(\d|\.\d)/;

/**
 * Flags nobody knows, taken out of `argv` so the rest still parses and every problem is named at once: each
 * `--name` (or `-x`) with its value when one follows it (`--tirgger 1490`), unless it looks like a switch (`closest`
 * names a known switch) or the next word is a command.
 */
const takeUnknown = (
  argv: readonly string[],
  known: ReadonlySet<string>,
  isSwitch: (name: string) => boolean,
  isCommand: (word: string) => boolean,
): { rest: string[]; unknown: string[] } => {
  const rest: string[] = [];
  const unknown: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    const flag = /^--?([^=]+)(=.*)?$/.exec(token);
    if (!flag || NEGATIVE_NUMBER.test(token) || known.has(flag[1]!)) {
      rest.push(token);
      continue;
    }
    unknown.push(flag[1]!);
    const next = argv[i + 1];
    const takesValue =
      flag[2] === undefined &&
      next !== undefined &&
      (!next.startsWith('-') || NEGATIVE_NUMBER.test(next)) &&
      !isSwitch(flag[1]!) &&
      !isCommand(next);
    if (takesValue) i++;
  }
  return { rest, unknown };
};

/**
 * Parses `argv` knowing `flags`, every flag of every command and the global ones; flags nobody knows are answered
 * in `unknown` (for a usage error that names each with its closest known flag), not thrown.
 */
export const parse = (
  argv: readonly string[],
  flags: readonly FlagSpec[],
  isCommand: (word: string) => boolean = () => false,
): { values: Values; positionals: string[]; unknown: string[] } => {
  const known = new Set(flags.map((f) => f.name));
  const switches = new Set(flags.filter((f) => f.value === undefined).map((f) => f.name));
  const { rest, unknown } = takeUnknown(
    argv,
    known,
    (name) => {
      const meant = closest(name, [...known]);
      return meant !== undefined && switches.has(meant);
    },
    isCommand,
  );
  const multiple = new Set(flags.filter((f) => f.repeats).map((f) => f.name));
  const options = Object.fromEntries(
    [...known].map((name) => [
      name,
      { type: switches.has(name) ? ('boolean' as const) : ('string' as const), multiple: multiple.has(name) },
    ]),
  );
  // `--qty -1` becomes `--qty=-1` and a negative positional is held aside, so the value reaches the checks
  // (which name it) instead of parseArgs' "ambiguous" or "unknown option" message.
  const held: string[] = [];
  const args: string[] = [];
  for (const token of rest) {
    const previous = args.at(-1);
    const flag = previous?.startsWith('--') && !previous.includes('=') ? previous.slice(2) : undefined;
    if (NEGATIVE_NUMBER.test(token) && flag !== undefined && known.has(flag) && !switches.has(flag))
      args[args.length - 1] = `${previous}=${token}`;
    else if (NEGATIVE_NUMBER.test(token)) args.push(`\u0000${held.push(token) - 1}`);
    else args.push(token);
  }
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  // parseArgs keeps the last of a repeated flag: `--qty 1 --qty 2` would place 2. Only --path, --query and --leg repeat.
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || multiple.has(token.name)) continue;
    if (seen.has(token.name)) throw new UsageError(`--${token.name} was given more than once; give it once`);
    seen.add(token.name);
  }
  const positionals = parsed.positionals.map((p) => (p.startsWith('\u0000') ? held[Number(p.slice(1))]! : p));
  return { values: parsed.values, positionals, unknown };
};
