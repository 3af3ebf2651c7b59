/**
 * What a command of the command line is: one entry of the table (commands/index.ts) with its name, arguments,
 * flags, summary and whether it takes --dry-run (all the usage is generated from), how it reads its input, how it
 * runs on the client and how its result is shown.
 */
import type { GttClient } from '../client.js';
import type { GttGatewayError } from '../errors.js';
import type { CallOptions, OrderOptions } from '../types.js';
import type { Flags } from './flags.js';

/**
 * How the command line is run: usage lines and hints name commands with it. The repository's script by default; the
 * package's `gtt` bin names itself (`nameProgram`, client/cli/program.ts).
 */
export let PROGRAM = 'npm run gtt --';

/** Usage lines and hints name the program so from now on. */
export const nameProgram = (name: string): void => {
  PROGRAM = name;
};

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** A flag: `--name VALUE`, or a switch when it has no `value`. */
export interface FlagSpec {
  name: string;
  /** What the usage shows as its value (`NSE`, `N`); none: a switch. */
  value?: string;
  /** Shown in [brackets]: the command runs without it. */
  optional?: boolean;
  /** May be given more than once (a list of name=value pairs). */
  repeats?: boolean;
}

/** A flag the command needs, shown with an example value. */
export const needs = (name: string, value: string): FlagSpec => ({ name, value });
/** A flag the command runs without: with a value, or a switch. */
export const may = (name: string, value?: string): FlagSpec =>
  value === undefined ? { name, optional: true } : { name, value, optional: true };
/** A flag that may be given again and again. */
export const repeats = (name: string, value: string): FlagSpec => ({ name, value, optional: true, repeats: true });
/** A flag the command needs at least once, and may be given again (`gtt plan-legs --leg`). */
export const needsEach = (name: string, value: string): FlagSpec => ({ name, value, repeats: true });

/** What a command runs with. */
export interface Context {
  /** The client, made on first use: commands that never call the API never make one. */
  readonly client: GttClient;
  /** The API's address: --url, the profile's, $GTT_API_URL or npm start's. */
  readonly baseUrl: string;
  readonly json: boolean;
  readonly io: Io;
  /** Ctrl-C when run as a program. */
  readonly signal: AbortSignal | undefined;
  /** The options of a read: the signal. */
  readonly callOptions: CallOptions;
  /** The options of an order call: the signal, --dry-run and --key. */
  readonly orderOptions: OrderOptions;
}

interface CommandBase<I> {
  name: string;
  /** Positional arguments, by name. */
  args?: readonly string[];
  /** The command's own flags (the global ones are in global-flags.ts), in the order the usage shows them. */
  flags: readonly FlagSpec[];
  /** Whether it takes --dry-run. */
  dryRun?: boolean;
  /** What it does, for the usage (wrapped there). */
  summary: string;
  /** Reads the command's flags and arguments; every problem goes to `f`, to be named together. */
  input?: (f: Flags, args: readonly string[]) => I;
  /** Checks that need the API's address (after --profile is read). */
  checkTarget?: (f: Flags, input: I, baseUrl: string) => void;
  /** A line after the gateway's refusal saying which command to run instead (an OCO's modify-oco), if it applies. */
  hint?: (error: GttGatewayError, args: readonly string[]) => string | undefined;
}

/** A command with a result: JSON with --json, the broker request on a dry run, else what `render` makes of it. */
export interface ResultCommand<I, R> extends CommandBase<I> {
  run: (ctx: Context, input: I) => Promise<R>;
  /** The human text of the result; `'json'`: the result as JSON in every case. */
  render: ((result: R) => string) | 'json';
  /** The exit code a result gives (default 0). */
  exitCode?: (result: R) => number;
}

/** A command that writes as it goes (a login that waits, the sandbox's price); resolves with the exit code. */
export interface OwnOutputCommand<I> extends CommandBase<I> {
  run: (ctx: Context, input: I) => Promise<number>;
  render: 'self';
}

export type Command<I = unknown, R = unknown> = ResultCommand<I, R> | OwnOutputCommand<I>;

/** One entry of the table, its input and result types checked here and erased for the table. */
export const command = <I = undefined, R = unknown>(entry: ResultCommand<I, R> | OwnOutputCommand<I>): Command =>
  // Sound: the dispatcher gives each command only the input that command's own `input` made.
  entry as unknown as Command;
