/**
 * `npm run model [-- --runs N --steps K --seed S --skip 3,4 --shrink-seconds T --weights risk=8,exit=4 --focus
 * risk,coverage]`: a long run of the system's model-based test (test/support/system-model.ts) against `npm start`'s
 * stack in this process. `SYSTEM_MODEL_RUNS`, `SYSTEM_MODEL_STEPS`, `SYSTEM_MODEL_SEED`, `SYSTEM_MODEL_SKIP`,
 * `SYSTEM_MODEL_WEIGHTS` and `SYSTEM_MODEL_FOCUS` set the same from the environment.
 *
 * `--weights family=N,...` draws each command of a family N times as often as a command listed once (instead of its
 * default count), `--focus family,...` the same with N = 8; the families (test/support/system-weights.ts) are orders,
 * changes, actors, halts, signals, mcp, reads, risk, coverage, exit and positions (fills and market moves). Without
 * them the commands are drawn as in `npm test`. A seed replays only with the same weights.
 *
 * Prints how many sequences and steps ran, the steps per command kind, the broker faults armed, the answers by verdict and the refusals by
 * code, how often each invariant broke (a skipped invariant is counted, not stopped at) with its first instance, and,
 * on a failure, the counterexample shrunk for at most `--shrink-seconds` (default 300; 0 prints it unshrunk); exits 1
 * then. `SYSTEM_MODEL_LIVE=1` prints each step and request as it starts (a step that waits shows where), and
 * `SYSTEM_MODEL_TRACE=1` each sequence's steps and answers as it ended.
 */
import { parseArgs } from 'node:util';

import fc from 'fast-check';

import { violations } from '../test/support/system-invariants.js';
import { systemModel } from '../test/support/system-model.js';
import { familyShares, parseWeights, weighted } from '../test/support/system-weights.js';
import { startWorld, systemStats } from '../test/support/system-world.js';

const env = process.env;
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: env.SYSTEM_MODEL_RUNS ?? '200' },
    steps: { type: 'string', default: env.SYSTEM_MODEL_STEPS ?? '15' },
    seed: { type: 'string', default: env.SYSTEM_MODEL_SEED },
    skip: { type: 'string', default: env.SYSTEM_MODEL_SKIP ?? '' },
    'shrink-seconds': { type: 'string', default: '300' },
    weights: { type: 'string', default: env.SYSTEM_MODEL_WEIGHTS ?? '' },
    focus: { type: 'string', default: env.SYSTEM_MODEL_FOCUS ?? '' },
  },
});
const usage =
  'usage: npm run model -- [--runs N] [--steps K] [--seed S] [--skip 1,2,...] [--shrink-seconds T] [--weights family=N,...] [--focus family,...]';
const runs = Number(values.runs);
const steps = Number(values.steps);
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
const shrinkSeconds = Number(values['shrink-seconds']);
const skip = new Set(values.skip.split(',').filter(Boolean).map(Number));
const whole = (n: number) => Number.isInteger(n) && n >= 0;
if (
  !whole(runs) ||
  runs < 1 ||
  !whole(steps) ||
  steps < 1 ||
  !whole(seed) ||
  !whole(shrinkSeconds) ||
  ![...skip].every(whole)
) {
  console.error(usage);
  process.exit(2);
}
let weights: Map<string, number>;
try {
  weights = parseWeights(values.weights, values.focus);
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
const commands = weighted(weights);

const world = await startWorld();
const started = Date.now();
const property = systemModel(world, steps, skip, commands);
let result = await fc.check(property, { numRuns: runs, seed, endOnFailure: true });
const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(0);
console.log(`system model: seed ${seed}, ${result.numRuns} sequences of up to ${steps} steps in ${seconds(started)} s`);
console.log(`  steps run: ${systemStats.steps} in ${systemStats.sequences} sequences`);
if (weights.size)
  console.log(
    `  weights ${JSON.stringify(Object.fromEntries(weights))}: ${commands.length} entries, by family ${JSON.stringify(familyShares(commands, weights.keys()))}`,
  );
console.log(`  steps by command kind: ${JSON.stringify(systemStats.kinds)}`);
console.log(`  broker faults armed (operation, kind): ${JSON.stringify(systemStats.faults)}`);
console.log(`  answers by verdict: ${JSON.stringify(systemStats.verdicts)}`);
console.log(`  refusals by code: ${JSON.stringify(systemStats.codes)}`);
console.log(`  invariants broken (count, skipped ones included): ${JSON.stringify(violations.count)}`);
for (const [invariant, text] of Object.entries(violations.first))
  console.log(
    `  first break of invariant ${invariant}${skip.has(Number(invariant)) ? ' (skipped)' : ''}:\n    ${text}`,
  );
if (result.failed) {
  const path = result.counterexamplePath ?? undefined;
  if (shrinkSeconds > 0 && path !== undefined) {
    // The failing sequence again, shrunk within the time given (a timing-dependent failure may not come back).
    const shrinking = Date.now();
    const shrunk = await fc.check(property, { seed, path, interruptAfterTimeLimit: shrinkSeconds * 1000 });
    if (shrunk.failed) result = shrunk;
    console.log(`  shrinking took ${seconds(shrinking)} s${shrunk.failed ? '' : ' and did not fail again'}`);
  }
  console.log(
    `FAILED after ${result.numRuns} sequences; counterexample (seed ${seed}, path ${result.counterexamplePath}):`,
  );
  console.log(`  ${String(result.counterexample?.[0])}`);
  console.log(
    `  ${String(result.errorInstance instanceof Error ? result.errorInstance.message : result.errorInstance)}`,
  );
  await world.close();
  process.exit(1);
}
await world.close();
console.log(`${result.numRuns} passed, 0 failed`);
