/**
 * The whole system's promises as invariants (test/support/system-invariants.ts): a bounded, seeded set of random
 * sequences of places and OCOs (with and without keys, tags of every length class), repeated keys, PUTs and PATCHes
 * of singles and OCOs (racing too), cancels, changes of orders whose place is unknown, a change's key again in
 * flight, signal alerts and redeliveries, alerts of every action kind (the strategy edited between deliveries),
 * assistants over POST /mcp, every read route, plans, watcher runs and edits of a plan's orders, the kill switch in
 * both modes (keep-exits during an exit's change too), logout and login, market moves and fills, broker faults on
 * every write and on reads, and processes killed mid-write, against the local stack and the emulator
 * (test/support/system-model.ts). `npm test` runs 6 sequences; `SYSTEM_MODEL_RUNS=25 npx vitest run` on this file
 * runs more of the same seed, `npm run model` a long set with a new seed and prints its counts.
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
  'never twice, nothing live after a complete sweep, quiet after logout, acknowledged is the broker, unknown resolved, kept is kept, not executed had no effect',
  async () => {
    await fc.assert(systemModel(world, 15), { numRuns: RUNS, seed: 20261127, endOnFailure: true });
  },
  Math.max(300_000, RUNS * 12_000),
);
