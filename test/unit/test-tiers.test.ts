/**
 * The test tiers (vitest.config.ts, test/README.md): `npm run test:fast` is unit and contract tests only, so no file
 * of test/unit or test/contract starts a child process or a browser (those are in test/integration and test/e2e).
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

describe('test tiers', () => {
  it('no unit or contract test starts a child process or a browser', () => {
    const fast = [...filesUnder('test/unit'), ...filesUnder('test/contract')];
    expect(fast.length).toBeGreaterThan(50);
    const spawning = fast.filter((file) => SPAWNS.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(spawning, 'move them to test/integration or test/e2e').toEqual([]);
  });
});
