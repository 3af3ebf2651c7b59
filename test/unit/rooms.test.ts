/**
 * Architecture: the rooms of functions/ and what each may import (docs/architecture.md, the rooms). The
 * shared base below everything; the events core above it (functions/events/core/: the face of the events concept that
 * the order core and the features use, the events table, the outbox and its producer, the views and stable ids); the
 * order core above both; then the features, each using the base, the events core and the order core
 * and never another feature's insides (only the files a feature offers, its face); the manifest (the list of every
 * function's definition, each in its room) and the handlers on top. The Lambda code never reaches into the local runner, the
 * emulator, the infrastructure, the benchmarks or the tests.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FUNCTIONS = join(ROOT, 'functions');

const BASE = [
  'base/schemas',
  'base/contract',
  'base/broker',
  'base/runtime',
  'base/aws',
  'base/definition',
  'base/middleware',
];
const FEATURES = ['assistants', 'controls', 'events', 'instruments', 'mcp', 'plans', 'risk', 'session', 'signals'];
/** Each room and the rooms it may import (its own files are always allowed). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  'base/schemas': [],
  'base/contract': ['base/schemas'],
  'base/broker': ['base/schemas', 'base/contract', 'base/aws'],
  'base/runtime': ['base/schemas', 'base/contract'],
  // The AWS client reads the region and the role's credentials from the environment through base/runtime.
  'base/aws': ['base/schemas', 'base/contract', 'base/runtime'],
  'base/definition': ['base/schemas', 'base/contract', 'base/runtime'],
  'base/middleware': ['base/schemas', 'base/contract', 'base/runtime', 'base/definition'],
  // The events concept's face (functions/events/core/): below the order core, which queues each success's event.
  'events/core': BASE,
  orders: [...BASE, 'events/core'],
  ...Object.fromEntries(FEATURES.map((feature) => [feature, [...BASE, 'events/core', 'orders']])),
  // The manifest lists the definitions the features hold (each naming its real factory): it sits above them.
  manifest: [...BASE, 'events/core', 'orders', ...FEATURES],
  handlers: [...BASE, 'events/core', 'orders', ...FEATURES, 'manifest'],
};
/** A feature's files another feature may import (its face), by who may: the rest of a feature is its own. */
const FACES: Record<string, Record<string, readonly string[]>> = {
  // The GttWatcher carries the plans out each run, checks the day's limits and the positions' coverage.
  events: { plans: ['engine.ts', 'engine-wiring.ts'], risk: ['check-wiring.ts', 'coverage-watch.ts'] },
  // The InstrumentRefresh reads the symbols of the live plans.
  instruments: { plans: ['store.ts'] },
  // A signal starts a plan or turns the kill switch on.
  signals: { plans: ['engine-wiring.ts'], controls: ['kill-switch.ts'] },
  // The day's limits turn the kill switch on when crossed; coverage reads the plans (what they owe, not placed yet).
  risk: { controls: ['kill-switch.ts'], plans: ['store.ts'] },
  // The remote MCP function finds the assistant by its token and counts its orders.
  mcp: { assistants: ['registry.ts'] },
};
/**
 * The folders outside functions/ a room may import: the remote MCP function runs the MCP server of mcp/ (the same
 * one `npm run mcp` runs over stdio), which calls the API through the typed client. Nothing else leaves functions/.
 */
const OUTSIDE: Record<string, readonly string[]> = { mcp: ['mcp/', 'client/'] };

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? [path, ...walk(path)] : [path];
  });

const roomOf = (file: string): string => {
  const parts = relative(FUNCTIONS, file).split('/');
  if (parts[0] === 'base' && parts.length > 2) return `base/${parts[1]}`;
  if (parts[0] === 'events' && parts[1] === 'core' && parts.length > 2) return 'events/core';
  return parts.length > 1 ? parts[0]! : '.';
};

const relativeImports = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) =>
    resolve(dirname(file), m[1]!),
  );

describe('rooms of functions/', () => {
  const paths = walk(FUNCTIONS);
  const files = paths.filter((path) => path.endsWith('.ts'));
  const folders = [FUNCTIONS, ...paths.filter((path) => statSync(path).isDirectory())];

  it('every file is in a known room, and every folder has a README saying what lives there', () => {
    for (const file of files) expect(Object.keys(MAY_IMPORT)).toContain(roomOf(file));
    const missing = folders.filter((dir) => !readdirSync(dir).includes('README.md'));
    expect(missing.map((dir) => relative(ROOT, dir))).toEqual([]);
  });

  it('every import goes where its room may go: the base nothing above it, a feature no other feature inside', () => {
    const refused: string[] = [];
    for (const file of files) {
      const from = roomOf(file);
      for (const target of relativeImports(file)) {
        const shown = `${relative(ROOT, file)} -> ${relative(ROOT, target)}`;
        if (relative(FUNCTIONS, target).startsWith('..')) {
          if (OUTSIDE[from]?.some((folder) => relative(ROOT, target).startsWith(folder))) continue;
          refused.push(`${shown} (outside functions/)`);
          continue;
        }
        const to = roomOf(target);
        if (to === from || MAY_IMPORT[from]!.includes(to)) continue;
        const name = relative(join(FUNCTIONS, to), target).replace(/\.js$/, '.ts');
        if (FACES[from]?.[to]?.includes(name)) continue;
        refused.push(shown);
      }
    }
    expect(refused).toEqual([]);
  });

  it('the graph has no loop between rooms, and each face names a file that is there', () => {
    const below = (room: string, seen: readonly string[]): string[] =>
      (MAY_IMPORT[room] ?? []).flatMap((other) =>
        seen.includes(other) ? [[...seen, other].join(' -> ')] : below(other, [...seen, other]),
      );
    expect(Object.keys(MAY_IMPORT).flatMap((room) => below(room, [room]))).toEqual([]);
    for (const faces of Object.values(FACES))
      for (const [feature, names] of Object.entries(faces))
        for (const name of names) expect(statSync(join(FUNCTIONS, feature, name)).isFile()).toBe(true);
  });
});

