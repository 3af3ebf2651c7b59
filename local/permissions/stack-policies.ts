/**
 * The synthesized stacks' permissions (infra/scripts/stack-permissions.ts), synthesized once and kept on disk until
 * the code that makes them changes: the file is named by a hash of infra/, functions/, cdk.json and the lockfile.
 * A synthesis takes about 20 s of CPU (CDK's app and cdk-nag, bundling skipped), in a child process so this one
 * never holds the CDK in memory. Processes starting together (test workers) wait for the first one's file.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { join, relative } from 'node:path';

import type { StackPermissions } from '../../infra/scripts/stack-permissions.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'gtt-gateway');
const SCRIPT = join(ROOT, 'infra', 'scripts', 'stack-permissions.ts');
/** A synthesis that takes longer than this is stuck (or its process died): the next one takes over. */
const STALE_LOCK_MS = 240_000;

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path);
    return entry.name.endsWith('.ts') || entry.name.endsWith('.json') ? [path] : [];
  });

/**
 * What the permissions are made from: the CDK app, the functions' definitions and grants (the MCP function's from the
 * tools' operations, mcp/), the CDK's versions.
 */
export const permissionsHash = (): string => {
  const hash = createHash('sha256');
  const files = [
    ...filesUnder(join(ROOT, 'infra')),
    ...filesUnder(join(ROOT, 'functions')),
    // The remote MCP function's grant is the list of operations its tools call (mcp/operations.ts).
    ...filesUnder(join(ROOT, 'mcp')),
    join(ROOT, 'cdk.json'),
    join(ROOT, 'package-lock.json'),
  ].sort();
  for (const file of files) hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
};

/** The newest few files are kept (worktrees sharing node_modules each have theirs); no abandoned partial or lock. */
const KEPT = 5;
const prune = (): void => {
  const files = readdirSync(CACHE)
    .filter((name) => name.startsWith('permissions-'))
    .map((name) => ({ path: join(CACHE, name), at: statSync(join(CACHE, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  const done = files.filter((f) => f.path.endsWith('.json'));
  const abandoned = files.filter((f) => !f.path.endsWith('.json') && Date.now() - f.at > STALE_LOCK_MS);
  for (const file of [...done.slice(KEPT), ...abandoned]) rmSync(file.path, { force: true });
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const synthesize = (out: string): Promise<void> =>
  new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', SCRIPT, out],
      {
        cwd: ROOT,
        timeout: 300_000,
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' },
      },
      (error, _stdout, stderr) =>
        error
          ? reject(new Error(`synthesizing the stacks' permissions failed: ${stderr || error.message}`))
          : resolve(),
    );
  });

/** Whether the permissions of the code as it is now are on disk already (else the next load synthesizes). */
export const stackPoliciesCached = (): boolean => existsSync(join(CACHE, `permissions-${permissionsHash()}.json`));

let loaded: { hash: string; permissions: Promise<StackPermissions> } | undefined;

/** The stacks' permissions for the code as it is now: from the cache, or synthesized (and then cached). */
export const stackPolicies = (): Promise<StackPermissions> => {
  const hash = permissionsHash();
  if (loaded?.hash === hash) return loaded.permissions;
  const file = join(CACHE, `permissions-${hash}.json`);
  const lock = `${file}.lock`;
  const read = () => JSON.parse(readFileSync(file, 'utf8')) as StackPermissions;
  const permissions = (async () => {
    mkdirSync(CACHE, { recursive: true });
    for (;;) {
      if (existsSync(file)) return read();
      let fd: number | undefined;
      try {
        fd = openSync(lock, 'wx');
      } catch {
        // Another process synthesizes: wait for its file, or take over from one that died.
        if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) unlinkSync(lock);
        await sleep(250);
        continue;
      }
      try {
        const partial = `${file}.${process.pid}.tmp`;
        await synthesize(partial).catch((error: unknown) => {
          rmSync(partial, { force: true });
          throw error;
        });
        renameSync(partial, file);
        prune();
        return read();
      } finally {
        closeSync(fd);
        unlinkSync(lock);
      }
    }
  })();
  loaded = { hash, permissions };
  permissions.catch(() => (loaded = undefined));
  return permissions;
};
