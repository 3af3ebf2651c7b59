/**
 * An option plan's steps in each watcher run (docs/reference/plans.md, "Option entry"):
 *
 * - `watching`: the index's price read; not crossed, nothing. Crossed (above: at or over the level; below: at or
 *   under it): the contract is chosen again at THAT price (the expiry-day cutoff applies; a pick that fails now
 *   fails the plan with why), recorded (`option.resolved`: the price seen, when, the contract, lots × lot) in the same
 *   versioned write that moves the plan to `entry-placed`, then the entry is placed.
 * - `entry-placed`: the entry is one protected LIMIT order, IOC (filled at once or not at all), through the order
 *   core's plain PlaceOrder: journaled, stamped in remarks, under one key per plan (`<planId>-entry`), so a run after
 *   a lost reply or a crash sends it with the same key and the journal answers the order placed (settled from the
 *   OrderBook by its stamp), never a second one. Its outcome is read from the OrderBook: filled (all or part) opens a
 *   position of the filled quantity, its exit target and stop from the average fill price, and the plan is the
 *   contract's (`exch`, `tsym`) at `entry-filled`, from where the bracket's steps place and watch the OCO exit
 *   (bracket.ts); nothing filled (the IOC cancelled, rejected) fails the plan with why.
 * - A `maxValue` on the plan: the entry's value at the crossing (its quantity × the protected limit it would be sent
 *   at) above it fails the plan with both numbers (`entry-above-cap`, Plan Failed), and nothing is sent.
 * - The kill switch on when the index crosses: the order core refuses the entry (TRADING_HALTED) and the plan fails
 *   with that reason (decision: an entry refused by the kill switch is not tried again later, at another price).
 */
import { fromDirectInvocation } from '../base/contract/errors.js';
import type { OptionPlan } from '../base/schemas/option-plan.js';
import type { Plan } from '../base/schemas/plans.js';
import type { BookOrder } from '../base/schemas/reply.js';
import { TRANSIENT } from './actions.js';
import { advanceBracket } from './bracket.js';
import {
  contractOf,
  crossed,
  entryOrderOf,
  exitLegs,
  freezeWords,
  levelWords,
  OptionPickError,
  overCap,
  pickAt,
} from './option-contract.js';
import { stampOf } from './stamps.js';
import { ended, fail, orderWords, type StepContext } from './transitions.js';
import { dayBook } from './truth.js';
import type { Working } from './versioned-plan.js';

/** The one idempotency key of a plan's entry: every try of it is the same write to the journal. */
export const entryKeyOf = (planId: string): string => `${planId}-entry`;

export const advanceOptionEntry = async (w: Working, ctx: StepContext): Promise<string | undefined> => {
  switch (w.plan.state) {
    case 'watching':
      return watching(w, ctx);
    case 'entry-placed':
      return w.plan.option?.entryOrder ? settleEntry(w, ctx) : placeEntry(w, ctx);
    default:
      // entry-filled, exit-armed, unprotected: a bracket's on the contract from here.
      return advanceBracket(w, ctx);
  }
};

const watching = async (w: Working, ctx: StepContext): Promise<string | undefined> => {
  const option = w.plan.option!;
  const { name, exch, tsym } = option.underlying;
  let price: number;
  try {
    price = await ctx.deps.lastPrice(exch, tsym, ctx.deadline);
  } catch (error) {
    ctx.deps.warn?.('plan: the index price could not be read; watched again next run', {
      planId: w.plan.planId,
      underlying: `${exch}:${tsym}`,
      code: fromDirectInvocation(error).code,
      metric: 'PlanPriceUnavailable',
    });
    return undefined;
  }
  if (!crossed(option.when, price)) return undefined;
  const seen = `${name} was at ${price}, ${levelWords(option.when)}`;
  let picked;
  try {
    picked = await pickAt(ctx.deps, option, price, w.now().getTime(), ctx.deadline);
  } catch (error) {
    if (error instanceof OptionPickError)
      return fail(w, `${seen}, but no contract could be chosen: ${error.message}`, 'pick-failed');
    throw error; // the chain could not be read: the next run looks again
  }
  const tooMany = freezeWords(picked, option.lots, await ctx.deps.freeze(picked.exch, picked.token, ctx.deadline));
  if (tooMany) return fail(w, `${seen}, but ${tooMany}`, 'entry-above-freeze');
  // The limit from the option's price now; a price that cannot be read leaves the plan watching (next run again).
  const optionPrice = await ctx.deps.lastPrice(picked.exch, picked.tsym, ctx.deadline);
  const circuit = await ctx.deps.band(picked.exch, picked.token, ctx.deadline);
  const qty = option.lots * picked.lot;
  const at = w.now().toISOString();
  const resolved: NonNullable<OptionPlan['resolved']> = {
    at,
    price,
    ...contractOf(picked),
    qty,
  };
  const entry = entryOrderOf(picked, option, qty, optionPrice, ctx.deps.protectionPercent, circuit);
  const capped = overCap(entry, option.maxValue);
  if (capped) return fail(w, `${seen}, but ${capped} (${picked.tsym}): nothing was sent`, 'entry-above-cap');
  const next = w.record(
    { ...w.plan, state: 'entry-placed', option: { ...option, resolved }, entry, tick: picked.tick },
    'crossed',
    { price, tsym: picked.tsym, strike: picked.strike, expiry: picked.expiry, qty, prc: entry.prc },
  );
  const told = await w.commit(next, [
    {
      type: 'Plan Step',
      extra: {
        step: 'crossed',
        underlyingPrice: price,
        contract: picked.tsym,
        expiry: picked.expiry,
        strike: picked.strike,
        qty,
      },
    },
  ]);
  return told ? placeEntry(w, ctx) : undefined;
};

