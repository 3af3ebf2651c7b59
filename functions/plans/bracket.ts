/**
 * A bracket's next action, from what the broker holds (truth.ts) and what the plan recorded:
 *
 * - `armed`: the entry pending waits; fired, its order decides once it has ended: filled (or cancelled after a part
 *   filled) opens a position of the filled quantity and the exit is placed; rejected or cancelled with nothing
 *   filled fails the plan; an entry in neither list fails it too (no position was opened).
 * - `entry-filled`: the exit to place (a run whose try ended without an answer).
 * - `exit-armed`: the exit pending is the position's protection; fired and filled, the plan is done; fired and its
 *   order rejected or cancelled, what is still open is unprotected and a new exit (the next generation) is placed;
 *   gone from both lists (cancelled outside the gateway, the kill switch, expired), the plan is unprotected and waits
 *   for the trader, since the gateway cannot tell whether it fired on a day the lists no longer show.
 * - `unprotected`: an exit placed again each run while `retrying`.
 */
import type { Plan } from '../base/schemas/plans.js';
import { TRANSIENT, tryAction } from './actions.js';
import { withoutTry } from './actions.js';
import { MAX_EXIT_GENERATIONS, MAX_EXIT_TRIES } from './limits.js';
import { exitStep, stampOf } from './stamps.js';
import { done, ended, fail, orderWords, placeFirst, type StepContext, unprotect } from './transitions.js';
import { findPending } from './truth.js';
import type { Working } from './versioned-plan.js';

const sideOf = (plan: Plan): 'B' | 'S' => (plan.entry?.trantype === 'S' ? 'S' : 'B');

export const advanceBracket = async (w: Working, ctx: StepContext): Promise<string | undefined> => {
  switch (w.plan.state) {
    case 'armed':
      return armed(w, ctx);
    case 'entry-filled':
      return placeExit(w, ctx);
    case 'exit-armed':
      return exitArmed(w, ctx);
    case 'unprotected':
      return w.plan.retrying ? placeExit(w, ctx) : undefined;
    default:
      return undefined;
  }
};

const armed = async (w: Working, ctx: StepContext): Promise<string | undefined> => {
  const plan = w.plan;
  if (!plan.alIds.entry) {
    // The create's try never reached the broker (found nowhere once it could no longer be in flight).
    const first = await placeFirst(w, ctx.deps, ctx.deadline);
    if (first.kind === 'refused')
      return fail(
        w,
        `the entry could not be placed: ${first.failure.code} (${first.failure.message})`,
        'entry-refused',
      );
    if (first.kind === 'unknown') throw first.failure;
    return first.kind === 'armed' ? 'armed' : undefined;
  }
  const entry = ctx.truth.byId(plan.alIds.entry);
  if (!entry)
    return fail(
      w,
      "the entry GTT is no longer at the broker nor in its triggered history: it was cancelled outside the gateway (the broker's app, the kill switch) or expired, so the plan opened no position",
      'entry-gone',
      plan.alIds.entry,
    );
  if (entry.where === 'pending') return undefined;
  const order = entry.gtt.order;
  if (!order || !ended(order)) return undefined;
  if (order.filledQty <= 0)
    return fail(w, `the entry order was ${orderWords(order)}`, `entry-${order.status}`, plan.alIds.entry);
  const filled = w.record(
    { ...plan, state: 'entry-filled', position: { side: sideOf(plan), qty: order.filledQty }, exitGen: 1 },
    'entry-filled',
    { filledQty: order.filledQty, status: order.status },
  );
  if (!(await w.commit(filled))) return undefined;
  return placeExit(w, ctx);
};

