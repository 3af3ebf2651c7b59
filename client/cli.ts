/**
 * `npm run gtt -- <command> [flags]`: the command line of the typed client (docs/reference/client.md). Human output by
 * default (a table for lists), `--json` for scripts; exit codes by error class (client/exit-codes.ts). The commands
 * are a table (cli/commands/), the usage is generated from it (cli/usage.ts), and cli/main.ts dispatches. `npm run
 * gtt` runs the bundle of cli/program.ts (client/run-gtt.mjs builds it when a source is newer); this file runs under tsx.
 */
import { fileURLToPath } from 'node:url';

import { runAsProgram } from './cli/main.js';

export type { Io } from './cli/command.js';
export { LOGIN_POLL_MS } from './cli/commands/session.js';
export { cliAccepts } from './cli/flags.js';
export { DEFAULT_URL } from './cli/global-flags.js';
export { main, version } from './cli/main.js';
export { USAGE, usageHint } from './cli/usage.js';

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await runAsProgram();
