/**
 * The command line's dispatcher: parse the words, look the command up in the table, check everything at once, run
 * it on the client, print its result; every failure becomes an exit code (client/exit-codes.ts).
 */
import { readFileSync } from 'node:fs';

import type { GttClient } from '../client.js';
import { GttGatewayError } from '../errors.js';
import { EXIT_CODES, exitCodeFor } from '../exit-codes.js';
import type { DryRunResult } from '../types.js';
import { parse } from './args.js';
import { type Command, type Context, type Io, PROGRAM } from './command.js';
import { commandNamed, COMMANDS } from './commands/index.js';
import { Flags, str, UsageError, type Values } from './flags.js';
import { GLOBAL_FLAGS } from './global-flags.js';
import { dryRunText, errorText } from './render.js';
import { closest } from './suggest.js';
import { clientFor, resolveTarget, type Target } from './target.js';
import { commandUsage, USAGE, usageHint } from './usage.js';

/** Every flag the parser knows: the global ones and every command's. */
const ALL_FLAGS = [...GLOBAL_FLAGS, ...COMMANDS.flatMap((c) => c.flags)];

const DRY_RUN_COMMANDS = COMMANDS.filter((c) => c.dryRun).map((c) => c.name);

/** Written into the bundle by its build (client/bundle-cli.mjs), so dist/gtt.js reads no file for it. */
declare const GTT_VERSION: string | undefined;

