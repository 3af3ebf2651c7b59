/**
 * The day's limits in the system model (system-model.ts): `PUT /risk` with a loss limit (or a profit target) either
 * crossed by the emulator's P&L as it stands or far from it, in either mode, on a new day (the day's state item
 * removed and the square-off's journaled keys forgotten, as midnight in India would leave none: system-days.ts), then
 * one watcher run. Invariant 12: a limit crossed at that run
 * halts trading within it: the P&L the emulator's own books give (its PositionBook's records, from its fills and
 * its market) past the limit before and after the run, the run done and its check not `unchecked` (a failed read
 * decides nothing), then the kill switch is on. The limits are turned off again after, so the rest of the sequence
 * is not halted behind the model's back; a halt the check made is the model's halt (every order may be gone).
 * Invariant 13: with squareOff, no position the emulator holds flips its sign across the run (a square-off never
 * sells more than is held, nor buys back more than is short).
 */
import fc from 'fast-check';

import { instrumentToken } from '../../emulator/state/formats.js';
import { positionsOf } from '../../emulator/state/positions.js';
import { ltpKey } from '../../emulator/state/state.js';
import { DeleteItemCommand, dynamoDbClient } from '../../functions/base/aws/dynamo.js';
import { indiaDay } from '../../functions/base/schemas/india-time.js';
import { dayKey } from '../../functions/risk/store.js';
import { LOCAL_EVENTS_TABLE } from '../../local/dynamodb.js';
import { newSquareOffDay } from './system-days.js';
import { fail } from './system-invariants.js';
import { Command, type Sys } from './system-state.js';
import { request } from './system-world.js';

/** The emulator's PositionBook records now (its fills, marked to its market). */
const records = (s: Sys) => {
  const emulator = s.w.stack.emulator.emulator;
  return positionsOf(
    emulator.book.orders.values(),
    s.w.stack.emulator.uid,
    (exch, tsym) => instrumentToken(exch, tsym),
    (exch, tsym) => emulator.state.ltps.get(ltpKey(exch, tsym)),
  );
};

/** The day's P&L (realised + unrealised, rupees) the emulator's PositionBook would answer now. */
export const emulatorPnl = (s: Sys): number =>
  records(s).reduce((sum, r) => sum + Number(r.rpnl) + Number(r.urmtom), 0);

/**
 * What waits at the emulator to close each position of `held` on its closing side: pending GTTs and OCOs (an OCO
 * once, at its larger leg) and open limit orders (resting, as a square-off's may), by exchange, symbol and product.
 */
const closing = (s: Sys, held: ReadonlyMap<string, number>): Map<string, number> => {
  const out = new Map<string, number>();
  const add = (o: { exch: string; tsym: string; prd: string; trantype: string; qty: number }, weight = o.qty) => {
    const key = `${o.exch}:${o.tsym}:${o.prd}`;
    const net = held.get(key) ?? 0;
    if (net === 0 || o.trantype !== (net > 0 ? 'S' : 'B')) return;
    out.set(key, (out.get(key) ?? 0) + weight);
  };
  const emulator = s.w.stack.emulator.emulator;
  for (const g of emulator.state.orders.values()) {
    if (g.state !== 'pending') continue;
    const legs = g.kind === 'oco' ? [g.legs.x, g.legs.y] : [g];
    const largest = legs.reduce((most, leg) => (leg.qty > most.qty ? leg : most));
    add({ ...largest, exch: g.exch, tsym: g.tsym });
  }
  for (const o of emulator.book.orders.values()) if (o.resting) add(o);
  return out;
};

/** Each position's net quantity, by exchange, symbol and product. */
const netQtys = (s: Sys): Map<string, number> =>
  new Map(records(s).map((r) => [`${String(r.exch)}:${String(r.tsym)}:${String(r.prd)}`, Number(r.netqty)]));

type Limits = { dayLossLimit?: number; dayProfitTarget?: number };

/** A limit the P&L crosses (when it is not 0), or one far from it. */
const limitsFor = (total: number, crossed: boolean): Limits => {
  const half = Math.max(0.01, Math.round(Math.abs(total) * 50) / 100);
  if (crossed && total < 0) return { dayLossLimit: half };
  if (crossed && total > 0) return { dayProfitTarget: half };
  const far = Math.round(Math.abs(total)) + 100_000;
  return { dayLossLimit: far, dayProfitTarget: far };
};

