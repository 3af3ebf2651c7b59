/**
 * A trailing stop's next action. The stop as the broker holds it is the truth: a trigger moved outside the gateway
 * (or by a try whose reply was lost) is adopted before anything else. Then the last traded price: a sell stop keeps
 * its trigger `trailBy` below the best price seen, a buy stop `trailBy` above it, on the instrument's tick grid,
 * moving only in the trader's favour and by at least `step`. A price that cannot be read is a warning and a metric
 * each run, and a Plan Step (`price-unavailable`) once it has failed PRICE_MISSES_BEFORE_EVENT runs in a row.
 * The stop fired and filled ends the plan; its order rejected, or the stop gone, leaves the position unprotected.
 */
import { fromDirectInvocation } from '../base/contract/errors.js';
import type { Plan } from '../base/schemas/plans.js';
import { add, compare, decimalOf, isPositive, sub, toGrid } from '../orders/safety/grid.js';
import { tryAction, withoutTry } from './actions.js';
import { PRICE_MISSES_BEFORE_EVENT } from './limits.js';
import { stampOf } from './stamps.js';
import { done, ended, fail, orderWords, placeFirst, type StepContext, unprotect } from './transitions.js';
import type { Working } from './versioned-plan.js';

const isMarket = (plan: Plan) => plan.order?.prctyp === 'MKT';

/** The stop moved to `trigger` (by this run, or found moved at the broker after a lost reply). */
export const trailed = async (
  w: Working,
  trigger: string,
  price: string,
  adopted: boolean,
): Promise<string | undefined> => {
  const plan = w.plan;
  const next = w.record(
    { ...withoutTry(plan), trigger, price, trails: (plan.trails ?? 0) + 1 },
    adopted ? 'stop-trail-adopted' : 'stop-trailed',
    { from: plan.trigger, to: trigger },
  );
  const told = await w.commit(next, [
    {
      type: 'Plan Step',
      extra: { step: 'stop-trailed', al_id: plan.alIds.stop, oldTrigger: plan.trigger, newTrigger: trigger },
    },
  ]);
  return told ? 'stop-trailed' : undefined;
};

export const advanceTrailing = async (w: Working, ctx: StepContext): Promise<string | undefined> => {
  if (w.plan.state !== 'armed') return undefined;
  if (!w.plan.alIds.stop) {
    const first = await placeFirst(w, ctx.deps, ctx.deadline);
    if (first.kind === 'refused')
      return fail(w, `the stop could not be placed: ${first.failure.code} (${first.failure.message})`, 'stop-refused');
    if (first.kind === 'unknown') throw first.failure;
    return first.kind === 'armed' ? 'armed' : undefined;
  }
  const stop = ctx.truth.byId(w.plan.alIds.stop);
  if (!stop)
    return unprotect(
      w,
      `the stop GTT ${w.plan.alIds.stop} is no longer at the broker nor in its triggered history (cancelled in the broker's app, swept by the kill switch, or expired): the position is open without a stop. End the plan (DELETE) and protect the position yourself`,
      { retrying: false, alId: w.plan.alIds.stop },
    );
  if (stop.where === 'fired') {
    const order = stop.gtt.order;
    if (!order || !ended(order)) return undefined;
    const qty = Number(w.plan.order?.qty ?? 0);
    if (order.filledQty >= qty) return done(w, 'stop-filled', stop.gtt.al_id);
    return unprotect(
      w,
      `the stop's order was ${orderWords(order)}; ${qty - order.filledQty} still open: end the plan (DELETE) and protect the position yourself`,
      {
        retrying: false,
        alId: stop.gtt.al_id,
        changes: { position: { side: w.plan.order?.trantype === 'S' ? 'B' : 'S', qty: qty - order.filledQty } },
      },
    );
  }
  // The broker's stop is the truth: adopt a trigger or price moved elsewhere.
  const brokerTrigger = stop.gtt.trigger;
  const brokerPrice = stop.gtt.prc;
  if (
    brokerTrigger !== undefined &&
    (compare(brokerTrigger, w.plan.trigger ?? brokerTrigger) !== 0 ||
      (brokerPrice !== undefined && compare(brokerPrice, w.plan.price ?? brokerPrice) !== 0))
  ) {
    const synced = w.record(
      { ...w.plan, trigger: brokerTrigger, ...(brokerPrice !== undefined ? { price: brokerPrice } : {}) },
      'stop-synced',
      { trigger: brokerTrigger, price: brokerPrice },
    );
    if (!(await w.commit(synced))) return undefined;
  }
  return trail(w, ctx);
};

