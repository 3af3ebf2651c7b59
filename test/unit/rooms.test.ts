/**
 * Architecture: every room of functions/ imports only rooms below it (functions/README.md), and the Lambda code
 * never reaches into the local runner, the emulator, the infrastructure, the benchmarks or the tests.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FUNCTIONS = join(ROOT, 'functions');
/**
 * Bottom first. `.` is the top level of functions/ (operation table, shared stack); `definition` is the shape of a
 * function's definition, which the feature rooms' code reads; the manifest holds the definitions, each naming its
 * function's factory, so it sits above every feature room.
 */
const ROOMS = [
  'schemas',
  'contract',
  'broker',
  'safety',
  'runtime',
  'events',
  'middleware',
  '.',
  'orders',
  'instruments',
  'definition',
  'gateway',
  'session',
  'plans',
  'watcher',
  'outbox',
  'controls',
  'signals',
  'manifest',
  'handlers',
] as const;

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : [];
  });

const roomOf = (file: string): string => {
  const rel = relative(FUNCTIONS, file);
  return rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : '.';
};

const relativeImports = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) =>
    resolve(dirname(file), m[1]!),
  );

describe('rooms of functions/', () => {
  const files = walk(FUNCTIONS);

  it('every file is in a known room, and every room has a README saying what lives there', () => {
    for (const file of files) expect(ROOMS).toContain(roomOf(file));
    for (const room of ROOMS) expect(statSync(join(FUNCTIONS, room, 'README.md')).isFile()).toBe(true);
  });

  it('no import runs back up', () => {
    const upward: string[] = [];
    for (const file of files) {
      const from = ROOMS.indexOf(roomOf(file) as (typeof ROOMS)[number]);
      for (const target of relativeImports(file)) {
        const rel = relative(FUNCTIONS, target);
        if (rel.startsWith('..')) {
          upward.push(`${relative(ROOT, file)} -> ${relative(ROOT, target)} (outside functions/)`);
          continue;
        }
        const to = ROOMS.indexOf(roomOf(target) as (typeof ROOMS)[number]);
        if (to > from) upward.push(`${relative(ROOT, file)} -> ${relative(ROOT, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
