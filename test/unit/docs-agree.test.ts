/**
 * Pages that restate what the code holds, checked against it: docs/reference/events.md's table of event types names every
 * detail-type the code can publish and none it cannot.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { DETAIL_TYPES } from '../../functions/base/schemas/event-types.js';

const ROOT = join(import.meta.dirname, '..', '..');
const page = (name: string) => readFileSync(join(ROOT, 'docs', name), 'utf8');

/** The rows of the first Markdown table after `heading`, as their first cells. */
const firstCells = (text: string, heading: string): string[] => {
  const from = text.indexOf(`\n${heading}\n`);
  expect(from, `${heading} is on the page`).toBeGreaterThan(-1);
  const lines = text.slice(from).split('\n');
  const start = lines.findIndex((line) => line.startsWith('|'));
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return lines.slice(start + 2, end).map((line) => line.split('|')[1]!.trim());
};

describe('docs/reference/events.md', () => {
  it('lists every event type the code has, and only those', () => {
    const listed = firstCells(page('reference/events.md'), '## The events').flatMap((cell) =>
      [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!),
    );
    expect([...listed].sort()).toEqual([...DETAIL_TYPES].sort());
  });
});