const trail = async (w: Working, ctx: StepContext): Promise<string | undefined> => {
  const plan = w.plan;
  let ltp: number;
  try {
    ltp = await ctx.deps.lastPrice(plan.exch, plan.tsym, ctx.deadline);
  } catch (error) {
    const failure = fromDirectInvocation(error);
    const misses = (plan.priceMisses ?? 0) + 1;
    ctx.deps.warn?.('trailing stop: the last traded price could not be read; the stop stays where it is', {
      planId: plan.planId,
      code: failure.code,
      misses,
      metric: 'PlanPriceUnavailable',
    });
    // Said as what it is for the trader (the stop cannot trail), the broker's words after it; the code is logged.
    const reason = `price unavailable: ${failure.message}; the stop stays at ${plan.trigger ?? '?'}`;
    const told = misses === PRICE_MISSES_BEFORE_EVENT;
    await w.commit(
      told
        ? w.record({ ...plan, priceMisses: misses }, 'price-unavailable', { reason })
        : { ...plan, priceMisses: misses },
      told ? [{ type: 'Plan Step', extra: { step: 'price-unavailable', al_id: plan.alIds.stop, reason } }] : [],
    );
    throw failure;
  }
  const tick = plan.tick ?? '0.05';
  const sell = plan.order?.trantype === 'S';
  const price = decimalOf(ltp);
  const previous = plan.best ?? price;
  const best = sell
    ? compare(price, previous) > 0
      ? price
      : previous
    : compare(price, previous) < 0
      ? price
      : previous;
  const trigger = plan.trigger!;
  const wanted = sell
    ? toGrid(sub(best, plan.trailBy!, tick), tick, -1)
    : toGrid(add(best, plan.trailBy!, tick), tick, 1);
  const moveBy = sell ? sub(wanted, trigger, tick) : sub(trigger, wanted, tick);
  if (compare(moveBy, plan.step ?? tick) < 0 || !isPositive(wanted)) {
    if (best === plan.best && !plan.priceMisses) return undefined;
    // Only the best price changed (never backwards), or a price read again after misses.
    await w.commit({ ...plan, best, priceMisses: undefined });
    return undefined;
  }
  const gap = sub(plan.price ?? trigger, trigger, tick);
  const newPrice = isMarket(plan)
    ? '0'
    : (() => {
        const p = add(wanted, gap, tick);
        return isPositive(p) ? p : tick;
      })();
  const n = (plan.trails ?? 0) + 1;
  const stamp = stampOf(plan.planId, 's');
  const result = await tryAction(w, {
    stamp,
    base: `t${n}`,
    deadline: ctx.deadline,
    target: { trigger: wanted, price: newPrice },
    changes: { best, priceMisses: undefined },
    call: (key) =>
      ctx.deps.modify(
        {
          ...plan.order,
          al_id: plan.alIds.stop,
          d: wanted,
          prc: newPrice,
          tag: stamp,
          idempotencyKey: key,
        },
        ctx.deadline,
      ),
  });
  if (result.kind === 'busy') return undefined;
  if (result.kind === 'done') return trailed(w, wanted, isMarket(plan) ? (plan.price ?? '0') : newPrice, false);
  if (result.kind === 'refused') {
    await w.commit(w.record(withoutTry(w.plan), 'stop-trail-refused', { code: result.failure.code }));
    ctx.deps.warn?.('trailing stop: the move was refused; the stop stays where it is', {
      planId: plan.planId,
      code: result.failure.code,
      message: result.failure.message,
    });
  }
  // Refused: the stop is where it was. Unknown: the next run reads the broker's trigger and adopts or tries again.
  throw result.failure;
};