/** The package's version, for `--version`. */
export const version = (): string =>
  typeof GTT_VERSION === 'string'
    ? GTT_VERSION
    : (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export const defaultIo: Io = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

/** A command's input, checked, and what the global flags say about the calls. */
interface Checked {
  input: unknown;
  target: Target;
  timeoutMs: number | undefined;
  maxAttempts: number | undefined;
}

/** What every command is held to: its arguments, its flags, --dry-run where it applies, one way to sign. */
const checkShape = (f: Flags, command: Command, args: readonly string[]): void => {
  const { values } = f;
  const expected = command.args ?? [];
  if (args.length !== expected.length) {
    f.problem(
      expected.length === 0
        ? `${command.name} takes no arguments, got ${args.join(' ')}`
        : `${command.name} takes ${expected.map((a) => `<${a}>`).join(' ')}${args.length ? `, got ${args.length} argument(s)` : ''}`,
    );
  }
  const allowed = new Set([...GLOBAL_FLAGS, ...command.flags].map((flag) => flag.name));
  const foreign = Object.keys(values).filter((name) => values[name] !== undefined && !allowed.has(name));
  if (foreign.length) f.problem(`${command.name} does not take ${foreign.map((name) => `--${name}`).join(', ')}`);
  if (values['dry-run'] && !command.dryRun)
    f.problem(`--dry-run applies to ${DRY_RUN_COMMANDS.slice(0, -1).join(', ')} and ${DRY_RUN_COMMANDS.at(-1)} only`);
  if (values.sign && values['no-sign']) f.problem('--sign and --no-sign contradict each other');
};

/** Every check before anything is sent; throws one usage error naming all that is wrong. */
const validate = (
  command: Command,
  values: Values,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  unknown: readonly string[],
): Checked => {
  const f = new Flags(values);
  f.unknownFlags(
    unknown,
    [...command.flags, ...(command.dryRun ? [{ name: 'dry-run' }] : []), ...GLOBAL_FLAGS].map((flag) => flag.name),
  );
  checkShape(f, command, args);
  const timeoutMs = f.positiveInt('timeout');
  const maxAttempts = f.positiveInt('attempts');
  const input = command.input?.(f, args);
  const target = resolveTarget(f, env);
  command.checkTarget?.(f, input, target.baseUrl);
  f.check(command.name);
  return { input, target, timeoutMs, maxAttempts };
};

const contextOf = (checked: Checked, values: Values, io: Io, json: boolean, signal?: AbortSignal): Context => {
  let client: GttClient | undefined;
  const callOptions = signal ? { signal } : {};
  const key = str(values, 'key');
  return {
    get client() {
      return (client ??= clientFor(checked.target, values, checked, io));
    },
    baseUrl: checked.target.baseUrl,
    json,
    io,
    signal,
    callOptions,
    orderOptions: {
      ...callOptions,
      ...(values['dry-run'] ? { dryRun: true } : {}),
      ...(key === undefined ? {} : { idempotencyKey: key }),
    },
  };
};

/** Runs the command and prints its result: JSON, a dry run's broker request, or the command's text. */
const execute = async (command: Command, input: unknown, ctx: Context, dryRun: boolean): Promise<number> => {
  if (command.render === 'self') return command.run(ctx, input);
  const result = await command.run(ctx, input);
  ctx.io.out(
    ctx.json || command.render === 'json'
      ? JSON.stringify(result, null, 2)
      : dryRun
        ? dryRunText(result as DryRunResult)
        : command.render(result),
  );
  return command.exitCode?.(result) ?? EXIT_CODES.OK;
};

/**
 * The command to run after a refusal, as this command line spells it: the kill switch's TRADING_HALTED names
 * `kill-switch off` (the gateway's own text names the route, for every caller), and a command's own hint (an OCO
 * given to modify: modify-oco).
 */
const hintFor = (error: GttGatewayError, command: Command | undefined, args: readonly string[]): string | undefined =>
  error.code === 'TRADING_HALTED'
    ? `the kill switch is on: \`${PROGRAM} kill-switch status\` says since when; \`${PROGRAM} kill-switch off\` turns it off`
    : command?.hint?.(error, args);

/** A failure on stderr, and its exit code. */
const report = (error: unknown, json: boolean, io: Io, command?: Command, args: readonly string[] = []): number => {
  if (error instanceof UsageError) {
    // The problem and a one-line hint; the full help is for --help.
    io.err(
      json
        ? JSON.stringify({ error: { code: 'USAGE', message: error.message } })
        : `${error.message}\n${usageHint(error.command)}`,
    );
    return EXIT_CODES.USAGE;
  }
  if (error instanceof GttGatewayError) {
    const exitCode = exitCodeFor(error);
    const hint = hintFor(error, command, args);
    io.err(
      json
        ? JSON.stringify({ error: { ...error.toJSON(), exitCode, ...(hint === undefined ? {} : { hint }) } })
        : `${errorText(error)}${hint === undefined ? '' : `\n  next: ${hint}`}`,
    );
    return exitCode;
  }
  io.err(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return EXIT_CODES.CONFIGURATION;
};

/** Runs one command; resolves with the exit code. `signal` interrupts the call (Ctrl-C when run as a program). */
export const main = async (
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Io = defaultIo,
  signal?: AbortSignal,
): Promise<number> => {
  let json = argv.includes('--json');
  let command: Command | undefined;
  let args: readonly string[] = [];
  try {
    const { values, positionals, unknown } = parse(argv, ALL_FLAGS, (word) => commandNamed(word) !== undefined);
    json = values.json === true;
    if (values.version) {
      io.out(json ? JSON.stringify({ version: version() }) : `gtt-gateway ${version()}`);
      return EXIT_CODES.OK;
    }
    if (values.help) {
      // `plan-create --help`: that command's flags only; `--help` alone: every command.
      const named = positionals[0] === undefined ? undefined : commandNamed(positionals[0]);
      io.out(named ? commandUsage(named) : USAGE);
      return EXIT_CODES.OK;
    }
    const [name, ...rest] = positionals;
    args = rest;
    command = name === undefined ? undefined : commandNamed(name);
    if (!command) {
      const f = new Flags(values);
      f.unknownFlags(
        unknown,
        ALL_FLAGS.map((flag) => flag.name),
      );
      const meant =
        name === undefined
          ? undefined
          : closest(
              name,
              COMMANDS.map((c) => c.name),
            );
      f.problem(
        name === undefined
          ? 'no command given'
          : `unknown command ${JSON.stringify(name)}${meant === undefined ? '' : ` (did you mean ${meant}?)`}`,
      );
      f.check();
      return EXIT_CODES.USAGE; // not reached: check() throws the problem just named
    }
    const checked = validate(command, values, args, env, unknown);
    return await execute(
      command,
      checked.input,
      contextOf(checked, values, io, json, signal),
      values['dry-run'] === true,
    );
  } catch (error) {
    return report(error, json, io, command, args);
  }
};

/**
 * The command line as a program: the process's arguments, Ctrl-C ending the call through the client (so an
 * interrupted order still reports its outcome and idempotency key), and the exit once the output is flushed, without
 * waiting for idle keep-alive sockets. client/cli.ts (under tsx) and client/cli/program.ts (the bundle) call it.
 */
export const runAsProgram = async (): Promise<void> => {
  const interrupt = new AbortController();
  process.once('SIGINT', () => interrupt.abort());
  const code = await main(process.argv.slice(2), process.env, defaultIo, interrupt.signal);
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
};
