/**
 * The CLI (client/cli.ts) bundled once per run by the project's esbuild (vitest's global setup for the `slow`
 * project), so a test runs each command as `node <bundle>` (about 0.15 s) rather than `node --import tsx client/cli.ts`
 * (about 0.8 s: tsx's loader and the transform of every module, in every process). Same source, same Node.js; the
 * packages stay external and resolve from the repository's node_modules. The bundle sits two folders below the root,
 * as client/cli/main.ts does, so its `new URL('../../package.json', import.meta.url)` is still the project's
 * package.json. The setup removes it when the run ends.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { buildSync } from 'esbuild';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    cliBundle: string;
  }
}

const ROOT = resolve(import.meta.dirname, '..', '..');

/** vitest global setup: builds the bundle and gives its path to the tests; removes it at the end. */
export default function setup(project: TestProject): () => void {
  const dir = join(ROOT, 'node_modules', '.cache');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `gtt-cli-test-${process.pid}.mjs`);
  buildSync({
    entryPoints: [join(ROOT, 'client', 'cli.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  project.provide('cliBundle', outfile);
  return () => rmSync(outfile, { force: true });
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
