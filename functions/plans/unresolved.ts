/**
 * A try nobody waits for any more, and the broker does not show yet: its invocation's deadline has passed (the
 * invocation was killed, or its call timed out and the run ended) and its lease has not (the broker may still carry
 * it out, so nothing is tried again). Every run that meets it says so instead of waiting in silence: the try is in
 * the run's `waiting`, and a warning with the metric `PlanTryUnresolved` is logged. A bracket's exit try leaves a
 * filled position without a live exit, so the plan is `unprotected` at once (Plan Unprotected, said once: a plan
 * already unprotected is not told again), still `retrying`, its try kept: adopted when the broker shows the exit
 * (`exit-armed`), placed again with the next key once the lease has passed. Other tries protect nothing new:
 * an entry opens no position until it is placed, a stop's move leaves the old stop in place (the modify changes the
 * pending GTT, which stays pending either way), and a trailing stop's first stop belongs to a plan not yet armed,
 * whose create answered that its outcome is unknown (no Plan Armed was told).
 */
import type { Plan } from '../base/schemas/plans.js';
import { callEnds } from './actions.js';
import { parseStamp } from './stamps.js';
import { unprotect } from './transitions.js';
import type { Working } from './versioned-plan.js';

/** A try a run found unresolved past its invocation's deadline (AdvanceResult.waiting). */
export interface WaitingTry {
  planId: string;
  /** The stamp its GTT carries at the broker, e.g. `pl0123456789abcdef.x1`. */
  stamp: string;
  /** The deadline of the invocation that sent it: nobody has waited for its answer since. */
  since: string;
  /** Its lease: until then the broker may still carry it out, and then the step is tried again. */
  until: string;
  /** Whether a filled position has no live exit meanwhile (the plan is `unprotected`). */
  unprotected: boolean;
}

/** Whether the try leaves a filled position without a live exit: a bracket's exit. */
const exposes = (plan: Plan, stamp: string): boolean =>
  plan.kind === 'bracket' && plan.position !== undefined && /^x\d+$/.test(parseStamp(stamp)?.step ?? '');

/**
 * The plan's try, still within its lease: said when its invocation is over (the plan unprotected if the position
 * waits on it), nothing while that invocation may still be waiting for the answer.
 */
export const sayUnresolved = async (
  w: Working,
  warn?: (message: string, fields: Record<string, unknown>) => void,
): Promise<WaitingTry | undefined> => {
  const f = w.plan.inFlight;
  if (!f || w.now().getTime() <= callEnds(f)) return undefined;
  const since = new Date(callEnds(f)).toISOString();
  const unprotected = exposes(w.plan, f.stamp);
  warn?.('plan: a broker write is unresolved after its invocation ended; nothing is tried again until its lease ends', {
    planId: w.plan.planId,
    stamp: f.stamp,
    key: f.key,
    since,
    until: f.leaseUntil,
    state: w.plan.state,
    unprotected,
    metric: 'PlanTryUnresolved',
  });
  if (unprotected && w.plan.state !== 'unprotected')
    await unprotect(
      w,
      `the exit OCO's try ${f.key} is unresolved: the invocation that sent it ended without its answer, and the broker does not show it. The next runs adopt it if it arrives, or place it again after ${f.leaseUntil}`,
      { retrying: true, keepTry: true },
    );
  return { planId: w.plan.planId, stamp: f.stamp, since, until: f.leaseUntil, unprotected };
};
