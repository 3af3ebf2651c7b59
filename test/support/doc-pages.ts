/**
 * The Markdown pages of docs/ at any depth (the tutorial, how-to/, reference/, explanation/), as repository paths
 * (`docs/how-to/place-an-oco.md`), sorted: what the docs tests read, so a page added in a folder is read too.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export const docPages = (root = ROOT): string[] =>
  readdirSync(join(root, 'docs'), { recursive: true })
    .map((f) => String(f).split('\\').join('/'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
