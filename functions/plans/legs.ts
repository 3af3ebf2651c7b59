/**
 * A legs-as-one plan's steps (docs/reference/plans.md, "Legs as one"), at its creation and in each watcher run:
 *
 * - `entry-placed`: each leg's entry, bought legs first, is one protected LIMIT IOC order through the order core's
 *   plain PlaceOrder (journaled, stamped `<planId>.e` in remarks), under one key per leg (`<planId>-leg<i>-e`), so a
 *   try after a lost reply or a crash sends the same order with the same key and the journal answers the order
 *   placed (settled from the OrderBook by its stamp), never a second one. A leg refused (the kill switch, a rule)
 *   stops the entry: no later leg is placed. Once every placed order has ended (the OrderBook): every leg filled in
 *   full opens the plan (`entry-filled`, the net at the fills recorded); anything less closes every filled quantity
 *   at once and the plan fails with why, once flat.
 * - `entry-filled`: each leg's price read (one read each; one that fails: nothing this run, said, read again next
 *   run); the move crossed the stop or the target: every leg is closed (legs-close.ts).
 * - `unprotected` with `legs.closing`: closing every open leg until flat (legs-close.ts), then `done`, `failed` or
 *   `cancelled` as the closing says.
 */
import { fromDirectInvocation } from '../base/contract/errors.js';
import type { LegRecord, OptionLegs, OptionLegsInput } from '../base/schemas/option-legs.js';
import type { Plan } from '../base/schemas/plans.js';
import { TRANSIENT } from './actions.js';
import type { PlanDeps } from './engine-needs.js';
import { closeLegs, type LegsContext, startClosing } from './legs-close.js';
import { entryBody, entryOrderOf, legsCheck, legsPlanOf } from './legs-create.js';
import { crossedExit, netOf, pointsOf, signed } from './legs-rules.js';
import { stampOf } from './stamps.js';
import { ended, orderWords } from './transitions.js';
import { dayBook } from './truth.js';
import { Working } from './versioned-plan.js';

/** The one idempotency key of a leg's entry: every try of it is the same write to the journal. */
export const legEntryKeyOf = (planId: string, leg: number): string => `${planId}-leg${leg}-e`;

const legsOf = (w: Working): OptionLegs => w.plan.legs!;

const withLeg = (legs: OptionLegs, i: number, change: Partial<LegRecord>): OptionLegs => ({
  ...legs,
  legs: legs.legs.map((l, j) => (j === i ? { ...l, ...change } : l)),
});

export { legsDryRun } from './legs-create.js';

/**
 * `POST /plans {kind: "option-legs"}`: the legs checked, the plan stored, its entries placed at once. An entry whose
 * outcome stays unknown leaves the plan `entry-placed` (said in its history): the next run carries on with the same
 * keys. The same key again answers the plan it made (`replay`).
 */
export const createLegs = async (
  deps: PlanDeps,
  input: OptionLegsInput,
  fields: Pick<Plan, 'planId' | 'inputHash'>,
  deadline: number,
  replay: (plan: Plan) => Promise<{ plan: Plan; replayed: boolean }>,
): Promise<{ plan: Plan; replayed: boolean }> => {
  const { legs } = await legsCheck(input, deps, deadline);
  const plan = legsPlanOf(input, legs, fields, (deps.now ?? (() => new Date()))().toISOString());
  if (!(await deps.store.create(plan))) return replay((await deps.store.get(fields.planId))!.plan);
  const w = new Working({ plan, version: 1, outbox: [] }, deps, 'gateway');
  try {
    await enterLegs(w, { deps, deadline });
  } catch (error) {
    const failure = fromDirectInvocation(error);
    await w.commit(
      w.record(w.plan, 'entry-unknown', {
        code: failure.code,
        note: "a leg's entry has no answer yet: the watcher's next run sends it again under the same key (never twice)",
      }),
    );
  }
  return { plan: w.plan, replayed: false };
};

export const advanceLegs = async (w: Working, ctx: LegsContext): Promise<string | undefined> => {
  if (w.plan.legs?.closing) return closeLegs(w, ctx);
  switch (w.plan.state) {
    case 'entry-placed':
      return enterLegs(w, ctx);
    case 'entry-filled':
      return watchLegs(w, ctx);
    default:
      return undefined;
  }
};

/**
 * The legs' entries, each placed once (a leg already placed or refused is not sent again), then settled. An outcome
 * that stays unknown (the journal could not yet tell) stops here: the next run sends it again with the same key.
 */
