/**
 * The plans' promises as invariants (docs/explanation/plans.md, "Guarantees"): a bounded, seeded set of random sequences of
 * plan actions, market moves, fills and broker faults against the real engine, the emulator and dynalite
 * (test/support/plans-model.ts). `npm test` runs 20 sequences (about 35 s on two cores); `PLANS_MODEL_RUNS=40 npx
 * vitest run` on this file runs more of the same seed, `npm run model:plans` a long set and prints its count.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, it } from 'vitest';

import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { plansModel } from '../support/plans-model.js';

const RUNS = Number(process.env.PLANS_MODEL_RUNS ?? 20);

let stack: LocalStack;
beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE, brokerTimeoutMs: 2_000 });
});
afterAll(() => stack.close());

it(
  'never two exits, never a second entry, never a position silently unprotected, the record is the broker',
  async () => {
    await fc.assert(plansModel(stack, 20), { numRuns: RUNS, seed: 20261126, endOnFailure: true });
  },
  Math.max(240_000, RUNS * 6_000),
);
