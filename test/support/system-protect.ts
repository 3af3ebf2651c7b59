/**
 * Coverage in the system model (functions/risk/, docs/explanation/coverage.md): a command that switches coverage and
 * autoCover on (or off) and runs the watcher once, and its two invariants, checked after the run and, for what a run
 * recorded, after every step (checkCoverage in checkAll):
 *
 * 20. autoCover never places a second cover for one position: no two OCOs tagged `autocover` at the broker were
 *     first seen for the same position and net quantity.
 * 21. never unprotected: after a run with autoCover on, every open position is covered, or a `Position Unprotected`
 *     event says why (not placed, with its code), or names the cover it placed that is no longer pending (cancelled
 *     by a sweep or by hand: the key answers it again, never a second).
 */
import fc from 'fast-check';

import { fail } from './system-invariants.js';
import { Command, type Sys } from './system-state.js';
import { request } from './system-world.js';

type Cover = { tsym: string; product: string; netQty: number; status: string; exits: { al_id: string }[] };
type Detail = { tsym: string; netQty: number; autoCover?: { placed: boolean; al_id?: string; code?: string } };

/** Each autocover OCO seen, by al_id: the position and net quantity it was first seen for (per sequence). */
const seen = new WeakMap<Sys, Map<string, string>>();

const autoCovers = (s: Sys) =>
  [...s.w.stack.emulator.emulator.state.orders.values()].filter((g) => g.remarks.startsWith('autocover'));

/** Invariant 20 on what the runs recorded. */
export const checkCoverage = (s: Sys): void => {
  const byKey = new Map<string, string>();
  for (const [alId, key] of seen.get(s) ?? []) {
    const other = byKey.get(key);
    if (other) fail(s, 20, `autoCover placed two OCOs for ${key}: ${other} and ${alId}`);
    byKey.set(key, alId);
  }
};

const SETTINGS = [
  { watch: true, autoCover: { target: 20, stop: '1%' } },
  { watch: true, autoCover: { target: '2%', stop: 15 } },
  { watch: true },
  { watch: false },
] as const;

const coverage = fc.constantFrom(...SETTINGS).map(
  (settings) =>
    new Command('coverage', `coverage ${JSON.stringify(settings)}, watcher run`, async (s) => {
      const put = await request(s.w, 'PUT', '/positions/coverage', settings);
      s.log.push(`coverage settings: ${put.status}`);
      if (put.status !== 200) return;
      const run = (await s.w.stack.watch().catch(() => undefined)) as
        { coverage?: { error?: string; checked: number } } | undefined;
      s.log.push(`watcher: ${run?.coverage ? JSON.stringify(run.coverage) : 'no coverage step'}`);
      const read = await request(s.w, 'GET', '/positions/coverage');
      if (read.status !== 200) return;
      const positions = (read.body as { positions: Cover[] }).positions;
      const recorded = seen.get(s) ?? new Map<string, string>();
      seen.set(s, recorded);
      const covers = autoCovers(s);
      for (const g of covers) {
        if (recorded.has(g.al_id)) continue;
        const p = positions.find((x) => x.exits.some((e) => e.al_id === g.al_id));
        if (p) recorded.set(g.al_id, `${p.tsym}:${p.product}:${p.netQty}`);
      }
      checkCoverage(s);
      if (!('autoCover' in settings) || !run?.coverage || run.coverage.error) return;
      // Invariant 21: each open position is covered, or its event says why.
      const events = s.w.stack.eventBridge.events
        .filter((e) => e['detail-type'] === 'Position Unprotected')
        .map((e) => e.detail as Detail);
      const pending = new Set(covers.filter((g) => g.state === 'pending').map((g) => g.al_id));
      for (const p of positions) {
        if (p.status === 'covered') continue;
        const said = events.some(
          (d) =>
            d.tsym === p.tsym &&
            d.netQty === p.netQty &&
            d.autoCover !== undefined &&
            (!d.autoCover.placed || (d.autoCover.al_id !== undefined && !pending.has(d.autoCover.al_id))),
        );
        if (!said)
          fail(
            s,
            21,
            `${p.tsym} ${p.product} net ${p.netQty} is ${p.status} after a run with autoCover, and no event says why`,
          );
      }
    }),
);

export const protectCommands = { coverage };
