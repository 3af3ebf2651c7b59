/**
 * The whole system's promises as invariants (test/support/system-invariants.ts): a bounded, seeded set of random
 * sequences of places, OCOs, repeated keys, modifies, PATCHes (racing too), cancels, signal alerts and redeliveries,
 * alerts of every action kind (the strategy edited between deliveries), assistants over POST /mcp, every read route,
 * plans and watcher runs, the kill switch, logout and login, market moves and fills, broker faults on every write and
 * processes killed mid-write, against the local stack and the emulator (test/support/system-model.ts).
 * `npm test` runs 6 sequences (about 50 s on two cores); `SYSTEM_MODEL_RUNS=25 npx vitest run` on this file runs
 * more of the same seed, `npm run model` a long set with a new seed and prints its counts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, it } from 'vitest';

import { systemModel } from '../support/system-model.js';
import { startWorld, type World } from '../support/system-world.js';

const RUNS = Number(process.env.SYSTEM_MODEL_RUNS ?? 6);

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

it(
  'never twice, nothing live after a complete sweep, quiet after logout, acknowledged is the broker, unknown resolved',
  async () => {
    await fc.assert(systemModel(world, 15), { numRuns: RUNS, seed: 20261127, endOnFailure: true });
  },
  Math.max(300_000, RUNS * 12_000),
);
