/**
 * Closing a legs-as-one plan (docs/reference/plans.md, "Legs as one"): every open leg closed through the order
 * core's plain PlaceOrder, until none is open, whatever started it (the exit crossed, the entry not filled in full,
 * DELETE). The plan is `unprotected` while closing, its `reason` saying why, `legs.closing` how it ends once flat.
 *
 * Each close is a protected LIMIT IOC order on the other side of the leg's open quantity, `exit: true` (the kill
 * switch lets an order through that only reduces), stamped `<planId>.x<gen>`, under one key per leg per generation
 * (`<planId>-leg<i>-x<gen>`). Its limit is fixed, and recorded, before its first try: a try after a lost reply sends
 * the same order with the same key, and the journal answers the order placed, never a second one. Each run first
 * reads what the last generation's orders did (the OrderBook: a filled quantity is no longer open), then places a
 * new generation for the legs still open (each leg's price read; one that cannot be read waits for the next run).
 * A close the order core refuses is recorded and tried again next run at a new price, in a new generation.
 */
import { fromDirectInvocation, PlanBusyError, PlanNotFoundError } from '../base/contract/errors.js';
import { TERMINAL } from '../base/schemas/event-types.js';
import type { LegRecord, OptionLegs } from '../base/schemas/option-legs.js';
import type { Plan } from '../base/schemas/plans.js';
import { TRANSIENT } from './actions.js';
import type { PlanDeps } from './engine-needs.js';
import { legLimit } from './legs-rules.js';
import { exitStep, stampOf } from './stamps.js';
import { ended, type StepContext } from './transitions.js';
import { dayBook } from './truth.js';
import { Working } from './versioned-plan.js';

/** What the legs' steps use of a run: the deployment's parts and the invocation's deadline. */
export type LegsContext = Pick<StepContext, 'deps' | 'deadline'>;

type End = NonNullable<OptionLegs['closing']>['end'];

/** The key of leg `i`'s close in generation `gen`: every try of that close is the same write to the journal. */
export const legCloseKeyOf = (planId: string, leg: number, gen: number): string => `${planId}-leg${leg}-x${gen}`;

/** Starts closing every open leg (the plan `unprotected`, why in its reason), then the first generation. */
export const startClosing = async (
  w: Working,
  ctx: LegsContext,
  legs: OptionLegs,
  end: End,
  why: string,
  extra: Record<string, unknown> = {},
): Promise<string | undefined> => {
  const open = legs.legs.map((l) => ({ ...l, open: l.open ?? l.filledQty ?? 0 }));
  if (!open.some((l) => l.open > 0)) {
    // Nothing open (no leg filled): nothing to close, and never unprotected; the plan ends at once.
    const none = w.record({ ...w.plan, legs: { ...legs, legs: open, closing: { end, why, gen: 0 } } }, 'closing', {
      end,
      ...extra,
    });
    return (await w.commit(none)) ? finish(w) : undefined;
  }
  const next = w.record(
    { ...w.plan, state: 'unprotected', reason: why, legs: { ...legs, legs: open, closing: { end, why, gen: 0 } } },
    'closing',
    { end, ...extra },
  );
  // Plan Unprotected (in the webhook's default notifyOn): open legs without their exit until they are closed.
  if (!(await w.commit(next, [{ type: 'Plan Unprotected', extra: { reason: why } }]))) return undefined;
  return closeLegs(w, ctx);
};

/** One run's close: the last generation settled, a new one placed for what is still open, settled again. */
export const closeLegs = async (w: Working, ctx: LegsContext): Promise<string | undefined> => {
  if ((await settleCloses(w, ctx)) === 'waiting') return undefined;
  if (!w.plan.legs!.legs.some((l) => (l.open ?? 0) > 0)) return finish(w);
  await placeCloses(w, ctx);
  if ((await settleCloses(w, ctx)) === 'waiting') return 'closing';
  return w.plan.legs!.legs.some((l) => (l.open ?? 0) > 0) ? 'closing' : finish(w);
};

