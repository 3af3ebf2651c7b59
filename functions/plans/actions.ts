/**
 * One broker write of a plan (place the entry, the exit or the stop; move the stop), carried out so that it is never
 * done twice: the try is written into the plan first (`inFlight`: the GTT's stamp, the try's idempotency key, the
 * deadline of the invocation making it, and its lease: until when the broker may still carry it out, that deadline
 * plus LATE_WINDOW_MS), conditional on the version read, so only one run or request makes it; then the call, with
 * the invocation's own deadline. A try whose outcome stays unknown is left in the plan, and the next run (or DELETE)
 * resolves it against the broker's lists (`inFlightState`): found, it is adopted; not found once its lease has
 * passed, it is cleared and the next try takes a new key. In between, every run says it (unresolved.ts).
 */
import { fromDirectInvocation, type GatewayError } from '../base/contract/errors.js';
import type { Plan } from '../base/schemas/plans.js';
import { LATE_WINDOW_MS } from './limits.js';
import type { Truth } from './truth.js';
import type { Working } from './versioned-plan.js';

export type TryResult =
  | { kind: 'done'; result: Record<string, unknown> }
  | { kind: 'refused'; failure: GatewayError }
  | { kind: 'unknown'; failure: GatewayError }
  | { kind: 'busy' };

/** Refusals that pass by themselves (the next run tries again): not counted against the exit's tries. */
export const TRANSIENT = new Set([
  'RATE_LIMITED',
  'SESSION_EXPIRED',
  'TRADING_HALTED',
  'IDEMPOTENCY_IN_PROGRESS',
  'ORDER_BUSY',
  'BROKER_UNAVAILABLE',
  'BROKER_TIMEOUT',
  'INTERNAL_ERROR',
  'CONFIGURATION_ERROR',
]);

export interface TrySpec {
  /** The stamp the GTT carries at the broker (stamps.ts). */
  stamp: string;
  /** What distinguishes this action's keys: `e`, `s`, `x1`, `t4` (a trail). */
  base: string;
  /** Changes written with the try (a state, the position), and the trailing stop's target trigger and price. */
  changes?: Partial<Plan>;
  target?: { trigger: string; price: string };
  deadline: number;
  call: (key: string) => Promise<unknown>;
}

/** Records the try, then makes the call; `busy` when another run or request got to the plan first. */
export const tryAction = async (w: Working, spec: TrySpec): Promise<TryResult> => {
  const tries = w.plan.tries?.base === spec.base ? w.plan.tries.count + 1 : 1;
  const key = `${w.plan.planId}-${spec.base}-${tries}`;
  // The deadline is the wall clock's; the plan's times are the engine's clock (the same in a deployment).
  const ends = w.now().getTime() + Math.max(0, spec.deadline - Date.now());
  const started = await w.commit({
    ...w.plan,
    ...spec.changes,
    tries: { base: spec.base, count: tries },
    inFlight: {
      stamp: spec.stamp,
      key,
      attempt: tries,
      deadline: new Date(ends).toISOString(),
      leaseUntil: new Date(ends + LATE_WINDOW_MS).toISOString(),
      ...(spec.target ? { trigger: spec.target.trigger, price: spec.target.price } : {}),
    },
  });
  if (!started) return { kind: 'busy' };
  try {
    return { kind: 'done', result: ((await spec.call(key)) ?? {}) as Record<string, unknown> };
  } catch (error) {
    const failure = fromDirectInvocation(error);
    return failure.outcome === 'unknown' ? { kind: 'unknown', failure } : { kind: 'refused', failure };
  }
};

/** The plan without its try (it ended: done, refused, or found not to have reached the broker). */
export const withoutTry = (plan: Plan): Plan => {
  const { inFlight: _ended, ...rest } = plan;
  return rest;
};

export type InFlightState =
  | { kind: 'none' }
  | { kind: 'found'; where: 'pending' | 'fired'; alId: string; trigger?: string | undefined }
  | { kind: 'lapsed' }
  | { kind: 'busy'; retryAfterMs: number };

/**
 * When the try's call ends at the latest: the deadline of the invocation that sent it (a try recorded before that
 * field existed: its lease less the late window).
 */
export const callEnds = (f: NonNullable<Plan['inFlight']>): number =>
  f.deadline !== undefined ? Date.parse(f.deadline) : Date.parse(f.leaseUntil) - LATE_WINDOW_MS;

/** What the broker says of the plan's unresolved try, if it has one. */
export const inFlightState = (plan: Plan, truth: Truth, now: Date): InFlightState => {
  const f = plan.inFlight;
  if (!f) return { kind: 'none' };
  const found = truth.byStamp(f.stamp);
  const left = Date.parse(f.leaseUntil) - now.getTime();
  if (found && f.trigger === undefined) return { kind: 'found', where: found.where, alId: found.gtt.al_id };
  if (found?.where === 'pending' && f.trigger !== undefined) {
    // A stop move: done when the broker's stop has the new trigger.
    const trigger = found.gtt.trigger;
    if (trigger !== undefined && Number(trigger) === Number(f.trigger))
      return { kind: 'found', where: 'pending', alId: found.gtt.al_id, trigger };
  }
  return left > 0 ? { kind: 'busy', retryAfterMs: left } : { kind: 'lapsed' };
};
