/**
 * The client as a package a trader installs (client/package.json, `@gtt-gateway/client`): `npm pack` in client/
 * builds JavaScript and declarations into dist/ and packs them; the tarball is installed into a fresh temporary
 * project offline (`npm install --offline`: the dependencies come from the npm cache `npm ci` filled, pinned by a
 * lockfile made from the repository's own, so nothing asks a registry); a script there is type-checked by the
 * repository's tsc with no @types/node (`types: []`), compiled, and run by node against a local stack this test
 * starts. A script with a wrong field fails the type-check, so the types are real ones. The package's `gtt-mcp` bin
 * (the MCP server over stdio, bundled from mcp/stdio.ts) answers `--help` through npx and an SDK Client over stdio;
 * its `gtt` bin (the command line, bundled from client/cli/program.ts) answers `--version` and a list.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { READ_TOOL_NAMES } from '../../mcp/read-tools.js';
import { READY_BOUND_MS } from '../support/processes.js';

const exec = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
const TSC = join(ROOT, 'node_modules', '.bin', 'tsc');
const NPM_ENV = {
  ...process.env,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

type LockEntry = {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [k: string]: unknown;
};

/**
 * The lockfile entries of `names` and everything they need, taken from the repository's lockfile (the versions
 * `npm ci` put into the cache), with the paths node resolution gives them there.
 */
const lockClosure = (names: string[]): Record<string, LockEntry> => {
  const packages = (
    JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> }
  ).packages;
  const resolveFrom = (from: string, name: string): string | undefined => {
    for (let base = from; ;) {
      const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
      if (packages[candidate]) return candidate;
      if (!base) return undefined;
      const at = base.lastIndexOf('/node_modules/');
      base = at < 0 ? '' : base.slice(0, at);
    }
  };
  const closure: Record<string, LockEntry> = {};
  const visit = (path: string) => {
    if (closure[path]) return;
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = packages[path]!;
    closure[path] = entry;
    for (const dep of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
      const found = resolveFrom(path, dep);
      if (found) visit(found);
      else if (!entry.optionalDependencies?.[dep])
        throw new Error(`${dep} (needed by ${path}) is not in package-lock.json`);
    }
  };
  for (const name of names) visit(resolveFrom('', name)!);
  return closure;
};

let stack: LocalStack;
let project: string;
let tarball: string;
let pkg: { name: string; version: string; dependencies: Record<string, string>; bin: Record<string, string> };
const clients: Client[] = [];

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'gtt-client-project-'));
  // npm pack runs the package's prepack: the build into client/dist with the repository's tsc.
  const packed = await exec('npm', ['pack', '--json', '--pack-destination', project], {
    cwd: join(ROOT, 'client'),
    env: NPM_ENV,
    timeout: 120_000,
  });
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = info!.filename;
  pkg = JSON.parse(readFileSync(join(ROOT, 'client', 'package.json'), 'utf8')) as typeof pkg;

  const spec = `file:${tarball}`;
  const integrity = `sha512-${createHash('sha512')
    .update(readFileSync(join(project, tarball)))
    .digest('base64')}`;
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify(
      { name: 'my-trading-scripts', private: true, type: 'module', dependencies: { [pkg.name]: spec } },
      null,
      2,
    ),
  );
  writeFileSync(
    join(project, 'package-lock.json'),
    JSON.stringify(
      {
        name: 'my-trading-scripts',
        lockfileVersion: 3,
        requires: true,
        packages: {
          '': { name: 'my-trading-scripts', dependencies: { [pkg.name]: spec } },
          [`node_modules/${pkg.name}`]: {
            version: pkg.version,
            resolved: spec,
            integrity,
            license: 'Apache-2.0',
            dependencies: pkg.dependencies,
            // npm links bins from the lockfile's entry: without this, no node_modules/.bin/gtt-mcp.
            bin: pkg.bin,
          },
          ...lockClosure(Object.keys(pkg.dependencies)),
        },
      },
      null,
      2,
    ),
  );
  await exec('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: project,
    env: NPM_ENV,
    timeout: 120_000,
  });
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022', 'DOM'],
        types: [],
        strict: true,
        skipLibCheck: false,
        outDir: 'out',
      },
      include: ['script.ts'],
    }),
  );
  stack = await startLocalStack();
}, 300_000);

