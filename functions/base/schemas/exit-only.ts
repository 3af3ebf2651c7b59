/**
 * The exit-only rule (docs/reference/assistants.md, "Exit-only"): an order an exit-scoped caller (an assistant token or
 * a strategy with `scope: "exit"`) may place only when it reduces an open position. Pure, like the assistants' limits
 * (assistant-limits.ts), so the MCP server's preview and confirm (mcp/exit-only.ts) and the signal worker
 * (functions/signals/exit-check.ts) judge an order the same way, each on the positions and pending orders it has just
 * read.
 *
 * A position is one exchange, symbol and product (`netQty` summed over the broker's rows for it). A sell reduces a long,
 * a buy a short; the quantity allowed is the position's size less what the pending exits of that position would
 * already sell (buy): every pending GTT or OCO of the same exchange, symbol and product on the reducing side, whoever
 * placed it, counted at its full quantity (an OCO once, at its larger matching leg: only one leg fires). Pending
 * orders on the other side are not credited. So no set of exits, all firing, can take the position past flat.
 *
 * The live plans' exits count too, whether or not they rest at the broker yet (`planOwedExit`): a trailing stop's
 * stop, a filled bracket's exit OCO, once placed or while it is owed (a first place whose reply was lost, an exit the
 * watcher has still to place, a step in flight). A plan is counted once: its own GTTs at the broker (known by its
 * stamp in their tag, or their al_id in its record) count within its quantity, never beside it.
 *
 * A trailing-stop plan's stop is held to the same rule (`planExitOrder`); a bracket, which opens a position, is not.
 */

/** One order as the rule reads it: a GTT's body, or one OCO leg with its order's exchange and symbol. */
export interface ExitOrder {
  exch: string;
  tsym: string;
  prd: string;
  trantype: string;
  qty: number | string;
}

/** What the rule reads of a position (GET /positions' `positions[]`). */
export interface HeldPosition {
  exch: string;
  tsym: string;
  product: string;
  netQty: number;
}