/** The entry through the order core, under the plan's one key; a refusal fails the plan, an unknown outcome waits. */
const placeEntry = async (w: Working, ctx: StepContext): Promise<string | undefined> => {
  const plan = w.plan;
  let placed: { norenordno?: unknown; idempotency?: { replayed?: boolean; adopted?: boolean } };
  try {
    placed = (await ctx.deps.placeOrder(
      { ...plan.entry, tag: stampOf(plan.planId, 'e'), idempotencyKey: entryKeyOf(plan.planId) },
      ctx.deadline,
    )) as typeof placed;
  } catch (error) {
    const failure = fromDirectInvocation(error);
    if (failure.code === 'TRADING_HALTED')
      return fail(
        w,
        `the index crossed, but the kill switch is on: the entry was refused (TRADING_HALTED: ${failure.message}); nothing was placed`,
        'entry-halted',
      );
    // Unknown, or refused for now: the next run sends it again with the same key (the journal never sends twice).
    if (failure.outcome === 'unknown' || TRANSIENT.has(failure.code)) throw failure;
    return fail(
      w,
      `the entry order was refused: ${failure.code} (${failure.message}); nothing was placed`,
      'entry-refused',
    );
  }
  const norenordno = String(placed.norenordno);
  const next = w.record(
    { ...w.plan, option: { ...w.plan.option!, entryOrder: norenordno } },
    placed.idempotency?.adopted ? 'entry-adopted' : 'entry-placed',
    { norenordno, qty: w.plan.option?.resolved?.qty },
  );
  const resolved = w.plan.option?.resolved;
  const told = await w.commit(next, [
    {
      type: 'Plan Step',
      extra: {
        step: 'entry-placed',
        norenordno,
        ...(resolved
          ? {
              underlyingPrice: resolved.price,
              contract: resolved.tsym,
              expiry: resolved.expiry,
              strike: resolved.strike,
              qty: resolved.qty,
            }
          : {}),
      },
    },
  ]);
  return told ? ((await settleEntry(w, ctx)) ?? 'entry-placed') : undefined;
};

/** What became of the entry (the OrderBook): filled opens the position and its exit; nothing filled fails the plan. */
const settleEntry = async (w: Working, ctx: StepContext): Promise<string | undefined> => {
  const plan = w.plan;
  const norenordno = plan.option!.entryOrder!;
  const order = (await dayBook(ctx.deps.orderBook, ctx.deadline)).find((o) => o.norenordno === norenordno);
  if (!order || !ended(order)) return undefined; // an IOC ends at once: the next run reads it again
  if (order.filledQty <= 0)
    return fail(
      w,
      `the entry order ${norenordno} (IOC) was ${orderWords(order)}: nothing filled`,
      `entry-${order.status}`,
    );
  return entryFilled(w, ctx, order);
};

const entryFilled = async (w: Working, ctx: StepContext, order: BookOrder): Promise<string | undefined> => {
  const plan = w.plan;
  const option = plan.option!;
  const entry = plan.entry as { exch: string; tsym: string; trantype: 'B' | 'S'; prc: string };
  const fill = Number(order.averagePrice ?? entry.prc);
  const legs = exitLegs(option.exit, entry, fill, plan.tick ?? '0.05', ctx.deps.protectionPercent);
  const next: Plan = w.record(
    {
      ...plan,
      state: 'entry-filled',
      exch: entry.exch,
      tsym: entry.tsym,
      position: { side: entry.trantype, qty: order.filledQty },
      exitGen: 1,
      target: legs.target,
      stopLoss: legs.stopLoss,
    },
    'entry-filled',
    { filledQty: order.filledQty, averagePrice: order.averagePrice, status: order.status },
  );
  const told = await w.commit(next, [
    {
      type: 'Plan Step',
      extra: {
        step: 'entry-filled',
        norenordno: order.norenordno,
        qty: order.filledQty,
        contract: entry.tsym,
        ...(option.resolved ? { strike: option.resolved.strike, underlyingPrice: option.resolved.price } : {}),
      },
    },
  ]);
  return told ? advanceBracket(w, ctx) : undefined;
};
