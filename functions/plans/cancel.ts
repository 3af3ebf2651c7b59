/**
 * `DELETE /plans/{planId}`, honestly: the plan's try is resolved first (a step at the broker right now answers 409
 * PLAN_BUSY with when to retry), the plan is marked cancelled (so no run starts another step), then every pending
 * GTT stamped by the plan is cancelled, including one whose reply was lost. The answer says what is left: the open
 * position (a filled entry, a stop's position) and an entry order still open at the exchange, in `left`.
 */
import { fromDirectInvocation, PlanBusyError, PlanNotFoundError } from '../base/contract/errors.js';
import { TERMINAL } from '../base/schemas/event-types.js';
import type { Plan, PlanPosition } from '../base/schemas/plans.js';
import { callEnds, withoutTry } from './actions.js';
import type { PlanDeps } from './engine-needs.js';
import { cancelLegs } from './legs-close.js';
import { LATE_WINDOW_MS } from './limits.js';
import { stampOf } from './stamps.js';
import { ended } from './transitions.js';
import { dayBook, readTruth, type Truth } from './truth.js';
import { Working } from './versioned-plan.js';

type Resolve = (w: Working, truth: Truth) => Promise<'none' | 'adopted' | 'busy'>;

/**
 * An option plan whose entry was placed (an IOC: filled at once or not at all): what the day's order book shows of it
 * (by its number, or by the plan's stamp in its remarks when the reply that named it was lost); `busy` while an entry
 * not in the book may still be on its way (the step that sends it within its late window).
 */
const optionEntryLeft = async (
  plan: Plan,
  deps: PlanDeps,
  deadline: number,
  now: number,
): Promise<{ position?: PlanPosition; note?: string } | 'busy'> => {
  const option = plan.option!;
  const order = (await dayBook(deps.orderBook, deadline)).find((o) =>
    option.entryOrder ? o.norenordno === option.entryOrder : o.tag === stampOf(plan.planId, 'e'),
  );
  const what = `${plan.entry?.trantype === 'S' ? 'short' : 'long'}`;
  const where = `${String(plan.entry?.exch)}:${String(plan.entry?.tsym)}`;
  if (!order) {
    const since = now - Date.parse(option.resolved?.at ?? plan.updatedAt);
    if (since < LATE_WINDOW_MS + 60_000) return 'busy';
    return { note: `the entry of ${where} is not in today's order book: nothing was bought or sold` };
  }
  if (!ended(order))
    return {
      note: `the entry order ${order.norenordno} is still open at the exchange (${order.brokerStatus ?? order.status}): cancel it in the broker's app if you do not want it`,
    };
  if (order.filledQty > 0)
    return {
      position: { side: plan.entry?.trantype === 'S' ? 'S' : 'B', qty: order.filledQty },
      note: `the entry order ${order.norenordno} filled ${order.filledQty}: ${what} ${order.filledQty} ${where} is open without an exit`,
    };
  return { note: `the entry order ${order.norenordno} was ${order.status}: nothing filled, no position is left` };
};

/** The position the plan leaves open, and what the trader should know of it. */
const whatIsLeft = (plan: Plan, truth: Truth): { position?: PlanPosition; note?: string } => {
  if (plan.kind === 'trailing-stop') {
    const qty = Number(plan.order?.qty ?? 0);
    const side = plan.order?.trantype === 'S' ? 'B' : 'S';
    const stop = truth.byId(plan.alIds.stop);
    if (stop?.where === 'fired' && stop.gtt.order && ended(stop.gtt.order) && stop.gtt.order.filledQty >= qty)
      return { note: 'the stop had fired and filled: no position is left' };
    return {
      position: { side, qty: plan.position?.qty ?? qty },
      note: `the position this stop protected (${side === 'B' ? 'long' : 'short'} ${qty}) is yours, without a stop`,
    };
  }
  const side = plan.entry?.trantype === 'S' ? 'S' : 'B';
  const words = (qty: number) => `${side === 'B' ? 'long' : 'short'} ${qty} ${plan.exch}:${plan.tsym}`;
  if (plan.state === 'armed') {
    const entry = truth.byId(plan.alIds.entry);
    if (entry?.where !== 'fired') return {};
    const order = entry.gtt.order;
    if (!order)
      return { note: "the entry had fired; its order is not in the order book yet: check it in the broker's app" };
    const open = !ended(order)
      ? " Its order is still open at the exchange: cancel it in the broker's app if you do not want more."
      : '';
    if (order.filledQty > 0)
      return {
        position: { side, qty: order.filledQty },
        note: `the entry had fired and filled ${order.filledQty}: ${words(order.filledQty)} is open without an exit.${open}`,
      };
    return open ? { note: `the entry had fired.${open}` } : {};
  }
  if (!plan.position) return {};
  let qty = plan.position.qty;
  const exit = truth.byId(plan.alIds.exit);
  if (exit?.where === 'fired' && exit.gtt.order) qty -= exit.gtt.order.filledQty;
  if (qty <= 0) return { note: 'the exit had filled: no position is left' };
  return { position: { side, qty }, note: `${words(qty)} is open without an exit` };
};

