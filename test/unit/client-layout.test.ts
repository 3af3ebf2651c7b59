/**
 * The layout rules of client/ (docs/architecture.md, the rooms): the client is built on the OpenAPI document alone,
 * so no file of it imports anything outside client/ but packages, save generate.ts, which reads the manifest's
 * OpenAPI document at build time; and every hand-written file stays under 400 lines (a file does one job).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

const CLIENT = resolve(import.meta.dirname, '..', '..', 'client');

/** The hand-written TypeScript of client/: not dist/ (built) nor generated/. */
const FILES = readdirSync(CLIENT, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.ts') && !f.startsWith('dist') && !f.startsWith('generated'))
  .sort();

/** The module specifiers of `import ... from`, `export ... from` and `import(...)`. */
const specifiers = (source: string): string[] =>
  [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]!);

describe('client/', () => {
  it('has the files this test reads', () => {
    expect(FILES).toEqual(expect.arrayContaining(['client.ts', 'transport.ts', 'cli.ts', join('cli', 'main.ts')]));
  });

  it('imports nothing outside client/ but packages, except generate.ts', () => {
    const outside = FILES.filter((f) => f !== 'generate.ts').flatMap((file) =>
      specifiers(readFileSync(join(CLIENT, file), 'utf8'))
        .filter((s) => s.startsWith('.'))
        .filter((s) => relative(CLIENT, resolve(CLIENT, dirname(file), s)).startsWith('..'))
        .map((s) => `${file}: ${s}`),
    );
    expect(outside).toEqual([]);
    // The rule is seen: generate.ts's own import of the gateway is found by the same reading.
    expect(specifiers(readFileSync(join(CLIENT, 'generate.ts'), 'utf8'))).toContain('../functions/manifest/openapi.js');
  });

  it('every hand-written file is under 400 lines', () => {
    const long = FILES.map((f) => [f, readFileSync(join(CLIENT, f), 'utf8').split('\n').length] as const).filter(
      ([, lines]) => lines >= 400,
    );
    expect(long).toEqual([]);
  });
});
