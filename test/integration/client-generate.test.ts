/**
 * `npm run client:types` / `npm run client:check` (client/generate.ts): the client's generated files are what the
 * operation table's OpenAPI document gives, and any drift fails the check.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { generate, generatedFiles } from '../../client/generate.js';

const dir = mkdtempSync(join(tmpdir(), 'gtt-client-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'client/generate.ts', ...args],
      { timeout: 120_000 }, // tsx's start and the generator, on a loaded machine too
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : -1) : 0,
          stdout: stdout.toString(),
          stderr: stderr.toString(),
        }),
    );
  });

describe('client:types and client:check', () => {
  it('the checked-in files are exactly what the operation table generates', async () => {
    for (const [path, fresh] of Object.entries(await generate())) expect(readFileSync(path, 'utf8'), path).toBe(fresh);
  });

  it('the check passes on freshly generated files and fails on any drift, naming the file', async () => {
    const files = generatedFiles(dir);
    expect((await run(['--dir', dir])).code).toBe(0);
    expect((await run(['--check', '--dir', dir])).code).toBe(0);

    writeFileSync(files.types, readFileSync(files.types, 'utf8').replace('"OI created"', '"OI made"'));
    const drifted = await run(['--check', '--dir', dir]);
    expect(drifted.code).toBe(1);
    expect(drifted.stderr).toContain(`${files.types}: differs from the operation table`);
    expect(drifted.stderr).toContain('npm run client:types');

    unlinkSync(files.operations);
    expect((await run(['--check', '--dir', dir])).stderr).toContain(`${files.operations}: missing`);
  });
});