/**
 * docs/architecture.md's table of the rooms says the same as the map above: for each room of functions/, the rooms
 * it may import, the faces of other features it may use and the folders outside functions/ it may reach. This test
 * decides; the doc follows it.
 */
describe("docs/architecture.md's table of the rooms", () => {
  const rows = new Map(
    readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8')
      .split('\n')
      .flatMap((line) => {
        const cells = line.split('|').map((cell) => cell.trim());
        const folder = /^`functions\/([\w/]+)\/`$/.exec(cells[1] ?? '');
        return folder ? [[folder[1]!, cells[3] ?? ''] as const] : [];
      }),
  );
  const written = (cell: string) => {
    const rooms: string[] = [];
    const faces: string[] = [];
    const outside: string[] = [];
    const tokens = cell
      .replace(/\([^)]*\)/g, '')
      .replace(/`/g, '')
      .split(/[,;]/)
      .map((token) =>
        token
          .trim()
          .replace(/^outside functions\/:/, '')
          .trim(),
      );
    for (const token of tokens) {
      if (token === 'base') rooms.push(...BASE);
      else if (token === 'the features') rooms.push(...FEATURES);
      else if (token === 'everything in functions/')
        rooms.push(...BASE, 'events/core', 'orders', ...FEATURES, 'manifest');
      else if (token in MAY_IMPORT) rooms.push(token);
      else if (/^\w+\/[\w-]+\.ts$/.test(token)) faces.push(token);
      else if (/^\w+\/$/.test(token)) outside.push(token);
      else if (token !== 'nothing of ours') rooms.push(`(unread: ${token})`);
    }
    return { rooms: rooms.sort(), faces: faces.sort(), outside: outside.sort() };
  };

  it('has a row for every room, each naming what the map allows it', () => {
    expect([...rows.keys()].sort()).toEqual(Object.keys(MAY_IMPORT).sort());
    for (const [room, cell] of rows) {
      const faces = Object.entries(FACES[room] ?? {}).flatMap(([feature, names]) =>
        names.map((n) => `${feature}/${n}`),
      );
      expect(written(cell), room).toEqual({
        rooms: [...MAY_IMPORT[room]!].sort(),
        faces: faces.sort(),
        outside: [...(OUTSIDE[room] ?? [])].sort(),
      });
    }
  });
});

/**
 * The console (console/): a page in the browser. Its source imports its own files, the client's (the generated
 * types, and helpers with no Node built-in) and the base's schemas, never the functions' insides; and no Node
 * built-in, nor a package the page does not ship.
 */
describe('the room of console/', () => {
  const CONSOLE_SOURCE = join(ROOT, 'console', 'src');
  const MAY_REACH = ['console', 'client', 'functions/base/schemas'];
  // The view, the chart, the typed calls; deployed, the SigV4 signer and config.json's schema.
  const PACKAGES = ['preact', 'preact/hooks', 'htm/preact', 'lightweight-charts', 'openapi-fetch', 'aws4fetch', 'zod'];
  const specifiers = (file: string): string[] =>
    [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);

  it('imports console/, client/ and base/schemas only, and of packages only those the page ships', () => {
    const refused: string[] = [];
    const files = walk(CONSOLE_SOURCE).filter((path) => path.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      for (const spec of specifiers(file)) {
        const shown = `${relative(ROOT, file)} -> ${spec}`;
        if (!spec.startsWith('.')) {
          if (!PACKAGES.includes(spec)) refused.push(shown);
          continue;
        }
        const target = relative(ROOT, resolve(dirname(file), spec));
        if (!MAY_REACH.some((room) => target.startsWith(`${room}/`))) refused.push(shown);
        // A client file the page takes must run in a browser too.
        else if (target.startsWith('client/') && !target.startsWith('client/generated/'))
          for (const inner of specifiers(join(ROOT, target.replace(/\.js$/, '.ts'))))
            if (inner.startsWith('node:')) refused.push(`${shown} (which imports ${inner})`);
      }
    }
    expect(refused).toEqual([]);
  });
});
