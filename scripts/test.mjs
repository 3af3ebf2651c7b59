// `npm test`: the static checks (scripts/checks.mjs) and every test (vitest) side by side. The checks run at the
// lowest CPU priority, so they take only the CPU the tests leave idle (much of a test's time is spent waiting on
// timers and sockets) and never slow a test down; their output is printed whole after vitest's. The exit code is 1
// if either failed. `npm run checks` and `npx vitest run` run each alone.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import process from 'node:process';

const checksOutput = [];
const checks = spawn(process.execPath, ['scripts/checks.mjs', '--background'], { stdio: ['ignore', 'pipe', 'pipe'] });
checks.stdout.on('data', (chunk) => checksOutput.push(chunk));
checks.stderr.on('data', (chunk) => checksOutput.push(chunk));
const checksDone = new Promise((resolve) => {
  checks.on('error', (error) => resolve({ code: 1, error }));
  checks.on('close', (code) => resolve({ code: code ?? 1 }));
});

const vitest = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
const vitestDone = new Promise((resolve) => {
  vitest.on('error', () => resolve(1));
  vitest.on('close', (code) => resolve(code ?? 1));
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    checks.kill(signal);
    vitest.kill(signal);
  });
}

const testsCode = await vitestDone;
const { code: checksCode, error } = await checksDone;
process.stdout.write(`\nstatic checks:\n${Buffer.concat(checksOutput).toString()}${error ? `${error}\n` : ''}`);
process.exit(testsCode === 0 && checksCode === 0 ? 0 : 1);