export const enterLegs = async (w: Working, ctx: LegsContext): Promise<string | undefined> => {
  for (const i of entryOrderOf(legsOf(w).legs)) {
    const legs = legsOf(w);
    const leg = legs.legs[i]!;
    if (legs.legs.some((l) => l.refused)) break;
    if (leg.entryOrder || leg.refused) continue;
    let placed: { norenordno?: unknown; idempotency?: { adopted?: boolean } };
    try {
      placed = (await ctx.deps.placeOrder(
        {
          ...entryBody(leg, legs.prd),
          tag: stampOf(w.plan.planId, 'e'),
          idempotencyKey: legEntryKeyOf(w.plan.planId, i),
        },
        ctx.deadline,
      )) as typeof placed;
    } catch (error) {
      const failure = fromDirectInvocation(error);
      if (failure.code !== 'TRADING_HALTED' && (failure.outcome === 'unknown' || TRANSIENT.has(failure.code)))
        throw failure; // the next run sends it again with the same key: the journal never sends it twice
      const why = `${failure.code} (${failure.message})`;
      const next = w.record({ ...w.plan, legs: withLeg(legs, i, { refused: why }) }, 'leg-refused', {
        tsym: leg.tsym,
        code: failure.code,
      });
      if (!(await w.commit(next))) return undefined;
      break;
    }
    const norenordno = String(placed.norenordno);
    const next = w.record(
      { ...w.plan, legs: withLeg(legs, i, { entryOrder: norenordno }) },
      placed.idempotency?.adopted ? 'leg-adopted' : 'leg-placed',
      { tsym: leg.tsym, norenordno, qty: leg.qty },
    );
    if (
      !(await w.commit(next, [
        { type: 'Plan Step', extra: { step: 'entry-placed', contract: leg.tsym, norenordno, qty: leg.qty } },
      ]))
    )
      return undefined;
  }
  return (await settleEntries(w, ctx)) ?? 'entry-placed';
};

/** Each placed entry's end (the OrderBook): all filled in full opens the plan; anything less closes what filled. */
const settleEntries = async (w: Working, ctx: LegsContext): Promise<string | undefined> => {
  const legs = legsOf(w);
  const refused = legs.legs.some((l) => l.refused);
  if (!refused && legs.legs.some((l) => !l.entryOrder)) return undefined; // a leg still to place
  const book = await dayBook(ctx.deps.orderBook, ctx.deadline);
  const orders = legs.legs.map((l) => (l.entryOrder ? book.find((o) => o.norenordno === l.entryOrder) : undefined));
  if (legs.legs.some((l, i) => l.entryOrder && (!orders[i] || !ended(orders[i]!)))) return undefined; // next run
  const filled = legs.legs.map((l, i) => ({
    ...l,
    filledQty: orders[i]?.filledQty ?? 0,
    ...(orders[i]?.filledQty ? { fill: Number(orders[i]!.averagePrice ?? l.prc) } : {}),
    open: orders[i]?.filledQty ?? 0,
  }));
  const short = filled.filter((l) => l.filledQty < l.qty);
  if (!short.length) {
    const entryNet = netOf(
      filled,
      filled.map((l) => l.fill!),
    );
    const tick = Number(filled[0]!.tick);
    const stopPoints = pointsOf(legs.exit.stop, entryNet, tick);
    const targetPoints = pointsOf(legs.exit.target, entryNet, tick);
    const next = w.record(
      { ...w.plan, state: 'entry-filled', legs: { ...legs, legs: filled, entryNet, stopPoints, targetPoints } },
      'entry-filled',
      { net: entryNet, stop: -stopPoints, target: targetPoints },
    );
    const told = await w.commit(next, [{ type: 'Plan Step', extra: { step: 'entry-filled', contract: w.plan.tsym } }]);
    return told ? 'entry-filled' : undefined;
  }
  const words = short.map((l) => {
    const i = filled.indexOf(l);
    if (l.refused) return `${l.tsym} was refused: ${l.refused}`;
    if (!l.entryOrder) return `${l.tsym} was not placed (an earlier leg was refused)`;
    return `${l.tsym}'s entry ${l.entryOrder} (IOC) filled ${l.filledQty} of ${l.qty} (${orderWords(orders[i]!)})`;
  });
  const open = filled.filter((l) => l.open > 0);
  const why = `the legs did not all fill: ${words.join('; ')}. ${
    open.length
      ? `Every filled leg (${open.map((l) => `${l.open} ${l.tsym}`).join(', ')}) is closed`
      : 'Nothing filled, nothing is open'
  }: no leg is left open alone`;
  return startClosing(w, ctx, { ...legs, legs: filled }, 'failed', why);
};

/** Each leg's price now, the net and the move since the fills; crossed: every leg is closed. */
const watchLegs = async (w: Working, ctx: LegsContext): Promise<string | undefined> => {
  const legs = legsOf(w);
  const prices: number[] = [];
  for (const leg of legs.legs) {
    try {
      prices.push(await ctx.deps.lastPrice(leg.exch, leg.tsym, ctx.deadline));
    } catch (error) {
      ctx.deps.warn?.("plan: a leg's price could not be read; the legs are watched again next run", {
        planId: w.plan.planId,
        leg: `${leg.exch}:${leg.tsym}`,
        code: fromDirectInvocation(error).code,
        metric: 'PlanPriceUnavailable',
      });
      return undefined;
    }
  }
  const net = netOf(legs.legs, prices);
  const move = Math.round((net - legs.entryNet!) * 100) / 100;
  const hit = crossedExit(move, legs.stopPoints!, legs.targetPoints!);
  if (!hit) return undefined;
  const why =
    hit === 'stop'
      ? `the net premium moved ${signed(move)} points against the legs (from ${legs.entryNet} to ${net}; the stop is at -${legs.stopPoints})`
      : `the net premium moved ${signed(move)} points for the legs (from ${legs.entryNet} to ${net}; the target is at +${legs.targetPoints})`;
  return startClosing(w, ctx, legs, 'done', `${why}: every leg is closed`, { exit: hit, net, move });
};
