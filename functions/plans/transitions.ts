/**
 * The plan changes both kinds share, each one commit with its event: the first GTT armed (placed or adopted), the
 * plan failed, unprotected (a position without a live exit), done; and placing the first GTT (the entry or the
 * stop) through a try (actions.ts).
 */
import type { GatewayError } from '../base/contract/errors.js';
import type { Plan, PlanPosition } from '../base/schemas/plans.js';
import { tryAction, withoutTry } from './actions.js';
import type { PlanDeps } from './engine-needs.js';
import { stampOf } from './stamps.js';
import { findPending, type FiredOrder, type Truth } from './truth.js';
import type { Working } from './versioned-plan.js';

export interface StepContext {
  deps: PlanDeps;
  truth: Truth;
  deadline: number;
}

/** An order that will not change any more: filled, rejected, cancelled (a part may have filled first). */
export const ended = (o: FiredOrder): boolean =>
  o.status === 'filled' ||
  o.status === 'rejected' ||
  o.status === 'cancelled' ||
  (o.status === 'partially-filled' && /^(CANCEL+ED|REJECTED|EXPIRED)$/i.test(o.brokerStatus ?? ''));

export const orderWords = (o: FiredOrder): string =>
  `${o.status}${o.rejection ? `: ${o.rejection.code} (${o.rejection.text})` : ''}`;

const firstField = (plan: Plan) => (plan.kind === 'bracket' ? 'entry' : 'stop');

/** The first GTT (the entry or the stop) is at the broker: its al_id recorded, Plan Armed told. */
export const armFirst = async (w: Working, alId: string, adopted: boolean): Promise<string | undefined> => {
  const field = firstField(w.plan);
  const next = w.record(
    { ...withoutTry(w.plan), alIds: { ...w.plan.alIds, [field]: alId } },
    `${field}-${adopted ? 'adopted' : 'placed'}`,
    { al_id: alId },
  );
  return (await w.commit(next, [{ type: 'Plan Armed', extra: { al_id: alId } }])) ? 'armed' : undefined;
};

export type FirstResult =
  | { kind: 'armed' }
  | { kind: 'busy' }
  | { kind: 'refused'; failure: GatewayError }
  | { kind: 'unknown'; failure: GatewayError };

/** Places the plan's first GTT with its stamp; a lost reply is looked for at once in the pending list. */
export const placeFirst = async (w: Working, deps: PlanDeps, deadline: number): Promise<FirstResult> => {
  const plan = w.plan;
  const step = plan.kind === 'bracket' ? 'e' : 's';
  const stamp = stampOf(plan.planId, step);
  const order = (plan.kind === 'bracket' ? plan.entry : plan.order) ?? {};
  const result = await tryAction(w, {
    stamp,
    base: step,
    deadline,
    call: (key) => deps.place({ ...order, tag: stamp, idempotencyKey: key }, deadline),
  });
  if (result.kind === 'busy') return result;
  if (result.kind === 'done') {
    await armFirst(w, String(result.result.al_id), false);
    return { kind: 'armed' };
  }
  if (result.kind === 'refused') return result;
  const found = await findPending(deps.pending, stamp, deadline).catch(() => undefined);
  if (!found) return result;
  await armFirst(w, found.al_id, true);
  return { kind: 'armed' };
};

export const fail = async (w: Working, reason: string, action: string, alId?: string): Promise<string | undefined> => {
  const next = w.record({ ...withoutTry(w.plan), state: 'failed', reason }, action, alId ? { al_id: alId } : {});
  const told = await w.commit(next, [{ type: 'Plan Failed', extra: { reason, ...(alId ? { al_id: alId } : {}) } }]);
  return told ? 'failed' : undefined;
};

/**
 * A filled position without a live exit: said once (Plan Unprotected, in the webhook's default notifyOn) when the
 * plan becomes unprotected; `retrying` says whether the gateway places an exit again by itself.
 */
export const unprotect = async (
  w: Working,
  reason: string,
  options: { retrying: boolean; keepTry?: boolean; changes?: Partial<Plan>; alId?: string },
): Promise<string | undefined> => {
  const was = w.plan.state;
  const base = options.keepTry ? w.plan : withoutTry(w.plan);
  const next = w.record(
    { ...base, ...options.changes, state: 'unprotected', reason, retrying: options.retrying },
    'unprotected',
    { reason },
  );
  const position: PlanPosition | undefined =
    next.position ??
    (next.kind === 'trailing-stop'
      ? {
          side: next.order?.trantype === 'S' ? 'B' : 'S',
          qty: Number(next.order?.qty ?? 0),
        }
      : undefined);
  const events =
    was === 'unprotected'
      ? []
      : [
          {
            type: 'Plan Unprotected' as const,
            extra: { reason, ...(position ? { position } : {}), ...(options.alId ? { al_id: options.alId } : {}) },
          },
        ];
  return (await w.commit(next, events)) ? 'unprotected' : undefined;
};

export const done = async (w: Working, action: string, alId: string): Promise<string | undefined> => {
  const { position: _closed, ...rest } = withoutTry(w.plan);
  const next = w.record({ ...rest, state: 'done', reason: undefined, retrying: undefined }, action, { al_id: alId });
  return (await w.commit(next, [{ type: 'Plan Done', extra: { al_id: alId } }])) ? 'done' : undefined;
};