/** The closes placed so far, read from the OrderBook: what filled is no longer open; 'waiting' while one is live. */
const settleCloses = async (w: Working, ctx: LegsContext): Promise<'settled' | 'waiting'> => {
  const legs = w.plan.legs!;
  if (!legs.legs.some((l) => l.closeOrder)) return 'settled';
  const book = await dayBook(ctx.deps.orderBook, ctx.deadline);
  let waiting = false;
  const settled: string[] = [];
  const next = legs.legs.map((l) => {
    if (!l.closeOrder) return l;
    const order = book.find((o) => o.norenordno === l.closeOrder);
    if (!order || !ended(order)) {
      waiting = true;
      return l;
    }
    settled.push(`${l.tsym} ${order.filledQty}/${l.open ?? 0}`);
    const { closeOrder: _o, closeGen: _g, closePrc: _p, ...rest } = l;
    return { ...rest, open: Math.max(0, (l.open ?? 0) - order.filledQty) };
  });
  if (settled.length) {
    const changed = w.record({ ...w.plan, legs: { ...legs, legs: next } }, 'closes-settled', { filled: settled });
    if (!(await w.commit(changed))) return 'waiting';
  }
  return waiting ? 'waiting' : 'settled';
};

/** A close for each leg still open and not being closed: its limit fixed and recorded first, then sent. */
const placeCloses = async (w: Working, ctx: LegsContext): Promise<void> => {
  const planId = w.plan.planId;
  let legs = w.plan.legs!;
  const closing = legs.closing!;
  const todo = legs.legs.map((l, i) => ({ l, i })).filter(({ l }) => (l.open ?? 0) > 0 && !l.closeOrder);
  const fresh = todo.filter(({ l }) => l.closeGen === undefined);
  if (fresh.length) {
    // A new generation: each leg's price now, its limit recorded before anything is sent.
    const gen = closing.gen + 1;
    const priced = new Map<number, string>();
    for (const { l, i } of fresh) {
      try {
        const price = await ctx.deps.lastPrice(l.exch, l.tsym, ctx.deadline);
        const circuit = l.token ? await ctx.deps.band(l.exch, l.token, ctx.deadline) : undefined;
        priced.set(i, legLimit(l, l.trantype === 'B' ? 'S' : 'B', price, ctx.deps.protectionPercent, circuit));
      } catch (error) {
        ctx.deps.warn?.("plan: a leg's price could not be read to close it; closed next run", {
          planId,
          leg: `${l.exch}:${l.tsym}`,
          code: fromDirectInvocation(error).code,
          metric: 'PlanPriceUnavailable',
        });
      }
    }
    if (priced.size) {
      const next = w.record(
        {
          ...w.plan,
          legs: {
            ...legs,
            closing: { ...closing, gen },
            legs: legs.legs.map((l, i) => (priced.has(i) ? { ...l, closeGen: gen, closePrc: priced.get(i)! } : l)),
          },
        },
        'close-priced',
        { gen, legs: [...priced.keys()].map((i) => legs.legs[i]!.tsym) },
      );
      if (!(await w.commit(next))) return;
      legs = w.plan.legs!;
    }
  }
  for (const [i, l] of legs.legs.entries()) {
    if ((l.open ?? 0) <= 0 || l.closeOrder || l.closeGen === undefined) continue;
    const result = await sendClose(w, ctx, l, i);
    if (result === 'stop') return;
  }
};

