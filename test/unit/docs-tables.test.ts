/**
 * The docs' tables stay tables: no cell of a table in docs/reference/, docs/how-to/ or docs/explanation/ runs a
 * paragraph (over 300 characters). The detail of a row goes in a numbered note under the table or in the section's prose.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FOLDERS = ['docs/reference', 'docs/how-to', 'docs/explanation'];
const LIMIT = 300;

/** A table row's cells: split on the pipes that are not escaped (`\|`) and not inside a code span. */
const rowCells = (line: string): string[] => {
  const cells: string[] = [];
  let cell = '';
  let inCode = false;
  const row = line.trim().replace(/^\|/, '');
  for (let i = 0; i < row.length; i++) {
    const ch = row[i]!;
    if (ch === '\\' && row[i + 1] === '|') {
      cell += '\\|';
      i++;
    } else if (ch === '`') {
      inCode = !inCode;
      cell += ch;
    } else if (ch === '|' && !inCode) {
      cells.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  if (cell.trim() !== '') cells.push(cell.trim());
  return cells;
};

/** The cells over the limit of one page, as `line N, column C: length L: "start…"`. */
const longCells = (text: string): string[] => {
  const out: string[] = [];
  let fenced = false;
  text.split('\n').forEach((line, index) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced || !/^\s*\|/.test(line)) return;
    rowCells(line).forEach((cell, column) => {
      if (cell.length > LIMIT)
        out.push(`line ${index + 1}, column ${column + 1}: ${cell.length} characters: "${cell.slice(0, 60)}…"`);
    });
  });
  return out;
};

describe('table cells of the docs', () => {
  it('split a row on its unescaped pipes, not on one in a code span', () => {
    expect(rowCells('| `a|b` | c \\| d | e |')).toEqual(['`a|b`', 'c \\| d', 'e']);
  });

  it('catch a cell that runs a paragraph', () => {
    expect(longCells(`| a | b |\n| - | - |\n| x | ${'y'.repeat(LIMIT + 1)} |\n`)).toHaveLength(1);
    expect(longCells(`\`\`\`\n| x | ${'y'.repeat(LIMIT + 1)} |\n\`\`\`\n`)).toEqual([]);
  });

  const pages = FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `${folder}/${name}`),
  );
  it.each(pages)('%s has no cell over 300 characters', (page) => {
    const long = longCells(readFileSync(join(ROOT, page), 'utf8'));
    expect(long, `${page}: move the detail into a numbered note under the table:\n${long.join('\n')}`).toEqual([]);
  });
});
