/**
 * The signal worker's sweep (docs/explanation/signals.md, "When the queue does not take a signal"): the SignalWorker's scheduled
 * run (`{"sweep": true}`, every minute) acts on the signals still pending SWEEP_AFTER_MS after they were received,
 * through the same work as a queue message (worker.ts), so a signal whose message never reached the queue (SendMessage
 * failed, timed out, or the webhook stopped before sending) is still acted on. It never acts twice: completing a
 * signal is conditional on its state being `received`, and its orders carry the keys `sg-<signalId>-<n>`, so a sweep
 * that meets a signal the queue also delivers (or an earlier sweep began) replays those orders instead of placing.
 *
 * The bounds:
 * - SWEEP_AFTER_MS, 2 minutes: longer than a queue delivery plus the worker's run (its timeout is 60 s), so a signal
 *   whose message did reach the queue has been completed by then and is not swept; a lost one waits at most this
 *   plus the schedule's minute.
 * - SWEEP_MAX_AGE_MS, 15 minutes: a signal pending longer is no longer acted on (an alert's price goes stale; the
 *   queue's own deliveries end by about 12 minutes, three of them a 6-minute visibility timeout apart). Its marker is
 *   dropped, it stays `received`, the line is logged (`metric: 'SignalNotActed'`) and the run fails, which trips the
 *   SignalWorker's Errors alarm, as the dead-letter queue's alarm tells of a signal the queue gave up on.
 * - per run: at most SWEEP_MAX_SIGNALS signals acted on, none started within SWEEP_RESERVE_MS of the deadline; the
 *   rest are the next run's (`more`).
 */
import type { Logger } from '@aws-lambda-powertools/logger';

import { writeLog } from '../base/runtime/logger.js';
import type { SignalMessage } from '../base/schemas/signals.js';
import type { PendingSignal, SignalStore } from './store.js';

export const SWEEP_AFTER_MS = 2 * 60_000;
export const SWEEP_MAX_AGE_MS = 15 * 60_000;
export const SWEEP_MAX_SIGNALS = 20;
/** No signal is started this close to the run's deadline (one signal's alerts stop 3 s before it: act-on-signal.ts). */
export const SWEEP_RESERVE_MS = 10_000;
/** Markers read a Query page. */
const PAGE = 50;

/** What one message came to (the local queue, the sweep and tests read it). */
export type WorkOutcome = 'acted' | 'refused' | 'already-done' | 'unknown-signal';

export interface SweepResult {
  acted: string[];
  refused: string[];
  /** Completed meanwhile (by the queue's delivery, or an earlier run). */
  alreadyDone: string[];
  /** Markers whose signal was never written (the webhook's put failed after its marker): dropped. */
  unknown: string[];
  /** Not completed this run (a "not now", a failure): the next run, or the queue, tries again. */
  notNow: string[];
  /** Pending longer than SWEEP_MAX_AGE_MS: no longer acted on; left `received`. */
  abandoned: string[];
  /** Pending signals left for the next run (the count or the deadline). */
  more: boolean;
}

export interface SweepDeps {
  signals: Pick<SignalStore, 'pending' | 'unmark'>;
  work: (message: SignalMessage, deadline: number) => Promise<WorkOutcome>;
  logger: Logger;
  /** The clock the signals' ages are read by. */
  now: () => number;
}

const BY_OUTCOME = {
  acted: 'acted',
  refused: 'refused',
  'already-done': 'alreadyDone',
  'unknown-signal': 'unknown',
} as const satisfies Record<WorkOutcome, keyof SweepResult>;

/** One sweep: the pending signals older than the bound, oldest first, until the count or the deadline. */
export const sweepSignals = async (deps: SweepDeps, deadline: number): Promise<SweepResult> => {
  const { signals, work, logger } = deps;
  const now = deps.now();
  const before = new Date(now - SWEEP_AFTER_MS).toISOString();
  const tooOld = new Date(now - SWEEP_MAX_AGE_MS).toISOString();
  const result: SweepResult = {
    acted: [],
    refused: [],
    alreadyDone: [],
    unknown: [],
    notNow: [],
    abandoned: [],
    more: false,
  };
  let started = 0;

  const abandon = async (pending: PendingSignal) => {
    await signals.unmark(pending);
    result.abandoned.push(pending.signalId);
    writeLog(logger, 'error', 'signal not acted on: pending longer than the sweep acts on; it stays received', {
      signalId: pending.signalId,
      strategyId: pending.strategyId,
      receivedAt: pending.receivedAt,
      maxAgeMinutes: SWEEP_MAX_AGE_MS / 60_000,
      metric: 'SignalNotActed',
    });
  };

  const act = async (pending: PendingSignal) => {
    started++;
    try {
      const outcome = await work({ signalId: pending.signalId, strategyId: pending.strategyId }, deadline);
      // The work drops the marker of a signal it completed (or found completed); one without a signal is ours.
      if (outcome === 'unknown-signal') await signals.unmark(pending);
      result[BY_OUTCOME[outcome]].push(pending.signalId);
    } catch (error) {
      result.notNow.push(pending.signalId);
      writeLog(logger, 'warn', 'signal not completed by the sweep; the next run tries again', {
        signalId: pending.signalId,
        error,
      });
    }
  };

  let next: Awaited<ReturnType<SweepDeps['signals']['pending']>>['next'];
  do {
    const page = await signals.pending(before, PAGE, next);
    next = page.next;
    for (const pending of page.signals) {
      if (deadline - Date.now() < SWEEP_RESERVE_MS) return { ...result, more: true };
      if (pending.receivedAt < tooOld) {
        await abandon(pending);
        continue;
      }
      if (started >= SWEEP_MAX_SIGNALS) return { ...result, more: true };
      await act(pending);
    }
  } while (next);
  return result;
};