export const cancelPlan = async (
  deps: PlanDeps,
  planId: string,
  deadline: number,
  resolve: Resolve,
  round = 0,
): Promise<Plan> => {
  const read = await deps.store.get(planId);
  if (!read)
    throw new PlanNotFoundError(`No plan ${planId}: GET /plans lists the plans (ended plans are kept 30 days).`);
  if (TERMINAL.includes(read.plan.state)) return read.plan;
  if (read.plan.kind === 'option-legs') return cancelLegs(deps, planId, deadline);
  const w = new Working(read, deps, 'gateway');
  const truth = await readTruth(deps, deadline);
  const busy = () => {
    // Until the step's invocation ends (its call has its answer by then), then until its lease ends (a late broker).
    const f = w.plan.inFlight;
    const now = w.now().getTime();
    const live = f !== undefined && callEnds(f) > now;
    const left = !f ? NaN : live ? callEnds(f) - now : Date.parse(f.leaseUntil) - now;
    const seconds = Math.max(1, Math.ceil(left / 1000) || 5);
    const what = live
      ? 'a step at the broker right now'
      : 'a step whose answer was lost and the broker may still act on';
    return new PlanBusyError(
      `Plan ${planId} has ${what}; retry DELETE in ${seconds} s, and it cancels what that step placed. Nothing was changed.`,
      { details: { retryAfterSeconds: seconds }, outcome: 'not_executed' },
    );
  };
  if ((await resolve(w, truth)) === 'busy') throw busy();
  const optionLeft =
    w.plan.kind === 'option-entry' && w.plan.state === 'entry-placed'
      ? await optionEntryLeft(w.plan, deps, deadline, w.now().getTime())
      : undefined;
  if (optionLeft === 'busy')
    throw new PlanBusyError(
      `Plan ${planId}'s entry is being placed right now; retry DELETE in 30 s, and it says what the entry left. Nothing was changed.`,
      { details: { retryAfterSeconds: 30 }, outcome: 'not_executed' },
    );
  const left = optionLeft ?? whatIsLeft(w.plan, truth);
  const ending = w.record(
    { ...withoutTry(w.plan), state: 'cancelled', left: { ...left, cancelled: [] } },
    'cancelled',
    left.position ? { position: left.position } : undefined,
  );
  if (!(await w.commit(ending))) {
    if (round < 3) return cancelPlan(deps, planId, deadline, resolve, round + 1);
    throw busy();
  }
  // No step starts on a cancelled plan: every GTT it stamped that the broker holds is in this list.
  const cancelled: string[] = [];
  const failed: string[] = [];
  for (const gtt of truth.pendingOf(planId)) {
    try {
      await deps.cancel({ al_id: gtt.al_id }, deadline);
      cancelled.push(gtt.al_id);
    } catch (error) {
      const failure = fromDirectInvocation(error);
      if (failure.code !== 'ORDER_NOT_FOUND') failed.push(`${gtt.al_id} (${failure.code})`);
    }
  }
  const note = [
    left.note,
    failed.length
      ? `could not cancel ${failed.join(', ')}: the watcher's next runs cancel them, or cancel them in the broker's app`
      : undefined,
  ]
    .filter(Boolean)
    .join('; ');
  await w.commit({ ...w.plan, left: { ...left, cancelled, ...(note ? { note } : {}) } });
  return w.plan;
};