type Fields = Record<string, unknown>;
const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** One pending order (GET /gtt-orders' `orders[]`, single or OCO) as the exits it may fire: an OCO's legs each. */
export const ordersOfPending = (order: Fields): ExitOrder[][] => {
  const base = { exch: text(order.exch), tsym: text(order.tsym) };
  if (order.type === 'oco' || order.target !== undefined || order.stopLoss !== undefined) {
    const legs = (['target', 'stopLoss'] as const).flatMap((name) => {
      const leg = ((order[name] as Fields | undefined)?.order ?? undefined) as Fields | undefined;
      return leg
        ? [{ ...base, prd: text(leg.prd ?? order.prd), trantype: text(leg.trantype), qty: text(leg.qty) }]
        : [];
    });
    return [legs];
  }
  return [[{ ...base, prd: text(order.prd), trantype: text(order.trantype), qty: text(order.qty) }]];
};

const sameInstrument = (a: { exch: string; tsym: string }, b: { exch: string; tsym: string }, prd: string, p: string) =>
  a.exch === b.exch && a.tsym === b.tsym && prd === p;

const wholeQty = (qty: number | string): number | undefined => {
  const n = typeof qty === 'number' ? qty : qty.trim() === '' ? NaN : Number(qty);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

/**
 * The exit a live plan will place or has placed (`planOwedExit`): its quantity on the side that closes, the GTT ids
 * its record knows of, and whether one is recorded at the broker (for the reason's words).
 */
export interface OwedExit {
  planId: string;
  exch: string;
  tsym: string;
  prd: string;
  trantype: string;
  qty: number;
  /** What the plan owes: `its stop` (trailing stop) or `its exit` (bracket). */
  what: string;
  alIds: string[];
}

/** A plan's GTT's tag: the plan's stamp (functions/plans/stamps.ts), `pl<16 hex>.<step>`. */
const PLAN_OF_TAG = /^(pl[0-9a-f]{16})\./;

/**
 * What a plan record (GET /plans' `plans[]`) owes its position, or undefined when it owes nothing: a trailing stop
 * while it is armed (its stop placed, or to be placed: the engine places it while it is armed); a bracket whose entry
 * filled (`entry-filled`, `exit-armed`), or left unprotected while the gateway places its exit again (`retrying`) or
 * a try of it is in flight. An armed bracket's entry opens what its exit would close, and an ended plan owes nothing.
 */
export const planOwedExit = (plan: Fields): OwedExit | undefined => {
  const ids = (plan.alIds ?? {}) as Fields;
  const planId = text(plan.planId);
  if (plan.kind === 'trailing-stop') {
    if (plan.state !== 'armed') return undefined;
    const o = (plan.order ?? {}) as Fields;
    const qty = wholeQty(text(o.qty));
    if (qty === undefined) return undefined;
    const [exch, tsym] = [text(o.exch || plan.exch), text(o.tsym || plan.tsym)];
    return {
      planId,
      exch,
      tsym,
      prd: text(o.prd),
      trantype: text(o.trantype),
      qty,
      what: 'its stop',
      alIds: ids.stop ? [text(ids.stop)] : [],
    };
  }
  // An option plan owes its exit as a bracket does once its entry filled (its entry the order it placed).
  if (plan.kind !== 'bracket' && plan.kind !== 'option-entry') return undefined;
  const owing =
    plan.state === 'entry-filled' ||
    plan.state === 'exit-armed' ||
    (plan.state === 'unprotected' && (plan.retrying === true || plan.inFlight !== undefined));
  const qty = wholeQty(text((plan.position as Fields | undefined)?.qty));
  if (!owing || qty === undefined) return undefined;
  const entry = (plan.entry ?? {}) as Fields;
  return {
    planId,
    exch: text(plan.exch),
    tsym: text(plan.tsym),
    prd: text(entry.prd ?? 'C'),
    trantype: entry.trantype === 'S' ? 'B' : 'S',
    qty,
    what: 'its exit',
    alIds: ids.exit ? [text(ids.exit)] : [],
  };
};

/** The exits the live plans among `plans` (plan records) owe. */
export const owedExitsOf = (plans: readonly Fields[]): OwedExit[] =>
  plans.flatMap((plan) => {
    const owed = planOwedExit(plan);
    return owed ? [owed] : [];
  });

/** What waits to close a position on one side: the total, and each live plan's part of it (its GTTs included). */
export interface WaitingExits {
  total: number;
  plans: { owed: OwedExit; atBroker: number }[];
}

/**
 * What the pending exits and the live plans of a position would sell (`side` S) or buy (B): each pending order's
 * largest leg on that side for that exchange, symbol and product, summed, and each live plan's exit on that side; a
 * plan's own GTTs at the broker (by stamp or al_id) count within its quantity (the larger of the two), never twice.
 */
export const waitingExits = (
  pending: readonly Fields[],
  owed: readonly OwedExit[],
  at: { exch: string; tsym: string; prd: string },
  side: 'B' | 'S',
): WaitingExits => {
  const plans = owed
    .filter((o) => o.trantype === side && sameInstrument(o, at, o.prd, at.prd))
    .map((o) => ({ owed: o, atBroker: 0 }));
  const byPlan = new Map(plans.map((p) => [p.owed.planId, p]));
  const byAlId = new Map(plans.flatMap((p) => p.owed.alIds.map((id) => [id, p] as const)));
  let broker = 0;
  for (const order of pending) {
    const legs = ordersOfPending(order)
      .flat()
      .filter((leg) => leg.trantype === side && sameInstrument(leg, at, leg.prd, at.prd));
    const qty = legs.reduce((most, leg) => Math.max(most, wholeQty(leg.qty) ?? 0), 0);
    if (qty === 0) continue;
    const plan = byAlId.get(text(order.al_id)) ?? byPlan.get(PLAN_OF_TAG.exec(text(order.tag))?.[1] ?? '');
    if (plan) plan.atBroker += qty;
    else broker += qty;
  }
  return { total: plans.reduce((sum, p) => sum + Math.max(p.owed.qty, p.atBroker), broker), plans };
};

/** What the pending exits of a position alone would sell (`side` S) or buy (B), no plan counted. */
export const pendingExitQty = (
  pending: readonly Fields[],
  at: { exch: string; tsym: string; prd: string },
  side: 'B' | 'S',
): number => waitingExits(pending, [], at, side).total;

/** The net quantity held of an exchange, symbol and product (0 when the book has no row for it). */
export const netQtyOf = (positions: readonly HeldPosition[], at: { exch: string; tsym: string; prd: string }) =>
  positions
    .filter((p) => sameInstrument(p, at, p.product, at.prd))
    .reduce((sum, p) => sum + (Number.isFinite(p.netQty) ? p.netQty : 0), 0);

const SIDE: Record<string, string> = { B: 'buy', S: 'sell' };

/** `pending exits sell 5, of which live plans owe 5: plan pl… 5, its stop not at the broker yet`. */
const waitingWords = (waiting: WaitingExits, reducing: string): string => {
  const owed = waiting.plans.map(({ owed: o, atBroker }) => Math.max(o.qty, atBroker)).reduce((a, b) => a + b, 0);
  const words = waiting.plans
    .slice(0, 3)
    .map(
      ({ owed: o, atBroker }) =>
        `plan ${o.planId} ${Math.max(o.qty, atBroker)}, ${o.what} ${atBroker ? 'at the broker' : 'not at the broker yet'}`,
    );
  const more = waiting.plans.length > 3 ? ` and ${waiting.plans.length - 3} more` : '';
  return `pending exits ${SIDE[reducing]} ${waiting.total}${waiting.plans.length ? `, of which live plans owe ${owed}: ${words.join('; ')}${more}` : ''}`;
};

/**
 * Why `order` would not only reduce its position (`EXIT_ONLY: ...`), or undefined when it does: a sell of at most the
 * long's size less its pending sells and the live plans' sells, a buy of at most the short's size less its pending
 * buys and the live plans' buys (`owed`: owedExitsOf the plans read now).
 */
export const exitOnlyRefusal = (
  order: ExitOrder,
  positions: readonly HeldPosition[],
  pending: readonly Fields[],
  owed: readonly OwedExit[],
): string | undefined => {
  const where = `${order.exch}:${order.tsym} (product ${order.prd})`;
  const side = SIDE[order.trantype];
  const qty = wholeQty(order.qty);
  if (!side) return `EXIT_ONLY: side ${JSON.stringify(order.trantype).slice(0, 12)} is not B or S`;
  if (qty === undefined) return `EXIT_ONLY: quantity ${JSON.stringify(order.qty).slice(0, 24)} is not a whole number`;
  const held = netQtyOf(positions, order);
  const what = `a ${side} of ${qty} ${where}`;
  if (held === 0) return `EXIT_ONLY: ${what} would open a position: none is held, so there is nothing to reduce`;
  const long = held > 0;
  const reducing = long ? 'S' : 'B';
  const position = `the ${long ? 'long' : 'short'} of ${Math.abs(held)}`;
  if (order.trantype !== reducing)
    return `EXIT_ONLY: ${what} would add to ${position}; an exit-only caller may only ${SIDE[reducing]} it`;
  const waiting = waitingExits(pending, owed, order, reducing);
  if (waiting.total + qty > Math.abs(held))
    return `EXIT_ONLY: ${what} would exceed ${position} (${waitingWords(waiting, reducing)}): at most ${Math.max(0, Math.abs(held) - waiting.total)} more may be ${long ? 'sold' : 'bought'}`;
  return undefined;
};

/**
 * The order a plan (`POST /plans`' body) would place, as the rule judges it, or why a plan of its kind is refused: a
 * trailing stop's `order` is its stop, one GTT that only closes (a sell up to the long, a buy up to the short, the
 * same room as any exit; once the plan is recorded its stop counts for later checks, at the broker or not); a bracket
 * places an entry that opens a position, so it is never exit-only.
 */
export const planExitOrder = (plan: Fields): { order: ExitOrder } | { refused: string } => {
  if (plan.kind !== 'trailing-stop')
    return {
      refused: `EXIT_ONLY: ${/^[aeiou]/i.test(text(plan.kind)) ? 'an' : 'a'} ${text(plan.kind).slice(0, 24) || '(kind-less)'} plan places an entry that opens a position, which an exit-only caller may not; a trailing-stop plan on the side that closes the position may be started`,
    };
  const o = (plan.order ?? {}) as Fields;
  return {
    order: { exch: text(o.exch), tsym: text(o.tsym), prd: text(o.prd), trantype: text(o.trantype), qty: text(o.qty) },
  };
};

/** The line a check says it made, for a preview's `rulesChecked`. */
export const exitOnlyLine = (
  order: ExitOrder,
  positions: readonly HeldPosition[],
  pending: readonly Fields[],
  owed: readonly OwedExit[],
) => {
  const held = netQtyOf(positions, order);
  const reducing = held > 0 ? 'S' : 'B';
  return `exit-only: ${order.exch}:${order.tsym} (product ${order.prd}) held ${held}, ${waitingWords(waitingExits(pending, owed, order, reducing), reducing)} (positions, pending orders and plans read now)`;
};

/**
 * Why a change of a pending order is not exit-only, or undefined: it may move triggers and prices (tighten or loosen a
 * stop or a target) but never raise a quantity, flip a side or change the exchange, symbol or product. `before` and
 * `after`: the order's legs (one for a single GTT) as read and as the change leaves them, in the same order.
 */
export const exitChangeRefusal = (before: readonly ExitOrder[], after: readonly ExitOrder[]): string | undefined => {
  if (before.length !== after.length) return 'EXIT_ONLY: the change turns the order into another kind of order';
  for (const [i, was] of before.entries()) {
    const now = after[i]!;
    const leg = before.length > 1 ? ` (${i === 0 ? 'target' : 'stop-loss'} leg)` : '';
    if (now.trantype !== was.trantype)
      return `EXIT_ONLY: the change flips the side${leg} from ${SIDE[was.trantype] ?? was.trantype} to ${SIDE[now.trantype] ?? now.trantype}`;
    if (now.exch !== was.exch || now.tsym !== was.tsym || now.prd !== was.prd)
      return `EXIT_ONLY: the change moves the order${leg} to another instrument or product (${now.exch}:${now.tsym}, product ${now.prd})`;
    const from = wholeQty(was.qty) ?? 0;
    const to = wholeQty(now.qty);
    if (to === undefined)
      return `EXIT_ONLY: quantity ${JSON.stringify(now.qty).slice(0, 24)}${leg} is not a whole number`;
    if (to > from)
      return `EXIT_ONLY: the change raises the quantity${leg} from ${from} to ${to}; it may only keep or lower it`;
  }
  return undefined;
};
