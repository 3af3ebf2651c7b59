/**
 * The command line's usage is generated from its table of commands (client/cli/commands/index.ts): every command of
 * the table is in `--help` with its arguments and every flag, in the one-line hint of a usage error, and a flag
 * the table marks as needed is the one the command's checks ask for. A command added to the table cannot be left
 * out of the usage, and its help cannot promise flags it does not read.
 */
import { describe, expect, it } from 'vitest';

import { USAGE, usageHint } from '../../client/cli.js';
import type { Command, FlagSpec } from '../../client/cli/command.js';
import { COMMANDS } from '../../client/cli/commands/index.js';
import { Flags, UsageError } from '../../client/cli/flags.js';
import { GLOBAL_FLAGS } from '../../client/cli/global-flags.js';

const names = COMMANDS.map((c) => c.name);

/** The lines of `--help` about `command`: from its own line to the next command's, or the end of the list. */
const helpOf = (command: string): string => {
  const lines = USAGE.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`  ${command} `));
  const end = lines.findIndex(
    (line, i) => i > start && (line === '' || names.some((name) => line.startsWith(`  ${name} `))),
  );
  return start < 0 ? '' : lines.slice(start, end).join('\n');
};

/** `--name` as a whole word: `--price` is not found in `--price-type`. */
const mentions = (text: string, flag: string): boolean => new RegExp(`--${flag}(?![\\w-])`).test(text);

describe('the usage is generated from the table', () => {
  it('the table has commands, each named once', () => {
    expect(names.length).toBeGreaterThan(20);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(COMMANDS.map((c) => [c.name, c] as const))(
    '--help lists %s with its arguments, every flag and --dry-run where it applies',
    (name, command) => {
      const help = helpOf(name);
      expect(help, `${name} is not in the usage`).not.toBe('');
      for (const arg of command.args ?? []) expect(help).toContain(`<${arg}>`);
      for (const flag of command.flags) {
        expect(mentions(help, flag.name), `--${flag.name} of ${name}`).toBe(true);
        if (flag.value !== undefined) expect(help).toContain(`--${flag.name} ${flag.value}`);
      }
      expect(help.includes('[--dry-run]')).toBe(command.dryRun === true);
      expect(help).toContain(command.summary.split(' ').slice(0, 4).join(' '));
    },
  );

  it.each(COMMANDS.map((c) => [c.name, c] as const))(
    "a usage error's hint for %s shows its arguments and flags in the table's order",
    (name, command) => {
      const shape = [name, ...(command.args ?? []).map((a) => `<${a}>`), ...command.flags.map((f) => `--${f.name}`)];
      expect(usageHint(name)).toBe(`usage: npm run gtt -- ${shape.join(' ')}   (--help: every command and flag)`);
    },
  );

  it('the general hint names every command; --help every global flag and the exit codes', () => {
    expect(usageHint()).toContain(`commands: ${names.join(', ')}   `);
    for (const flag of GLOBAL_FLAGS) expect(mentions(USAGE, flag.name), `--${flag.name}`).toBe(true);
    expect(USAGE).toMatch(/^exit codes: 0 ok, 2 usage/m);
  });

  it('no line of the usage is wider than 116 columns', () => {
    const wide = USAGE.split('\n').filter((line) => line.length > 116);
    expect(wide).toEqual([]);
  });
});

describe('the table agrees with itself', () => {
  it('a flag is of one kind wherever it appears (a switch, a value, or a list)', () => {
    const kinds = new Map<string, string>();
    const kindOf = (f: FlagSpec) => (f.value === undefined ? 'switch' : f.repeats ? 'list' : 'value');
    for (const [where, flag] of [
      ...GLOBAL_FLAGS.map((f) => ['global', f] as const),
      ...COMMANDS.flatMap((c) => c.flags.map((f) => [c.name, f] as const)),
    ]) {
      const seen = kinds.get(flag.name);
      expect(seen === undefined || seen === kindOf(flag), `--${flag.name} in ${where}`).toBe(true);
      kinds.set(flag.name, kindOf(flag));
    }
    // A command's flag is not also a global one: the usage would show it twice.
    const globals = new Set(GLOBAL_FLAGS.map((f) => f.name));
    expect(
      COMMANDS.flatMap((c) => c.flags.filter((f) => globals.has(f.name)).map((f) => `${c.name} --${f.name}`)),
    ).toEqual([]);
  });

  /** Arguments a command takes without complaint, so that only its flags are judged. */
  const GOOD_ARGS: Record<string, string[]> = {
    'kill-switch': ['status'],
    call: ['GetGTTOrder'],
    ltp: ['INFY-EQ', '1'],
  };

  const problemsWithoutFlags = (command: Command): string => {
    const f = new Flags({});
    const args = GOOD_ARGS[command.name] ?? (command.args ?? []).map(() => 'x');
    command.input?.(f, args);
    try {
      f.check(command.name);
      return '';
    } catch (error) {
      if (error instanceof UsageError) return error.message;
      throw error;
    }
  };

  it.each(COMMANDS.map((c) => [c.name, c] as const))(
    '%s: the flags the table marks as needed are the ones its checks ask for when none is given',
    (_name, command) => {
      const message = problemsWithoutFlags(command);
      const asked = command.flags.filter((f) => mentions(message, f.name)).map((f) => f.name);
      expect(asked).toEqual(command.flags.filter((f) => !f.optional).map((f) => f.name));
    },
  );
});
