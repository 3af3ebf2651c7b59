/**
 * `gtt coverage`'s text (client/cli/commands/coverage.ts `coverageText`): a position a live plan owes an exit to
 * says so beside its status (not counted as cover), and a plans read that failed is said as the route's note.
 */
import { expect, it } from 'vitest';

import { coverageText, type CoverageView } from '../../client/cli/commands/coverage.js';

const view = (extra: Partial<CoverageView> = {}, owed = true): CoverageView =>
  ({
    positions: [
      {
        exch: 'NSE',
        tsym: 'INFY-EQ',
        product: 'C',
        netQty: 5,
        averagePrice: 1489,
        status: 'uncovered',
        coveredQty: 0,
        uncoveredQty: 5,
        exits: [],
        ...(owed ? { owedQty: 5, owedBy: [{ planId: 'pl0123456789abcdef', qty: 5, what: 'its stop' }] } : {}),
      },
    ],
    totals: { open: 1, covered: 0, partly: 0, targetOnly: 0, uncovered: 1 },
    settings: { watch: true },
    ...extra,
  }) as CoverageView;

it('says what live plans owe a position, beside its status', () => {
  const text = coverageText(view());
  expect(text).toContain('UNCOVERED');
  expect(text).toContain(
    "owed: NSE:INFY-EQ's live plans owe 5 not at the broker yet (plan pl0123456789abcdef its stop x5)",
  );
  expect(coverageText(view({}, false))).not.toContain('owed:');
});

it("says the route's note when the plans could not be read", () => {
  const note = 'The plans could not be read (BROKER_UNAVAILABLE): what live plans owe is not said.';
  expect(coverageText(view({ note }, false))).toContain(`note: ${note}`);
});
