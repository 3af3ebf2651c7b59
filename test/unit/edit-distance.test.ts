/**
 * The edit distance of the "did you mean" hints (functions/base/schemas/edit-distance.ts), and the client's own copy
 * (client/cli/suggest.ts; the client imports nothing outside client/) held to the same answers.
 */
import { describe, expect, it } from 'vitest';

import { editDistance as clientEditDistance } from '../../client/cli/suggest.js';
import { editDistance } from '../../functions/base/schemas/edit-distance.js';

const PAIRS: readonly (readonly [string, string, number])[] = [
  ['', '', 0],
  ['', 'qty', 3],
  ['qty', '', 3],
  ['qty', 'qty', 0],
  ['qyt', 'qty', 1],
  ['tirgger', 'trigger', 1],
  ['prc', 'price', 2],
  ['MM-EQ', 'M&M-EQ', 1],
  ['RELAINCE-EQ', 'RELIANCE-EQ', 1],
  ['kitten', 'sitting', 3],
  ['ca', 'abc', 3],
];

describe('editDistance', () => {
  it.each(PAIRS)('%j to %j is %i edits', (a, b, edits) => {
    expect(editDistance(a, b)).toBe(edits);
  });

  it('is the same both ways, and the client copy agrees on every pair', () => {
    for (const [a, b, edits] of PAIRS) {
      expect(editDistance(b, a)).toBe(edits);
      expect(clientEditDistance(a, b)).toBe(edits);
    }
  });
});
