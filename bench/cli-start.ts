/**
 * The command line's start (issue 58, item 7): how long `gtt --help` and `gtt list` against the local API take as a
 * fresh process, the built program (client/dist/gtt.js, bare and through `npm run gtt`'s launcher and npm itself)
 * against the TypeScript under tsx (the script before) and against `curl` of the same call. Medians of interleaved
 * rounds, ms of wall clock per process, on this machine as loaded as it is: a measurement, never an assertion.
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';

import { ensureCli } from '../client/bundle-cli.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const BUNDLE = join(ROOT, 'client', 'dist', 'gtt.js');

/** The target of item 7: an answer within this on an idle machine. */
export const CLI_START_TARGET_MS = 300;

export interface CliStartRow {
  command: string;
  nodeBareMs: number;
  builtMs: number;
  launcherMs: number;
  npmRunMs: number;
  tsxMs: number;
  curlMs: number | string;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]!);
};

/**
 * One process's wall-clock time; rejects when it fails (a timed error is no measurement). Asynchronous: the local
 * API answering `list` runs in this process.
 */
const timed = (command: string, args: readonly string[]): Promise<number> =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    execFile(command, args, { cwd: ROOT, timeout: 120_000 }, (error, _stdout, stderr) => {
      const ms = performance.now() - started;
      if (error) reject(new Error(`${command} ${args.join(' ')}: ${error.message}: ${stderr}`));
      else resolve(ms);
    });
  });

export const measureCliStart = async (apiUrl: string, rounds: number): Promise<CliStartRow[]> => {
  await ensureCli(ROOT, BUNDLE);
  const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
  const cases: { command: string; args: string[]; curl?: string[] }[] = [
    { command: 'gtt --help', args: ['--help'] },
    {
      command: 'gtt list',
      args: ['list', '--url', apiUrl],
      curl: ['-sf', '-o', '/dev/null', `${apiUrl}/gtt-orders`],
    },
  ];
  const rows: CliStartRow[] = [];
  for (const c of cases) {
    const times = { nodeBare: [] as number[], built: [] as number[], launcher: [] as number[] };
    const more = { npmRun: [] as number[], tsx: [] as number[], curl: [] as number[] };
    for (let i = 0; i < rounds; i++) {
      times.nodeBare.push(await timed(process.execPath, ['-e', '0']));
      times.built.push(await timed(process.execPath, [BUNDLE, ...c.args]));
      times.launcher.push(await timed(process.execPath, [join(ROOT, 'client', 'run-gtt.mjs'), ...c.args]));
      more.npmRun.push(await timed('npm', ['run', '-s', 'gtt', '--', ...c.args]));
      more.tsx.push(await timed(tsx, [join(ROOT, 'client', 'cli.ts'), ...c.args]));
      if (c.curl) more.curl.push(await timed('curl', c.curl));
    }
    rows.push({
      command: c.command,
      nodeBareMs: median(times.nodeBare),
      builtMs: median(times.built),
      launcherMs: median(times.launcher),
      npmRunMs: median(more.npmRun),
      tsxMs: median(more.tsx),
      curlMs: c.curl ? median(more.curl) : '-',
    });
  }
  return rows;
};
