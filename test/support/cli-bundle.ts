/**
 * The command line as `npm run gtt` runs it: client/cli/program.ts bundled by client/bundle-cli.mjs, the build of
 * `npm run gtt` and of the package's `gtt` bin, with the same options (vitest's global setup for the `slow` project,
 * once per run). So every CLI test run as a child process runs the built program, not the TypeScript under tsx: a
 * bundle that behaved otherwise than the source would fail them. It is built to a file of its own (the package
 * build in test/e2e/client-package.test.ts empties client/dist meanwhile), removed when the run ends. The packages
 * stay external and resolve from the repository's node_modules.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';

import { buildCli, metaOf } from '../../client/bundle-cli.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    cliBundle: string;
  }
}

const ROOT = resolve(import.meta.dirname, '..', '..');

/** vitest global setup: builds the bundle and gives its path to the tests; removes it at the end. */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = join(ROOT, 'node_modules', '.cache', `gtt-cli-test-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, 'gtt.js');
  await buildCli(ROOT, outfile);
  project.provide('cliBundle', outfile);
  return () => {
    rmSync(outfile, { force: true });
    rmSync(metaOf(outfile), { force: true });
    rmSync(dir, { recursive: true, force: true });
  };
}

/** The arguments that start the bundled CLI with `args` under `process.execPath`. */
export const cliArgs = (args: readonly string[]): string[] => [inject('cliBundle'), ...args];

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The bundled CLI run with `args` (and `env` over this process's); never rejects, resolves with the exit code. A run
 * takes a fraction of a second; the bound only ends a hung one, and is generous for a loaded machine.
 */
export const runCli = (args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      cliArgs(args),
      { timeout: 60_000, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout: stdout.toString(), stderr: stderr.toString() });
      },
    );
  });
