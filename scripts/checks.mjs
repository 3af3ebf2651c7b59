// `npm run checks`: the static checks `npm test` runs beside vitest (types, lint, format, the generated client's and
// handler files' drift), side by side: on two cores they end in about the time of the slowest (lint) instead of the
// sum. Each check's output is printed whole when it ends, so lines never interleave; the exit code is 1 if any failed.
// `--background` (scripts/test.mjs) runs them at the lowest CPU priority, inherited by every check it starts.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

if (process.argv.includes('--background')) setPriority(19);

const CHECKS = ['typecheck', 'lint', 'format:check', 'client:check', 'handlers:check'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// Each check in a process group of its own, so a stop (Ctrl-C, or npm test stopped) ends npm and what it started.
const children = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already ended
      }
    }
    process.exit(1);
  });
}

const run = (name) =>
  new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(npm, ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.add(child);
    child.on('exit', () => children.delete(child));
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    const finish = (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const text = Buffer.concat(output).toString().trimEnd();
      process.stdout.write(
        `${code === 0 ? 'ok  ' : 'FAIL'} ${name} (${seconds} s)\n${text && code !== 0 ? `${text}\n` : ''}`,
      );
      resolve(code === 0);
    };
    child.on('error', (error) => {
      output.push(Buffer.from(String(error)));
      finish(-1);
    });
    child.on('close', (code) => finish(code ?? -1));
  });

const results = await Promise.all(CHECKS.map(run));
const failed = CHECKS.filter((_, i) => !results[i]);
if (failed.length > 0) {
  process.stdout.write(`failed: ${failed.join(', ')}; run each with npm run <name>\n`);
  process.exit(1);
}
