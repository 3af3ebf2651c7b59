/**
 * Architecture: every room of emulator/ imports only its own room and the rooms below it (docs/architecture.md), no
 * imports go round in a loop (type-only imports count), and the emulator reaches nothing outside emulator/ but
 * packages: it is the other side of the wire from functions/.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const EMULATOR = join(ROOT, 'emulator');
/** Bottom first. `.` is the top level of emulator/ (service.ts and server.ts compose the rooms; index.ts, main.ts). */
const ROOMS = ['state', 'wire', 'login', 'operations', 'control', '.'] as const;
const MAX_LINES = 400;

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : [];
  });

const roomOf = (file: string): string => {
  const rel = relative(EMULATOR, file);
  return rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : '.';
};

/** Every module a file names in `import`, `export ... from` or `import(...)`, as written. */
const specifiers = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);

const relativeImports = (file: string): string[] =>
  specifiers(file)
    .filter((s) => s.startsWith('.'))
    .map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));

const shown = (file: string): string => relative(ROOT, file);
const named = (room: string): string => (room === '.' ? 'the top level' : `${room}/`);

/** Each loop once, as `a -> b -> a`, by a depth-first walk of the import graph. */
const loops = (graph: Map<string, string[]>): string[] => {
  const found: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    path.push(file);
    for (const target of graph.get(file) ?? []) {
      const at = path.indexOf(target);
      if (at >= 0) found.push([...path.slice(at), target].map(shown).join(' -> '));
      else if (!done.has(target)) visit(target);
    }
    path.pop();
    done.add(file);
  };
  for (const file of graph.keys()) if (!done.has(file)) visit(file);
  return found;
};

describe('rooms of emulator/', () => {
  const files = walk(EMULATOR);
  const graph = new Map(files.map((file) => [file, relativeImports(file)]));

  it('every file is in a known room that docs/architecture.md names, and none is over 400 lines', () => {
    const map = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    for (const file of files) expect(ROOMS, shown(file)).toContain(roomOf(file));
    for (const room of ROOMS.filter((r) => r !== '.')) expect(map).toContain(`\`emulator/${room}/\``);
    const long = files.filter((file) => readFileSync(file, 'utf8').split('\n').length - 1 > MAX_LINES);
    expect(long.map(shown)).toEqual([]);
  });

  it('no import runs back up, and none leaves emulator/ but for packages', () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      const from = ROOMS.indexOf(roomOf(file) as (typeof ROOMS)[number]);
      for (const target of targets) {
        if (relative(EMULATOR, target).startsWith('..')) {
          wrong.push(`${shown(file)} -> ${shown(target)} (outside emulator/)`);
          continue;
        }
        const to = ROOMS.indexOf(roomOf(target) as (typeof ROOMS)[number]);
        if (to > from)
          wrong.push(`${shown(file)} -> ${shown(target)} (${named(roomOf(file))} under ${named(roomOf(target))})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('every relative import inside emulator/ names one of its files (so the graph misses no edge)', () => {
    const missing = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((t) => !relative(EMULATOR, t).startsWith('..') && !graph.has(t))
        .map((t) => `${shown(file)} -> ${shown(t)}`),
    );
    expect(missing).toEqual([]);
  });

  it('no imports go round in a loop', () => {
    expect(loops(graph)).toEqual([]);
  });
});