afterAll(async () => {
  for (const client of clients) await client.close();
  await stack?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

const script = (
  url: string,
) => `import { createGttClient, GttGatewayError, type GttOrderInput } from '@gtt-gateway/client';

const gtt = createGttClient({ baseUrl: '${url}' });
const order: GttOrderInput = { exch: 'NSE', tsym: 'M&M-EQ', qty: 1, prc: '1500', prd: 'C', trantype: 'B', prctyp: 'LMT', ret: 'DAY', ai_t: 'LTP_B_O', d: '1490' };
const placed = await gtt.placeOrder(order, { idempotencyKey: 'package-test-1' });
const again = await gtt.placeOrder(order, { idempotencyKey: 'package-test-1' });
const listed = (await gtt.listOrders({ exch: 'NSE' })).orders.map((o) => o.al_id);
let refused = '';
try {
  await gtt.placeOrder({ ...order, qty: 0 }, { idempotencyKey: 'package-test-2' });
} catch (e) {
  if (e instanceof GttGatewayError) refused = e.code;
  else throw e;
}
console.log(JSON.stringify({ al_id: placed.al_id, replayed: again.idempotency?.replayed, listed, refused }));
`;

describe('the packed client in a fresh project', () => {
  it('the tarball holds the built JavaScript and declarations, and only the client runtime dependencies', () => {
    const listing = readFileSync(join(project, 'node_modules', pkg.name, 'package.json'), 'utf8');
    expect(JSON.parse(listing)).toMatchObject({ name: '@gtt-gateway/client', types: './dist/index.d.ts' });
    expect(Object.keys(pkg.dependencies).sort()).toEqual([
      '@aws-sdk/credential-provider-node',
      '@modelcontextprotocol/sdk',
      'aws4fetch',
      'openapi-fetch',
      'zod',
    ]);
    const files = ['index.js', 'index.d.ts', 'client.js', 'generated/openapi.d.ts', 'generated/operations.js'];
    for (const file of [...files, 'gtt-mcp.js']) {
      expect(() => readFileSync(join(project, 'node_modules', pkg.name, 'dist', file)), file).not.toThrow();
    }
  });

  it('a script type-checks without @types/node, compiles and runs against the local stack', async () => {
    writeFileSync(join(project, 'script.ts'), script(stack.api.url));
    await exec(TSC, ['-p', project], { cwd: project, timeout: 120_000 });
    const { stdout } = await exec(process.execPath, [join(project, 'out', 'script.js')], {
      cwd: project,
      timeout: READY_BOUND_MS,
    });
    const result = JSON.parse(stdout) as { al_id: string; replayed: boolean; listed: string[]; refused: string };
    expect(result.al_id).toMatch(/^\d{14}$/);
    expect(result.replayed).toBe(true);
    expect(result.listed).toEqual([result.al_id]);
    expect(result.refused).toBe('VALIDATION_FAILED');
  });

  it('the types are real: a wrong field fails the type-check', async () => {
    writeFileSync(join(project, 'script.ts'), script(stack.api.url).replace("exch: 'NSE'", 'exch: 42'));
    const failure = (await exec(TSC, ['-p', project, '--noEmit'], { cwd: project, timeout: 120_000 }).then(
      () => undefined,
      (e: unknown) => e,
    )) as { stdout?: string } | undefined;
    expect(failure?.stdout).toMatch(/script\.ts\(\d+,\d+\): error TS2322: .*number.* is not assignable/);
  });
});

describe('the gtt-mcp bin of the packed client', () => {
  const bin = () => join(project, 'node_modules', pkg.name, 'dist', 'gtt-mcp.js');

  /** An SDK Client spawning the installed bin with node, as an assistant's config does through npx. */
  const mcpClient = async (extra: string[] = []): Promise<Client> => {
    const client = new Client({ name: 'client-package-test', version: '1.0.0' });
    const connecting = client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin(), '--url', stack.api.url, ...extra],
        cwd: project,
        env: { ...(process.env as Record<string, string>), POWERTOOLS_LOG_LEVEL: 'SILENT' },
        stderr: 'pipe',
      }),
    );
    clients.push(client);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`gtt-mcp did not answer initialize in ${READY_BOUND_MS / 1000} s`)),
        READY_BOUND_MS,
      );
    });
    await Promise.race([connecting, timeout]).finally(() => clearTimeout(timer));
    return client;
  };

  it('is one bundled file of the client, the MCP server and the schema files, with a node shebang', () => {
    expect(pkg.bin).toEqual({ gtt: './dist/gtt.js', 'gtt-mcp': './dist/gtt-mcp.js' });
    expect(readFileSync(bin(), 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    // The build writes the bundle's inputs next to it in client/dist (not packed).
    const inputs = JSON.parse(readFileSync(join(ROOT, 'client', 'dist', 'gtt-mcp.meta.json'), 'utf8')) as string[];
    expect(inputs).toContain('mcp/stdio.ts');
    expect(inputs).toContain('client/client.ts');
    const outside = inputs.filter((f) => !/^(client|mcp|functions\/base\/schemas)\/[\w./-]+\.ts$/.test(f));
    // The gateway's PATCH merge, so that a change previewed by an assistant is held to its limits as it will be sent
    // (mcp/limits.ts): a pure function of the schemas, nothing of the server's.
    expect(outside.sort()).toEqual(['functions/base/broker/order-version.ts', 'functions/base/broker/patch-merge.ts']);
  });

  it('`npx -p @gtt-gateway/client gtt-mcp --help` prints the usage and exits 0; without -p npx is refused', async () => {
    const { stdout } = await exec('npx', ['--offline', '-y', '-p', pkg.name, 'gtt-mcp', '--help'], {
      cwd: project,
      env: NPM_ENV,
      timeout: READY_BOUND_MS,
    });
    expect(stdout).toMatch(/^usage: gtt-mcp \[--url URL \| --profile NAME\]/);
    // Without -p, npx cannot tell which of the package's two bins (gtt, gtt-mcp) to run: refused, nothing started.
    const bare = (await exec('npx', ['--offline', '-y', pkg.name, 'gtt-mcp', '--help'], {
      cwd: project,
      env: NPM_ENV,
      timeout: READY_BOUND_MS,
    }).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number; stderr?: string } | undefined;
    expect(bare?.code).not.toBe(0);
    expect(bare?.stderr).toContain('could not determine executable to run');
    const refused = (await exec(process.execPath, [bin(), '--bogus'], { timeout: READY_BOUND_MS }).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number; stderr?: string } | undefined;
    expect(refused?.code).toBe(2);
    expect(refused?.stderr).toContain("Unknown option '--bogus'");
  });

  it('answers an SDK Client over stdio against the local stack: tools listed, pending GTTs read', async () => {
    const trader = await mcpClient();
    const names = (await trader.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['place_gtt', 'confirm', 'pending_gtts']));
    const listed = (await trader.callTool({ name: 'pending_gtts', arguments: {} })) as {
      isError?: boolean;
      structuredContent?: { orders?: unknown };
    };
    expect(listed.isError).toBeFalsy();
    expect(Array.isArray(listed.structuredContent?.orders)).toBe(true);
  });

  it('with --read-only lists the read tools and no write tool', async () => {
    const reader = await mcpClient(['--read-only']);
    const names = (await reader.listTools()).tools.map((t) => t.name);
    expect(names.sort()).toEqual([...READ_TOOL_NAMES].sort());
    expect(names).not.toContain('place_gtt');
    expect(names).not.toContain('confirm');
  });
});

