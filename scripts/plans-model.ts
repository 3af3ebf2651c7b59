/**
 * `npm run model:plans [-- --runs N --seed S --steps K]`: a long run of the plans' model-based test
 * (test/support/plans-model.ts) against `npm start`'s stack in this process. Prints how many sequences and steps ran,
 * the plan states they reached, and, on a failure, the shrunk counterexample; exits 1 then.
 */
import { parseArgs } from 'node:util';

import fc from 'fast-check';

import { startLocalStack } from '../local/run-local.js';
import { HIGH_ORDER_RATE } from '../test/support/order-rate.js';
import { modelStats, plansModel } from '../test/support/plans-model.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    seed: { type: 'string' },
    steps: { type: 'string', default: '20' },
  },
});
const runs = Number(values.runs);
const steps = Number(values.steps);
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(steps) || steps < 1 || !Number.isInteger(seed)) {
  console.error('usage: npm run model:plans -- [--runs N] [--steps K] [--seed S] (whole numbers)');
  process.exit(2);
}

const stack = await startLocalStack({ settings: HIGH_ORDER_RATE, brokerTimeoutMs: 2_000 });
const started = Date.now();
const result = await fc.check(plansModel(stack, steps), { numRuns: runs, seed, endOnFailure: true });
await stack.close();
const seconds = ((Date.now() - started) / 1000).toFixed(0);
console.log(`plans model: seed ${seed}, ${result.numRuns} sequences of up to ${steps} steps in ${seconds} s`);
console.log(`  steps run: ${modelStats.steps}; plans created: ${modelStats.plans}`);
console.log(`  plan states at the sequences' ends: ${JSON.stringify(modelStats.states)}`);
console.log(`  refused creates and DELETEs, by code: ${JSON.stringify(modelStats.refusals)}`);
if (result.failed) {
  console.log(
    `FAILED after ${result.numRuns} sequences; shrunk counterexample (seed ${seed}, path ${result.counterexamplePath}):`,
  );
  console.log(`  ${String(result.counterexample?.[0])}`);
  console.log(
    `  ${String(result.errorInstance instanceof Error ? result.errorInstance.message : result.errorInstance)}`,
  );
  process.exit(1);
}
console.log(`${result.numRuns} passed, 0 failed`);
