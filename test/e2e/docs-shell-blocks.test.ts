/**
 * Every shell block of the README and the docs is accounted for, so the docs cannot drift from what works:
 *
 * - a block between `<!-- e2e-NAME:start/end -->` markers must be run by a test (`readmeBlock('NAME')`);
 * - any other block must be in PLAN: run here against `npm start` (`run`), covered by a named test that shows the
 *   same commands (`covered`, with the text both share), or left out with the reason (`skip`: it needs an AWS
 *   account, or it is what CI itself runs).
 *
 * A new block fails this test until it is given one of these; an entry whose block is gone fails it too.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { docPages } from '../support/doc-pages.js';
import { READY_BOUND_MS, type Started, startNpmStart } from '../support/processes.js';

type Plan = { run: true } | { covered: string; evidence: string } | { skip: string };

const AWS = 'needs an AWS account (a deploy or a call to a deployed stack); infra tests synthesise the same stacks';
/** Keyed `<page>#<n>`: the page's n-th shell block (from 1) that has no e2e markers. */
const PLAN: Record<string, Plan> = {
  'README.md#1': { skip: 'npm install, npm start, npm test (test:fast is part of it): CI runs them (.ci/run)' },
  'CONTRIBUTING.md#1': { skip: 'npm install, npm start, npm test (test:fast is part of it): CI runs them (.ci/run)' },
  'docs/tutorial.md#1': { skip: 'npm install, npm start: CI runs them (.ci/run), and this test runs npm start' },
  'docs/tutorial.md#2': { run: true },
  'docs/tutorial.md#3': { run: true },
  'docs/tutorial.md#4': { run: true },
  'docs/tutorial.md#5': { run: true },
  'docs/how-to/place-an-oco.md#1': { run: true },
  'docs/how-to/move-a-stop.md#1': { run: true },
  'docs/how-to/cancel.md#1': { run: true },
  'docs/how-to/read-positions.md#1': { run: true },
  'docs/how-to/set-a-day-loss-limit.md#1': { covered: 'test/integration/cli-risk.test.ts', evidence: 'risk-set' },
  'docs/how-to/alert-on-other-figures.md#1': {
    covered: 'test/integration/cli-alert-types.test.ts',
    evidence: 'change-below',
  },
  'docs/how-to/alert-on-other-figures.md#2': { covered: 'test/contract/emulator-alert-types.test.ts', evidence: 'atp' },
  'docs/how-to/give-an-assistant-exit-only-rights.md#1': {
    covered: 'test/integration/mcp-exit-only.test.ts',
    evidence: 'exit',
  },
  'docs/how-to/keep-positions-covered.md#1': {
    covered: 'test/integration/coverage.test.ts',
    evidence: '/positions/coverage',
  },
  'docs/how-to/keep-positions-covered.md#2': {
    covered: 'test/integration/coverage.test.ts',
    evidence: '/positions/coverage',
  },
  'docs/how-to/keep-positions-covered.md#3': { covered: 'test/integration/coverage.test.ts', evidence: 'autoCover' },
  'docs/how-to/keep-positions-covered.md#4': {
    covered: 'test/integration/coverage.test.ts',
    evidence: '/positions/coverage',
  },
  'docs/how-to/keep-positions-covered.md#5': {
    covered: 'test/integration/cli-coverage.test.ts',
    evidence: 'coverage-set',
  },
  'docs/how-to/close-a-position.md#1': {
    covered: 'test/integration/close-position.test.ts',
    evidence: '/positions/close',
  },
  'docs/how-to/close-a-position.md#2': { covered: 'test/integration/cli-close.test.ts', evidence: 'close NSE:INFY-EQ' },
  'docs/how-to/bracket-and-trailing-stop.md#1': { run: true },
  'docs/how-to/connect-tradingview.md#1': { run: true },
  'docs/how-to/sandbox-market.md#1': { run: true },
  'docs/how-to/kill-switch.md#1': {
    covered: 'test/integration/cli-kill-switch-incomplete.test.ts',
    evidence: 'kill-switch on',
  },
  'docs/how-to/add-an-assistant.md#1': { covered: 'test/e2e/mcp-stdio.test.ts', evidence: '--read-only' },
  'docs/how-to/add-an-assistant.md#2': {
    skip: 'needs Claude Code; it starts the npm run --silent mcp of the block before',
  },
  'docs/how-to/add-an-assistant.md#3': {
    covered: 'test/integration/cli-assistants.test.ts',
    evidence: '--max-orders-per-day',
  },
  'docs/how-to/notifications.md#1': { skip: AWS },
  'docs/how-to/notifications.md#2': { skip: AWS },
  'docs/how-to/deploy.md#1': { skip: AWS },
  'docs/how-to/deploy.md#2': { skip: 'checks a deployed API (<api>); the CLI e2e runs each command locally' },
  'docs/how-to/daily-login.md#1': {
    skip: 'the daily routine against a deployed API (<api>); the CLI e2e runs each command locally',
  },
  'docs/how-to/several-accounts.md#1': { skip: AWS },
  'docs/how-to/step-functions-workflow.md#1': { skip: AWS },
  'docs/reference/assistants.md#1': { covered: 'test/e2e/mcp-stdio.test.ts', evidence: '--read-only' },
  'docs/reference/assistants.md#2': {
    skip: 'needs Claude Code and a deployed stack (<api-id>); test/e2e/mcp-http.test.ts',
  },
  'docs/reference/assistants.md#3': {
    covered: 'test/integration/cli-assistants.test.ts',
    evidence: '--max-orders-per-day',
  },
  'docs/explanation/brokers.md#1': { skip: AWS },
  'docs/reference/client.md#1': { covered: 'test/e2e/client-package.test.ts', evidence: 'npm pack' },
  'docs/reference/client.md#2': { covered: 'test/e2e/client-package.test.ts', evidence: 'gtt-mcp' },
  'docs/reference/client.md#3': { run: true },
  'docs/reference/console.md#1': { covered: 'test/integration/cli-console-users.test.ts', evidence: 'console-user' },
  'docs/reference/deploying.md#1': { skip: AWS },
  'docs/explanation/egress.md#1': { skip: AWS },
  'docs/explanation/egress.md#2': { skip: AWS },
  'docs/reference/emulator.md#1': { covered: 'test/e2e/readme-emulator.test.ts', evidence: 'emulator' },
  'docs/reference/events.md#1': { skip: AWS },
  'docs/reference/events.md#2': { skip: AWS },
  'docs/reference/events.md#3': {
    covered: 'test/e2e/notify-telegram.test.ts',
    evidence: "NOTIFY_FORMAT: 'telegram'",
  },
};

