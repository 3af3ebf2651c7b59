/**
 * The client as a package a trader installs (client/package.json, `@gtt-gateway/client`): `npm pack` in client/
 * builds JavaScript and declarations into dist/ and packs them; the tarball is installed into a fresh temporary
 * project offline (`npm install --offline`: the dependencies come from the npm cache `npm ci` filled, pinned by a
 * lockfile made from the repository's own, so nothing asks a registry); a script there is type-checked by the
 * repository's tsc with no @types/node (`types: []`), compiled, and run by node against a local stack this test
 * starts. A script with a wrong field fails the type-check, so the types are real ones.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type LocalStack, startLocalStack } from '../../local/run-local.js';

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
let pkg: { name: string; version: string; dependencies: Record<string, string> };

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

describe('the packed client in a fresh project', { timeout: 120_000 }, () => {
  it('the tarball holds the built JavaScript and declarations, and only the client runtime dependencies', () => {
    const listing = readFileSync(join(project, 'node_modules', pkg.name, 'package.json'), 'utf8');
    expect(JSON.parse(listing)).toMatchObject({ name: '@gtt-gateway/client', types: './dist/index.d.ts' });
    expect(Object.keys(pkg.dependencies).sort()).toEqual([
      '@aws-sdk/credential-provider-node',
      'aws4fetch',
      'openapi-fetch',
    ]);
    for (const file of ['index.js', 'index.d.ts', 'client.js', 'generated/openapi.d.ts', 'generated/operations.js']) {
      expect(() => readFileSync(join(project, 'node_modules', pkg.name, 'dist', file)), file).not.toThrow();
    }
  });

  it('a script type-checks without @types/node, compiles and runs against the local stack', async () => {
    writeFileSync(join(project, 'script.ts'), script(stack.api.url));
    await exec(TSC, ['-p', project], { cwd: project, timeout: 120_000 });
    const { stdout } = await exec(process.execPath, [join(project, 'out', 'script.js')], {
      cwd: project,
      timeout: 30_000,
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