const past = (limits: Limits, total: number): boolean =>
  (limits.dayLossLimit !== undefined && total <= -limits.dayLossLimit) ||
  (limits.dayProfitTarget !== undefined && total >= limits.dayProfitTarget);

const riskLimit = fc
  .record({
    crossed: fc.boolean(),
    mode: fc.constantFrom<'keep-exits' | 'cancel-all'>('keep-exits', 'cancel-all'),
    squareOff: fc.boolean(),
  })
  .map(
    ({ crossed, mode, squareOff }) =>
      new Command(
        'risk limit',
        `risk limit ${crossed ? 'crossed' : 'far'} (${mode}${squareOff ? ', square-off' : ''}), a watcher run`,
        async (s) => {
          // A new India day: no state yet.
          await dynamoDbClient(s.w.stack.dynamo.url).send(
            new DeleteItemCommand({ TableName: LOCAL_EVENTS_TABLE, Key: dayKey(indiaDay(Date.now())) }),
          );
          await newSquareOffDay(s.w);
          const limits = limitsFor(emulatorPnl(s), crossed);
          const set = await request(s.w, 'PUT', '/risk', { ...limits, mode, squareOff });
          if (set.verdict !== 'ok') throw new Error(`PUT /risk answered ${set.status} ${set.code ?? ''}`);
          const before = emulatorPnl(s);
          const held = netQtys(s);
          const waitingBefore = closing(s, held);
          const run = (await s.w.stack.watch().catch((error: unknown) => ({
            status: `failed: ${(error as Error).message}`,
          }))) as { status: string; risk?: { status: string; pnl?: { total: number } } };
          const after = emulatorPnl(s);
          // Invariant 13: a square-off never sells (or buys back) more than is held: no position flips its sign.
          for (const [position, qty] of netQtys(s)) {
            const was = held.get(position) ?? 0;
            if ((was > 0 && qty < 0) || (was < 0 && qty > 0))
              fail(
                s,
                13,
                `${position} held ${was} before the watcher run and ${qty} after it (square-off ${squareOff})`,
              );
          }
          // ... and never closes what the exits kept for a position will close: once they fire, it would cross flat.
          const now = netQtys(s);
          for (const [position, waiting] of closing(s, held)) {
            const was = held.get(position) ?? 0;
            const left = now.get(position) ?? 0;
            const sameSide = (was > 0 && left >= 0) || (was < 0 && left <= 0);
            if (
              squareOff &&
              sameSide &&
              (waitingBefore.get(position) ?? 0) <= Math.abs(was) &&
              waiting > Math.abs(left)
            )
              fail(
                s,
                13,
                `${position} held ${was}, ${left} after the square-off, yet what waits to close it (exits kept, orders open) is ${waiting}: past flat once they fire`,
              );
          }
          await request(s.w, 'PUT', '/risk', {});
          s.log.push(`risk: P&L ${before} -> ${after}, run ${run.status}, check ${run.risk?.status ?? '-'}`);
          const halt = await request(s.w, 'GET', '/kill-switch');
          if (halt.body.halted === true && s.halt === 'off') {
            // The check turned it: the sweep may have taken any pending order (keep-exits: not the exits).
            for (const o of s.orders) o.mayBeGone = true;
            if (mode === 'cancel-all') for (const kept of s.kept.values()) kept.released = true;
            s.halt = 'unclean';
          }
          const ran = run.status === 'ok' || run.status === 'baseline';
          if (!ran || run.risk === undefined || run.risk.status === 'unchecked') return;
          if (past(limits, before) && past(limits, after) && halt.body.halted !== true)
            fail(
              s,
              12,
              `the day's P&L was ${after} against ${JSON.stringify(limits)} at a watcher run, yet the kill switch is off (check: ${JSON.stringify(run.risk)})`,
            );
          if (!past(limits, before) && !past(limits, after) && run.risk.status === 'hit')
            fail(s, 12, `the day's P&L was ${after}, not past ${JSON.stringify(limits)}, yet the check says hit`);
        },
      ),
  );

export const riskCommands = { riskLimit };
