/**
 * The command line as a built program (docs/reference/client.md#the-command-line-as-a-built-program): `npm run gtt` is
 * client/run-gtt.mjs, which runs client/dist/gtt.js and first rebuilds it when a source is newer. The bundle records
 * its inputs, is rebuilt when it is older than one of them or one is gone, and holds nothing of the gateway; the
 * launcher answers `--version` and a `list` against the local stack. (Every CLI test run as a child process runs
 * the same build: test/support/cli-bundle.ts.)
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { cliIsStale, ensureCli, metaOf } from '../../client/bundle-cli.mjs';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';

const exec = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
};

let dir: string;
let stack: LocalStack;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gtt-cli-built-'));
  stack = await startLocalStack();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stack?.close();
});

describe('the bundle and when it is rebuilt', () => {
  it('is built when missing, kept while fresh, rebuilt when older than a source or its record is gone', async () => {
    const outfile = join(dir, 'gtt.js');
    expect(cliIsStale(ROOT, outfile)).toBe(true);
    expect(await ensureCli(ROOT, outfile)).toBe(true);
    expect(readFileSync(outfile, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    expect(await ensureCli(ROOT, outfile)).toBe(false);

    // Older than its sources, as after a `git pull` or an edit: rebuilt.
    utimesSync(outfile, new Date('2001-01-01'), new Date('2001-01-01'));
    expect(cliIsStale(ROOT, outfile)).toBe(true);
    expect(await ensureCli(ROOT, outfile)).toBe(true);
    expect(cliIsStale(ROOT, outfile)).toBe(false);

    // No record of its inputs: it cannot be checked, so it is rebuilt.
    rmSync(metaOf(outfile));
    expect(cliIsStale(ROOT, outfile)).toBe(true);
  });

  it('holds the command line and the client only: no module of the gateway, the emulator or tsx', async () => {
    const outfile = join(dir, 'inputs', 'gtt.js');
    await ensureCli(ROOT, outfile);
    const inputs = JSON.parse(readFileSync(metaOf(outfile), 'utf8')) as string[];
    expect(inputs).toEqual(expect.arrayContaining(['client/cli/program.ts', 'client/cli/main.ts', 'client/client.ts']));
    expect(inputs.filter((file) => !/^client\/[\w./-]+\.ts$/.test(file))).toEqual([]);
    // The packages the client depends on are loaded where it runs, not copied in.
    const text = readFileSync(outfile, 'utf8');
    expect(text).toMatch(/from "openapi-fetch"/);
    expect(text).toMatch(/import\("aws4fetch"\)/);
  });
});

describe('npm run gtt', () => {
  it('is the launcher of the built program', () => {
    expect(pkg.scripts.gtt).toBe('node client/run-gtt.mjs');
    const client = JSON.parse(readFileSync(join(ROOT, 'client', 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(client.bin.gtt).toBe('./dist/gtt.js');
  });

  it('answers --version and a list against the local stack', async () => {
    const launcher = join(ROOT, 'client', 'run-gtt.mjs');
    const version = await exec(process.execPath, [launcher, '--version'], { timeout: 120_000 });
    expect(version.stdout.trim()).toBe(`gtt-gateway ${pkg.version}`);
    const list = await exec(process.execPath, [launcher, 'list', '--url', stack.api.url], { timeout: 120_000 });
    expect(list).toMatchObject({ stdout: 'no pending GTT orders\n', stderr: '' });
    expect(cliIsStale(ROOT, join(ROOT, 'client', 'dist', 'gtt.js'))).toBe(false);
  });
});
