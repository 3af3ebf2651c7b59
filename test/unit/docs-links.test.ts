/**
 * Every relative link of the repository's Markdown (README, docs/ at any depth, the folders' READMEs) resolves, to a
 * file and, with `#anchor`, to a heading of it; every `docs/….md` path that code or a test cites exists; nothing
 * points outside the repository; the README is a short front page and docs/README.md lists every page.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { docPages } from '../support/doc-pages.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The project's files (not node_modules, .git, build output or the test Node.js): what the checks read. */
const projectFiles = (dir = ''): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory())
      return ['node_modules', 'cdk.out', 'dist', 'coverage', 'node22'].includes(e.name) || e.name.startsWith('.')
        ? []
        : projectFiles(path);
    return [path];
  });
const tracked = projectFiles();
const pages = [...new Set([...tracked.filter((f) => f.endsWith('.md')), ...docPages(ROOT)])].sort();

const read = (page: string): string => readFileSync(join(ROOT, page), 'utf8');
/** The page's text outside fenced code blocks (a link inside one is an example, not a link). */
const prose = (page: string): string => read(page).replace(/^```[\s\S]*?^```/gm, '');

const links = (page: string): string[] =>
  [...prose(page).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/i.test(target));

/** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
const anchors = (page: string): Set<string> => {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of prose(page).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n ? `${slug}-${n}` : slug);
  }
  for (const [, id] of read(page).matchAll(/<a (?:id|name)="([^"]+)"/g)) out.add(id!);
  return out;
};

describe('docs links', () => {
  it.each(pages)('%s: every relative link resolves inside the repository, to its heading', (page) => {
    const broken = links(page).flatMap((target) => {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path ? resolve(ROOT, dirname(page), path) : join(ROOT, page);
      if (relative(ROOT, file).startsWith('..')) return [`${target} (outside the repository)`];
      if (!existsSync(file)) return [target];
      if (anchor && file.endsWith('.md') && !anchors(relative(ROOT, file)).has(anchor))
        return [`${target} (no such heading)`];
      return [];
    });
    expect(broken).toEqual([]);
  });

  it('every docs/….md path that code, a test or a script cites exists', () => {
    const cited = tracked
      .filter((f) => /\.(ts|mjs|js|tsx|sh|json|yml|yaml)$/.test(f) && !f.endsWith('package-lock.json'))
      .flatMap((f) =>
        [...readFileSync(join(ROOT, f), 'utf8').matchAll(/(?<![\w.-])docs\/[\w/-]+\.md/g)].map((m) => [f, m[0]]),
      );
    expect(cited.length).toBeGreaterThan(50);
    expect(cited.filter(([, path]) => !existsSync(join(ROOT, path!))).map(([f, path]) => `${f}: ${path}`)).toEqual([]);
  });

  it('the README is a front page of at most 12 KB that links the tutorial, the how-tos, reference and explanation', () => {
    const readme = read('README.md');
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(12 * 1024);
    for (const page of ['docs/README.md', 'docs/tutorial.md', 'docs/how-to/README.md'])
      expect(links('README.md')).toContain(page);
  });

  it('docs/README.md links every page of docs/, and each folder index every page of its folder', () => {
    const index = links('docs/README.md').map((target) => join('docs', target.split('#')[0]!));
    expect(docPages(ROOT).filter((page) => page !== 'docs/README.md' && !index.includes(page))).toEqual([]);
    const howTo = links('docs/how-to/README.md').map((target) => join('docs/how-to', target.split('#')[0]!));
    expect(
      docPages(ROOT).filter((p) => p.startsWith('docs/how-to/') && p !== 'docs/how-to/README.md' && !howTo.includes(p)),
    ).toEqual([]);
  });

  it('the how-to guides together stay under 40 pages of 3,000 characters, the tutorial under 3 pages', () => {
    const size = (page: string) => [...read(page)].length;
    const howTo = docPages(ROOT).filter((page) => page.startsWith('docs/how-to/'));
    expect(howTo.length).toBeGreaterThanOrEqual(10);
    expect(howTo.reduce((sum, page) => sum + size(page), 0)).toBeLessThan(40 * 3000);
    expect(size('docs/tutorial.md')).toBeLessThan(3 * 3000);
  });

  it('no file of the project refers to the private folder beside the repository', () => {
    const all = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
        const path = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory()) return ['node_modules', '.git', 'cdk.out'].includes(e.name) ? [] : all(path);
        return /\.(ts|md|json|js)$/.test(e.name) && e.name !== 'package-lock.json' ? [path] : [];
      });
    const offenders = all('').filter((file) => readFileSync(join(ROOT, file), 'utf8').includes('../' + 'shared/'));
    expect(offenders).toEqual([]);
  });
});
