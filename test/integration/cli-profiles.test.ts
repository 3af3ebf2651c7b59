/**
 * Profiles (client/profiles.ts, docs/how-to/several-accounts.md): `--profile NAME` takes a deployment's URL and region from the
 * profiles file; `--url` still wins, a profile beats $GTT_API_URL, and a missing file or name is a usage error that
 * says where it looked (never a call to another deployment).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { loadProfile } from '../../client/index.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';

let stack: LocalStack;
let dir: string;
let file: string;
const DEAD = 'http://127.0.0.1:9';

beforeAll(async () => {
  stack = await startLocalStack();
  dir = mkdtempSync(join(tmpdir(), 'gtt-profiles-'));
  file = join(dir, 'profiles.json');
  writeFileSync(
    file,
    JSON.stringify({
      alice: { url: stack.api.url, region: 'ap-south-1' },
      bob: { url: DEAD },
      broken: { url: 'not a url' },
      clear: { url: 'http://gtt.example.com' },
      lan: { url: 'http://192.168.1.20:3000' },
    }),
  );
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stack.close();
});

const run = async (args: string[], env: Record<string, string> = {}) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { GTT_PROFILES: file, ...env }, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
};

describe('--profile', () => {
  it("takes the profile's URL, and beats $GTT_API_URL", async () => {
    const r = await run(['client', '--profile', 'alice'], { GTT_API_URL: DEAD });
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/^account /);
  });

  it('--url on the command line wins over the profile', async () => {
    expect((await run(['client', '--profile', 'bob', '--url', stack.api.url])).code).toBe(0);
    const dead = await run(['client', '--profile', 'bob', '--attempts', '1']);
    expect(dead.code).not.toBe(0);
    expect(dead.err).toContain('127.0.0.1:9');
  });

  it('a missing name, a missing file or a bad entry is a usage error naming the file; nothing is called', async () => {
    const missing = await run(['client', '--profile', 'carol']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`--profile carol: not in ${file} (it has alice, bob, broken, clear, lan)`);
    const noFile = await run(['client', '--profile', 'alice'], { GTT_PROFILES: join(dir, 'none.json') });
    expect(noFile.code).toBe(2);
    expect(noFile.err).toContain('no profiles file at');
    expect((await run(['client', '--profile', 'broken'])).err).toContain('"url" must be');
  });

  it('a profile with a plain http:// URL to another host is refused when loaded: usage error, nothing called', async () => {
    for (const name of ['clear', 'lan']) {
      const r = await run(['client', '--profile', name]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(
        new RegExp(`--profile ${name}: its "url" http://\\S+ is plain http:// to another host.*use https://`),
      );
      expect(loadProfile(name, { GTT_PROFILES: file })).toMatch(/plain http:\/\/ to another host/);
    }
    // A loopback http:// profile (npm start) is fine.
    expect(loadProfile('bob', { GTT_PROFILES: file })).toEqual({ url: DEAD });
  });

  it('the library reads the same file', () => {
    expect(loadProfile('alice', { GTT_PROFILES: file })).toEqual({ url: stack.api.url, region: 'ap-south-1' });
    expect(loadProfile('carol', { GTT_PROFILES: file })).toMatch(/not in/);
  });
});
