/** The test order (test/support/sequencer.ts): the files it starts first exist, so a rename cannot leave it stale. */
import { existsSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { LONGEST } from '../support/sequencer.js';

describe('the long-first test order', () => {
  it('names only test files that exist', () => {
    expect(LONGEST.filter((file) => !existsSync(file))).toEqual([]);
    expect(LONGEST.every((file) => file.endsWith('.test.ts'))).toBe(true);
  });
});
