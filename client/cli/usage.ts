/**
 * The usage text, generated from the table of commands and the global flags: `--help` prints all of it,
 * `<command> --help` that command's part, a usage error one line of it (the command's shape, or the list of
 * commands).
 */
import { type Command, type FlagSpec, PROGRAM } from './command.js';
import { commandNamed, COMMANDS } from './commands/index.js';
import { GLOBAL_FLAGS, type GlobalFlag } from './global-flags.js';

const WIDTH = 116;
const HELP = '(--help: every command and flag)';

const EXIT_CODES_TEXT = `exit codes: 0 ok, 2 usage/validation/guardrail, 3 not found, 4 broker rejected or rate limited,
  5 session expired, 6 outcome unknown or unavailable (check \`list\` before acting again),
  7 configuration/internal, 8 idempotency key conflict, 130 interrupted`;

/** `--name VALUE`, `[--name VALUE]`, `[--name VALUE]...` or `--name VALUE...` for one that repeats. */
export const flagText = (flag: FlagSpec): string => {
  const text = flag.value === undefined ? `--${flag.name}` : `--${flag.name} ${flag.value}`;
  return `${flag.optional ? `[${text}]` : text}${flag.repeats ? '...' : ''}`;
};

/** `units` joined by spaces into lines of at most WIDTH, each starting with `indent` (the first with `first`). */
const wrap = (units: readonly string[], first: string, indent: string): string[] => {
  const lines: string[] = [];
  let line = first;
  for (const unit of units) {
    const fresh = line === first || line === indent;
    if (!fresh && line.length + 1 + unit.length > WIDTH) {
      lines.push(line);
      line = indent;
    }
    line += line === first || line === indent ? unit : ` ${unit}`;
  }
  return [...lines, line];
};

/** A command's arguments and flags as the usage shows them. */
export const synopsis = (c: Command): string[] => [
  ...(c.args ?? []).map((a) => `<${a}>`),
  ...c.flags.map(flagText),
  ...(c.dryRun ? ['[--dry-run]'] : []),
];

const commandLines = (c: Command, width: number): string[] => {
  const first = `  ${c.name.padEnd(width)}  `;
  const indent = ' '.repeat(first.length);
  const shape = synopsis(c);
  const words = c.summary.split(' ');
  if (shape.length === 0) return wrap(words, first, indent);
  return [...wrap(shape, first, indent), ...wrap(words, indent, indent)];
};

const globalLines = (flag: GlobalFlag, width: number): string[] => {
  const name = flag.value === undefined ? `--${flag.name}` : `--${flag.name} ${flag.value}`;
  const first = `  ${name.padEnd(width)}  `;
  return wrap(flag.summary.split(' '), first, ' '.repeat(first.length));
};

/** The whole usage of `commands` and `globals`. */
export const usageText = (commands: readonly Command[], globals: readonly GlobalFlag[]): string => {
  const nameWidth = Math.max(...commands.map((c) => c.name.length));
  const flagWidth = Math.max(...globals.map((f) => flagText({ ...f, optional: false }).length));
  return [
    `usage: ${PROGRAM} <command> [flags]`,
    '',
    'commands:',
    ...commands.flatMap((c) => commandLines(c, nameWidth)),
    '',
    'global flags:',
    ...globals.flatMap((f) => globalLines(f, flagWidth)),
    '',
    EXIT_CODES_TEXT,
  ].join('\n');
};

export const USAGE = usageText(COMMANDS, GLOBAL_FLAGS);

/** `<command> --help`: that command's usage (its own arguments and flags only), the global flags, the exit codes. */
export const commandUsage = (c: Command): string =>
  usageText([c], GLOBAL_FLAGS).replace(`${PROGRAM} <command> [flags]`, `${PROGRAM} ${c.name} [flags]`);

/** The one line printed under a usage error: the command's shape, and where the full help is. */
export const usageHint = (command?: string): string => {
  const spec = command === undefined ? undefined : commandNamed(command);
  if (!spec)
    return `usage: ${PROGRAM} <command> [flags]   commands: ${COMMANDS.map((c) => c.name).join(', ')}   ${HELP}`;
  const args = (spec.args ?? []).map((a) => `<${a}>`);
  const flags = spec.flags.map((f) => `--${f.name}`);
  return `usage: ${PROGRAM} ${[spec.name, ...args, ...flags].join(' ')}   ${HELP}`;
};
