/** Every relative link in the README and docs/ resolves, and nothing points outside the repository. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pages = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

const links = (page: string): string[] =>
  [...readFileSync(join(ROOT, page), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'));

describe('docs links', () => {
  it.each(pages)('%s: every relative link resolves inside the repository', (page) => {
    const broken = links(page).flatMap((target) => {
      const file = resolve(ROOT, dirname(page), target.split('#')[0]!);
      if (relative(ROOT, file).startsWith('..')) return [`${target} (outside the repository)`];
      return existsSync(file) ? [] : [target];
    });
    expect(broken).toEqual([]);
  });

  it('the README is a front page of at most 12 KB that links every docs page', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(12 * 1024);
    for (const page of pages.filter((p) => p.startsWith('docs/'))) expect(links('README.md')).toContain(page);
  });

  it('no file of the project refers to the private folder beside the repository', () => {
    const tracked = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
        const path = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory()) return ['node_modules', '.git', 'cdk.out'].includes(e.name) ? [] : tracked(path);
        return /\.(ts|md|json|js)$/.test(e.name) && e.name !== 'package-lock.json' ? [path] : [];
      });
    const offenders = tracked('').filter((file) => readFileSync(join(ROOT, file), 'utf8').includes('../' + 'shared/'));
    expect(offenders).toEqual([]);
  });
});
