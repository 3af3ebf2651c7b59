/**
 * Coverage against what live plans owe (functions/risk/coverage.ts, `owedQty`; docs/explanation/coverage.md): on
 * ICICIBANK-EQ (a symbol no other command trades), with coverage and autoCover maybe switched on, a bracket is started
 * through POST /plans, its entry fills (the price crosses it), and the watcher run that sees the fill places its exit
 * OCO, that place maybe dropped (carried out by the broker or not: the plan owes its exit until a later run places
 * or adopts it); then maybe a run with the plans' clock past their tries' leases (the exit placed again), and maybe
 * the price falls through every stop. Coverage runs in each watcher run (after the plans' steps), and pc.coverage's
 * runs land between these steps too.
 *
 * 22. autoCover plus a plan never over-cover a position: on ICICIBANK-EQ, whenever an `autocover` OCO is pending at
 *     the broker, the exits pending there on the closing side (an OCO once, at its larger leg) are no more than the
 *     position held; and the position, bought only, is never sold short (two stops that both fired). The position
 *     and the broker's orders are the emulator's own state.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import fc from 'fast-check';

import type { Order } from '../../emulator/state/state.js';
import { createPlanEngine } from '../../functions/plans/engine-wiring.js';
import { fail } from './system-invariants.js';
import { heldOf, pendingExitsOf } from './system-outside.js';
import { Command, keyOf, nextId, type Sys } from './system-state.js';
import { request } from './system-world.js';

const TSYM = 'ICICIBANK-EQ';
/** Its start price (the emulator's sandbox close). */
const START = 1380;
const ENTRY = START - 10;
const STOP = START - 60;

/** The sequences this command ran in: the invariant is theirs only. */
const RAN = new WeakSet<Sys>();

/** The net quantity of NSE:ICICIBANK-EQ product C, from the emulator's own fills. */
const held = (s: Sys): number => heldOf(s, TSYM);

/** What the pending orders of the symbol would sell: an OCO once, at its larger leg. */
const pendingSells = (gtts: Order[]): number => pendingExitsOf(gtts, TSYM, 'S');

/** Invariant 22, after every step of a sequence this command ran in. */
export const checkCoverGap = (s: Sys, gtts: Order[]): void => {
  if (!RAN.has(s)) return;
  const position = held(s);
  if (position < 0) fail(s, 22, `${TSYM} was bought only, yet is short ${position}: two exits both sold it`);
  const covers = gtts.filter((g) => g.tsym === TSYM && g.state === 'pending' && g.remarks.startsWith('autocover'));
  if (!covers.length) return;
  const sells = pendingSells(gtts);
  if (sells > Math.abs(position))
    fail(
      s,
      22,
      `${TSYM} held ${position}, yet its pending exits sell ${sells}, autoCover's ${covers.map((g) => g.al_id).join(', ')} among them`,
    );
};

/** An engine whose clock runs two minutes ahead: every try in flight has lapsed, its step is taken again. */
const laterEngine = (s: Sys) => {
  const engine = createPlanEngine(s.w.stack.config, new Logger({ serviceName: 'system-model', logLevel: 'SILENT' }));
  (engine as unknown as { deps: { now?: () => Date } }).deps.now = () => new Date(Date.now() + 120_000);
  return engine;
};

const coverOwed = fc
  .record({
    autoCover: fc.constantFrom(true, true, false),
    qty: fc.constantFrom(1, 2, 5),
    lost: fc.constantFrom<'unexecuted' | 'executed' | 'none'>('unexecuted', 'unexecuted', 'executed', 'none'),
    later: fc.boolean(),
    fire: fc.constantFrom(false, false, true),
  })
  .map(
    ({ autoCover, qty, lost, later, fire }) =>
      new Command(
        'coverage owed exit',
        `bracket ${TSYM} x${qty}${autoCover ? ' with autoCover' : ''}, its exit place ${lost === 'none' ? 'answered' : `dropped (${lost})`}${later ? ', then a lapsed run' : ''}${fire ? ', then every stop crossed' : ''}`,
        async (s) => {
          RAN.add(s);
          if (autoCover) {
            const put = await request(s.w, 'PUT', '/positions/coverage', {
              watch: true,
              autoCover: { target: 20, stop: '1%' },
            });
            s.log.push(`  cover gap: coverage ${put.status}`);
          }
          const body = {
            kind: 'bracket',
            entry: {
              exch: 'NSE',
              tsym: TSYM,
              qty,
              prc: String(ENTRY),
              d: String(ENTRY),
              prd: 'C',
              trantype: 'B',
              prctyp: 'LMT',
              ret: 'DAY',
              ai_t: 'LTP_B_O',
            },
            target: { trigger: String(START + 80), price: String(START + 80) },
            stopLoss: { trigger: String(STOP), price: String(STOP) },
          };
          const created = await request(s.w, 'POST', '/plans', body, { 'Idempotency-Key': keyOf(nextId()) });
          s.log.push(`  cover gap: POST /plans ${created.status} ${String(created.body.planId ?? created.code)}`);
          if (created.status !== 201) return;
          await s.w.control.ltp('NSE', TSYM, ENTRY - 1);
          await s.w.control.ltp('NSE', TSYM, START);
          if (lost !== 'none')
            await s.w.control.fault({
              operation: 'PlaceOCOOrder',
              kind: 'drop',
              executed: lost === 'executed',
              times: 1,
            });
          const run = (await s.w.stack.watch().catch(() => undefined)) as { coverage?: unknown } | undefined;
          await s.w.control.clearFaults();
          s.log.push(`  cover gap: held ${held(s)}, coverage ${JSON.stringify(run?.coverage ?? null).slice(0, 120)}`);
          if (later) {
            await laterEngine(s)
              .advance(Date.now() + 12_000)
              .catch(() => undefined);
            await s.w.stack.watch().catch(() => undefined);
          }
          if (fire) {
            await s.w.control.ltp('NSE', TSYM, STOP - 40);
            await s.w.control.ltp('NSE', TSYM, START);
            await s.w.stack.watch().catch(() => undefined);
          }
          s.log.push(`  cover gap: held ${held(s)} at the end`);
        },
      ),
  );

export const coverGapCommands = { coverOwed };
