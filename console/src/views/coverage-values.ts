/**
 * Today's coverage badge in words, without the page (so the unit tests need no DOM): a position not covered, what
 * nothing covers, and what a live plan owes it that is not at the broker yet (docs/explanation/coverage.md).
 */
import type { PositionCoverage } from '../../../functions/base/schemas/coverage.js';

/** `long 4 NSE:INFY-EQ: uncovered, 4 without a stop; 4 owed by a plan, not placed yet`. */
export const unprotectedLine = (p: PositionCoverage): string =>
  `${p.netQty > 0 ? 'long' : 'short'} ${Math.abs(p.netQty)} ${p.exch}:${p.tsym}: ${p.status}, ${p.uncoveredQty} without a stop` +
  (p.owedQty ? `; ${p.owedQty} owed by a plan, not placed yet (autoCover leaves it to the plan)` : '');