describe('the gtt bin of the packed client', () => {
  it('is the built command line: `npx -p @gtt-gateway/client gtt` lists the pending orders of the local stack', async () => {
    const bin = join(project, 'node_modules', pkg.name, 'dist', 'gtt.js');
    expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    const version = await exec('npx', ['--offline', '-y', '-p', pkg.name, 'gtt', '--version'], {
      cwd: project,
      env: NPM_ENV,
      timeout: READY_BOUND_MS,
    });
    expect(version.stdout.trim()).toBe(`gtt-gateway ${pkg.version}`);
    // Its usage names it as it was started, not as the repository's npm script.
    const usage = await exec('npx', ['--offline', '-y', '-p', pkg.name, 'gtt', 'place'], {
      cwd: project,
      env: NPM_ENV,
      timeout: READY_BOUND_MS,
    }).then(
      () => ({ stderr: '' }),
      (error: { stderr?: string }) => ({ stderr: error.stderr ?? '' }),
    );
    expect(usage.stderr).toContain('usage: gtt place');
    expect(usage.stderr).not.toContain('npm run gtt');
    const list = await exec(process.execPath, [bin, 'list', '--url', stack.api.url, '--json'], {
      cwd: project,
      timeout: READY_BOUND_MS,
    });
    expect(JSON.parse(list.stdout)).toMatchObject({ orders: expect.any(Array) });
  });
});
