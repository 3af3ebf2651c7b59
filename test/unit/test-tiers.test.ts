/**
 * The test tiers (vitest.config.ts, test/README.md): `npm run test:fast` is unit and contract tests only, so no file
 * of test/unit or test/contract starts a child process or a browser (those are in test/integration and test/e2e);
 * and no test anywhere asserts on elapsed time (on a loaded machine any such bound is a coin toss): tests wait for
 * conditions, and a test about time uses a fake clock.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** This file, which names the patterns it looks for. */
const SELF = relative(ROOT, fileURLToPath(import.meta.url));

const filesUnder = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(dir, file))
    .filter((file) => file !== SELF);

/** What starts a process or a browser: Node's child_process, the browser drivers, the helpers that use them. */
const SPAWNS =
  /from '(node:)?child_process'|from 'playwright(-core)?'|from 'puppeteer|support\/(processes|browser|console-fixture|cli-bundle)\.js'/;

/** An expectation on a wall-clock difference: `expect(Date.now() - started)`, `expect(performance.now() - t0)`. */
const ELAPSED_ASSERT = /expect\(\s*(Date\.now\(\)|performance\.now\(\)|process\.hrtime)[^)]*-/;

describe('test tiers', () => {
  it('no unit or contract test starts a child process or a browser', () => {
    const fast = [...filesUnder('test/unit'), ...filesUnder('test/contract')];
    expect(fast.length).toBeGreaterThan(50);
    const spawning = fast.filter((file) => SPAWNS.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(spawning, 'move them to test/integration or test/e2e').toEqual([]);
  });

  it('no test asserts on elapsed wall-clock time', () => {
    const timed = filesUnder('test').filter((file) => ELAPSED_ASSERT.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(timed, 'wait for a condition, or count attempts, instead').toEqual([]);
  });
});