const sendClose = async (w: Working, ctx: LegsContext, l: LegRecord, i: number): Promise<'next' | 'stop'> => {
  const legs = w.plan.legs!;
  const gen = l.closeGen!;
  const body = {
    exch: l.exch,
    tsym: l.tsym,
    trantype: l.trantype === 'B' ? 'S' : 'B',
    prd: legs.prd,
    qty: l.open,
    prctyp: 'LMT',
    ret: 'IOC',
    prc: l.closePrc,
    exit: true,
    tag: stampOf(w.plan.planId, exitStep(gen)),
    idempotencyKey: legCloseKeyOf(w.plan.planId, i, gen),
  };
  let placed: { norenordno?: unknown; idempotency?: { adopted?: boolean } };
  try {
    placed = (await ctx.deps.placeOrder(body, ctx.deadline)) as typeof placed;
  } catch (error) {
    const failure = fromDirectInvocation(error);
    // Unknown or refused for now: the next run sends it again, the same order under the same key.
    if (failure.outcome === 'unknown' || TRANSIENT.has(failure.code)) throw failure;
    const { closeGen: _g, closePrc: _p, ...rest } = l;
    const next = w.record(
      { ...w.plan, legs: { ...legs, legs: legs.legs.map((x, j) => (j === i ? rest : x)) } },
      'close-refused',
      { tsym: l.tsym, gen, code: failure.code, message: failure.message },
    );
    return (await w.commit(next)) ? 'next' : 'stop';
  }
  const norenordno = String(placed.norenordno);
  const next = w.record(
    { ...w.plan, legs: { ...legs, legs: legs.legs.map((x, j) => (j === i ? { ...x, closeOrder: norenordno } : x)) } },
    placed.idempotency?.adopted ? 'close-adopted' : 'close-placed',
    { tsym: l.tsym, gen, norenordno, qty: l.open },
  );
  return (await w.commit(next)) ? 'next' : 'stop';
};

/** Every leg flat: the plan ends as its closing said (done, failed, cancelled). */
const finish = async (w: Working): Promise<string | undefined> => {
  const closing = w.plan.legs!.closing!;
  const state = closing.end;
  const next = w.record(
    {
      ...w.plan,
      state,
      reason: state === 'done' ? undefined : closing.why,
      ...(state === 'cancelled' ? { left: { cancelled: [], note: 'every leg was closed: nothing is left open' } } : {}),
    },
    state === 'done' ? 'closed' : state,
    { flat: true },
  );
  // A cancel is told by its answer, as every plan's (cancel.ts); done and failed by their events.
  const events =
    state === 'done'
      ? [{ type: 'Plan Done' as const }]
      : state === 'failed'
        ? [{ type: 'Plan Failed' as const, extra: { reason: closing.why } }]
        : [];
  const told = await w.commit(next, events);
  return told ? state : undefined;
};

/**
 * `DELETE /plans/{planId}` of a legs plan: every open leg closed as an exit does (the plan `cancelled` once flat, its
 * closing carried on by the watcher's runs until then). While its entries are being placed (a run or the creation
 * at the broker now), 409 PLAN_BUSY: the entry's own steps end it, filled or closed, first.
 */
export const cancelLegs = async (deps: PlanDeps, planId: string, deadline: number): Promise<Plan> => {
  const read = await deps.store.get(planId);
  if (!read)
    throw new PlanNotFoundError(`No plan ${planId}: GET /plans lists the plans (ended plans are kept 30 days).`);
  if (TERMINAL.includes(read.plan.state)) return read.plan;
  const w = new Working(read, deps, 'gateway');
  const ctx: LegsContext = { deps, deadline };
  if (w.plan.state === 'entry-placed' && !w.plan.legs?.closing)
    throw new PlanBusyError(
      `Plan ${planId}'s legs are being entered right now; retry DELETE in 30 s, and it closes every leg that filled. Nothing was changed.`,
      { details: { retryAfterSeconds: 30 }, outcome: 'not_executed' },
    );
  const legs = w.plan.legs!;
  if (legs.closing) {
    // Already closing (its exit crossed, or its entry failed): it ends cancelled unless it had failed.
    if (legs.closing.end === 'done') {
      const why = `cancelled by DELETE while closing (${legs.closing.why})`;
      await w.commit(
        w.record({ ...w.plan, legs: { ...legs, closing: { ...legs.closing, end: 'cancelled', why } } }, 'cancel'),
      );
    }
    await closeLegs(w, ctx);
  } else await startClosing(w, ctx, legs, 'cancelled', 'cancelled by DELETE: every leg is closed');
  return w.plan;
};