/** Places the exit of this generation for the open position; a lost reply is looked for at once. */
const placeExit = async (w: Working, ctx: StepContext): Promise<string | undefined> => {
  const plan = w.plan;
  const generation = plan.exitGen ?? 1;
  const step = exitStep(generation);
  const stamp = stampOf(plan.planId, step);
  const qty = plan.position?.qty ?? 0;
  const side = sideOf(plan) === 'B' ? 'S' : 'B';
  const prd = String(plan.entry?.prd ?? 'C');
  const leg = (l: { trigger: string; price: string }) => ({
    trigger: l.trigger,
    order: { trantype: side, prctyp: 'LMT', qty, prc: l.price, prd },
  });
  const result = await tryAction(w, {
    stamp,
    base: step,
    deadline: ctx.deadline,
    call: (key) =>
      ctx.deps.placeOco(
        {
          exch: plan.exch,
          tsym: plan.tsym,
          target: leg(plan.target!),
          stopLoss: leg(plan.stopLoss!),
          tag: stamp,
          idempotencyKey: key,
        },
        ctx.deadline,
      ),
  });
  if (result.kind === 'busy') return undefined;
  if (result.kind === 'done') return armExit(w, String(result.result.al_id), false);
  if (result.kind === 'refused') {
    const { code, message, outcome } = result.failure;
    // Refused, yet live at the broker (an OCO held otherwise than asked whose cancel failed): placing another would
    // leave two exits live, one of them wrong. Not placed again; the trader is told to cancel it by hand.
    const live = outcome === 'executed' && code !== 'TRADING_HALTED';
    if (live)
      return unprotect(
        w,
        `the exit OCO was refused but is STILL LIVE at the broker: ${code} (${message}); not placed again: cancel it by hand, then end the plan (DELETE) and protect the position yourself`,
        { retrying: false, changes: { exitTries: MAX_EXIT_TRIES } },
      );
    const tries = (w.plan.exitTries ?? 0) + (TRANSIENT.has(code) ? 0 : 1);
    const retrying = tries < MAX_EXIT_TRIES;
    const reason = `the exit OCO was refused: ${code} (${message}); ${
      retrying
        ? 'placed again each run'
        : `given up after ${tries} refusals: end the plan (DELETE) and protect the position yourself`
    }`;
    return unprotect(w, reason, { retrying, changes: { exitTries: tries } });
  }
  // Outcome unknown: the broker may hold the exit. Look now; if it is not there, the position is unprotected until
  // a later run finds it (adopted) or the try can no longer be in flight (placed again, with the next key).
  const found = await findPending(ctx.deps.pending, stamp, ctx.deadline).catch(() => undefined);
  if (found) return armExit(w, found.al_id, true);
  await unprotect(
    w,
    `the exit OCO's outcome is unknown (${result.failure.code}) and the broker does not show it: the next runs adopt it if it arrives, or place it again`,
    { retrying: true, keepTry: true },
  );
  throw result.failure;
};

export const armExit = async (w: Working, alId: string, adopted: boolean): Promise<string | undefined> => {
  const plan = w.plan;
  const next = w.record(
    {
      ...withoutTry(plan),
      state: 'exit-armed',
      alIds: { ...plan.alIds, exit: alId },
      reason: undefined,
      retrying: undefined,
      exitTries: undefined,
    },
    adopted ? 'exit-adopted' : 'exit-placed',
    { al_id: alId, quantity: plan.position?.qty },
  );
  const told = await w.commit(next, [{ type: 'Plan Step', extra: { step: 'exit-armed', al_id: alId } }]);
  return told ? 'exit-armed' : undefined;
};

const exitArmed = async (w: Working, ctx: StepContext): Promise<string | undefined> => {
  const plan = w.plan;
  const exit = ctx.truth.byId(plan.alIds.exit);
  if (!exit)
    return unprotect(
      w,
      `the exit OCO ${plan.alIds.exit ?? ''} is no longer at the broker nor in its triggered history (cancelled in the broker's app, swept by the kill switch, or expired): the position is open without an exit. End the plan (DELETE) and protect the position yourself, for example with a trailing-stop plan`,
      { retrying: false, alId: plan.alIds.exit! },
    );
  if (exit.where === 'pending') return undefined;
  const order = exit.gtt.order;
  if (!order || !ended(order)) return undefined;
  const open = (plan.position?.qty ?? 0) - order.filledQty;
  if (open <= 0) return done(w, 'exit-filled', exit.gtt.al_id);
  const generation = (plan.exitGen ?? 1) + 1;
  const retrying = generation <= MAX_EXIT_GENERATIONS;
  return unprotect(
    w,
    `the exit's order was ${orderWords(order)}; ${open} still open: ${
      retrying
        ? 'a new exit is placed'
        : 'no more exits are placed: end the plan (DELETE) and protect the position yourself'
    }`,
    {
      retrying,
      alId: exit.gtt.al_id,
      changes: {
        position: { side: sideOf(plan), qty: open },
        exitGen: generation,
        exitTries: 0,
        alIds: { ...plan.alIds, exit: undefined },
      },
    },
  );
};
