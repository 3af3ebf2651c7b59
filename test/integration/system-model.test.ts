/**
 * The whole system's promises as invariants (test/support/system-invariants.ts): a bounded, seeded set of random
 * sequences of places, OCOs, repeated keys, modifies, PATCHes (racing too), cancels, signal alerts and redeliveries,
 * plans and watcher runs, the kill switch, logout and login, market moves and fills, broker faults on every write and
 * processes killed mid-write, against the local stack and the emulator (test/support/system-model.ts).
 * `npm run model` runs a long set and prints its counts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, it } from 'vitest';

import { systemModel } from '../support/system-model.js';
import { startWorld, type World } from '../support/system-world.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

it('never twice, nothing live after a complete sweep, quiet after logout, acknowledged is the broker, unknown resolved', async () => {
  await fc.assert(systemModel(world, 15), { numRuns: 25, seed: 20261127, endOnFailure: true });
}, 300_000);