const ROOT = join(import.meta.dirname, '..', '..');
const PAGES = ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', ...docPages()];

interface Block {
  key: string;
  marker?: string;
  text: string;
}

const blocksOf = (page: string): Block[] => {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const blocks: Block[] = [];
  let n = 0;
  for (const match of text.matchAll(/(<!-- e2e-([\w-]+):start -->\s*)?```(?:sh|bash|shell|console)\n([\s\S]*?)```/g)) {
    if (match[2]) blocks.push({ key: `${page}:e2e-${match[2]}`, marker: match[2], text: match[3]! });
    else blocks.push({ key: `${page}#${++n}`, text: match[3]! });
  }
  return blocks;
};
const BLOCKS = PAGES.flatMap(blocksOf);
const TESTS = readdirSync(join(ROOT, 'test'), { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => readFileSync(join(ROOT, 'test', f), 'utf8'))
  .join('\n');

describe('every shell block of the docs', () => {
  it('is run by a test, covered by one, or left out with a reason; PLAN has no stale entry', () => {
    const unplanned = BLOCKS.filter((b) => !b.marker && !(b.key in PLAN)).map((b) => b.key);
    expect(unplanned, 'add these blocks to PLAN (run, covered or skip with a reason)').toEqual([]);
    const keys = new Set(BLOCKS.map((b) => b.key));
    expect(Object.keys(PLAN).filter((key) => !keys.has(key))).toEqual([]);
    for (const block of BLOCKS.filter((b) => b.marker))
      expect(TESTS, `${block.key}: no test runs readmeBlock('${block.marker}')`).toContain(
        `readmeBlock('${block.marker}')`,
      );
  });

  it('a covered block: its test exists and shows the same commands', () => {
    for (const [key, plan] of Object.entries(PLAN)) {
      if (!('covered' in plan)) continue;
      const block = BLOCKS.find((b) => b.key === key)!;
      expect(block.text, key).toContain(plan.evidence.replace(/^NOTIFY_FORMAT: 'telegram'$/, 'NOTIFY_FORMAT=telegram'));
      expect(readFileSync(join(ROOT, plan.covered), 'utf8'), key).toContain(plan.evidence);
    }
  });
});

describe('the runnable blocks, against npm start', () => {
  let started: Started;
  beforeAll(async () => {
    started = await startNpmStart();
  });
  afterAll(() => started?.stop());

  const runnable = Object.entries(PLAN).filter(([, plan]) => 'run' in plan);
  it.each(runnable.map(([key]) => key))("%s runs as written (with npm start's port), exit 0", async (key) => {
    const url = started.match[1]!;
    const script = BLOCKS.find((b) => b.key === key)!.text.replaceAll('http://127.0.0.1:3000', url);
    const result = await new Promise<{ code: number; out: string }>((resolve) => {
      execFile(
        'bash',
        ['-euo', 'pipefail', '-c', script],
        { cwd: ROOT, timeout: READY_BOUND_MS, env: { ...process.env, GTT_API_URL: url } },
        (error, stdout, stderr) =>
          resolve({
            code: error ? (typeof error.code === 'number' ? error.code : -1) : 0,
            out: `${stdout}${stderr}`,
          }),
      );
    });
    expect(result.code, result.out).toBe(0);
  });
});
