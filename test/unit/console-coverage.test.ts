/**
 * Today's coverage badge in words (console/src/views/coverage-values.ts, used by today-coverage.ts): what nothing
 * covers, and what a live plan owes that is not at the broker yet, said beside it.
 */
import { expect, it } from 'vitest';

import { unprotectedLine } from '../../console/src/views/coverage-values.js';
import type { PositionCoverage } from '../../functions/base/schemas/coverage.js';

const position = (extra: Partial<PositionCoverage> = {}): PositionCoverage => ({
  exch: 'NSE',
  tsym: 'INFY-EQ',
  product: 'C',
  netQty: 4,
  averagePrice: 1489,
  status: 'uncovered',
  coveredQty: 0,
  uncoveredQty: 4,
  exits: [],
  ...extra,
});

it('names what nothing covers', () => {
  expect(unprotectedLine(position())).toBe('long 4 NSE:INFY-EQ: uncovered, 4 without a stop');
  expect(unprotectedLine(position({ netQty: -2, status: 'partly', uncoveredQty: 1 }))).toBe(
    'short 2 NSE:INFY-EQ: partly, 1 without a stop',
  );
});

it('says what a live plan owes, not placed yet', () => {
  const owed = position({ owedQty: 4, owedBy: [{ planId: 'pl0123456789abcdef', qty: 4, what: 'its exit' }] });
  expect(unprotectedLine(owed)).toContain('; 4 owed by a plan, not placed yet');
});
