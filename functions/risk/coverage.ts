/**
 * Coverage (docs/explanation/coverage.md): every open position matched with the resting exits that cover it, from
 * the broker's positions and its pending list (single GTTs, OCOs, and the plans' exits and stops, which rest there
 * with the plan's stamp in their tag). Pure: the reads are the caller's.
 *
 * An exit covers a position when it is on the other side (a sell for a long, a buy for a short), on the same exchange
 * and symbol, and of the same product where it names one. A stop (a single GTT on the losing side) and an OCO count
 * for their quantity (an OCO once: either leg fires, never both); a single target caps the profit but protects
 * nothing, so it is listed and never counted. Each exit covers one position at most.
 *
 * The live plans' exits not at the broker yet (`planOwedExit`, functions/base/schemas/exit-only.ts: a trailing stop
 * whose first place had a lost reply, a filled bracket's exit OCO still to be placed or being retried) are said beside
 * it (`owedQty`, `owedBy`) and never counted as cover: such a position is not `covered` until the exit rests. A plan
 * counts once: its own exits at the broker (by its stamp in their tag, or their al_id in its record) count within its
 * quantity, so what it owes is its quantity less those.
 */
import type { CoverageStatus, CoverExit, PositionCoverage } from '../base/schemas/coverage.js';
import { type OwedExit, planOwedExit } from '../base/schemas/exit-only.js';
import type { Position } from '../base/schemas/positions.js';
import type { GttOrder } from '../base/schemas/reply.js';
import { parsePlanStamp } from '../orders/safety/exits.js';

/** A pending order as coverage reads it (the pending list's normalised shape). */
export type PendingExit = Pick<
  GttOrder,
  'al_id' | 'type' | 'tag' | 'exch' | 'tsym' | 'trantype' | 'qty' | 'prd' | 'ai_t' | 'trigger' | 'target' | 'stopLoss'
>;

const sideOfExit = (order: PendingExit): string | undefined =>
  order.type === 'oco' ? (order.stopLoss?.order.trantype ?? order.target?.order.trantype) : order.trantype;

const productOfExit = (order: PendingExit): string | undefined =>
  (order.type === 'oco' ? (order.stopLoss?.order.prd ?? order.target?.order.prd) : order.prd) || undefined;

const qtyOfExit = (order: PendingExit): number =>
  Number(order.type === 'oco' ? (order.stopLoss?.order.qty ?? order.target?.order.qty ?? order.qty) : order.qty) || 0;

/**
 * Whether a single GTT closing this position fires on the losing side: by its alert type (`LTP_B_O`, price below,
 * for a long's sell; `LTP_A_O` for a short's buy), else by its trigger against the average price.
 */
const isStop = (order: PendingExit, position: Position): boolean => {
  const long = position.netQty > 0;
  if (order.ai_t === 'LTP_B_O') return long;
  if (order.ai_t === 'LTP_A_O') return !long;
  const trigger = Number(order.trigger);
  return long ? trigger <= position.averagePrice : trigger >= position.averagePrice;
};

const exitOf = (order: PendingExit, position: Position): CoverExit | undefined => {
  const stamp = parsePlanStamp(order.tag);
  // A plan's entry opens a position: never an exit.
  if (stamp?.step === 'e') return undefined;
  const planId = stamp ? { planId: stamp.planId } : {};
  const qty = qtyOfExit(order);
  if (order.type === 'oco')
    return {
      al_id: order.al_id,
      ...planId,
      kind: stamp ? 'plan-exit' : 'oco',
      ...(order.target ? { target: order.target.trigger } : {}),
      ...(order.stopLoss ? { stopLoss: order.stopLoss.trigger } : {}),
      qty,
      counts: true,
    };
  const stop = isStop(order, position);
  const kind = stamp ? (stop ? 'plan-stop' : 'plan-exit') : stop ? 'stop' : 'target';
  return {
    al_id: order.al_id,
    ...planId,
    kind,
    ...(order.trigger ? { trigger: order.trigger } : {}),
    qty,
    counts: stop,
  };
};

const statusOf = (open: number, covered: number, exits: readonly CoverExit[]): CoverageStatus => {
  if (covered >= open) return 'covered';
  if (covered > 0) return 'partly';
  return exits.length ? 'target-only' : 'uncovered';
};

/**
 * What the live plans owe (`planOwedExit`), and more for coverage: an armed bracket whose entry GTT is no longer in
 * the pending list has most likely filled before the plan saw it (a run whose plans' step failed), so its exit is
 * owed too; autoCover leaves it to the plan, which places it on its next step (or ends, and then owes nothing).
 */
export const owedOfPlans = (plans: readonly Record<string, unknown>[], pending: readonly PendingExit[]): OwedExit[] => {
  const resting = new Set(pending.map((o) => o.al_id));
  return plans.flatMap((plan) => {
    const entryId = (plan.alIds as { entry?: unknown } | undefined)?.entry;
    const gone = plan.kind === 'bracket' && plan.state === 'armed' && entryId && !resting.has(String(entryId));
    const qty = (plan.entry as { qty?: unknown } | undefined)?.qty;
    const owed = planOwedExit(gone ? { ...plan, state: 'entry-filled', position: { qty } } : plan);
    return owed ? [owed] : [];
  });
};

/** What the live plans owe a position and is not at the broker yet: each plan's quantity less its exits resting. */
const owedOf = (position: Position, closing: string, exits: readonly CoverExit[], owed: readonly OwedExit[]) =>
  owed
    .filter(
      (o) =>
        o.exch === position.exch && o.tsym === position.tsym && o.prd === position.product && o.trantype === closing,
    )
    .map((o) => {
      const resting = exits
        .filter((e) => e.planId === o.planId || o.alIds.includes(e.al_id))
        .reduce((sum, e) => sum + e.qty, 0);
      return { planId: o.planId, qty: Math.max(0, o.qty - resting), what: o.what };
    })
    .filter((o) => o.qty > 0);

/**
 * Each open position's coverage, open positions in the order the broker listed them; `owed`: what the live plans owe
 * (owedExitsOf the plans read now), said beside the cover, never counted in it.
 */
export const coverageOf = (
  positions: readonly Position[],
  pending: readonly PendingExit[],
  owed: readonly OwedExit[] = [],
): PositionCoverage[] => {
  const used = new Set<string>();
  return positions
    .filter((p) => p.netQty !== 0)
    .map((position) => {
      const closing = position.netQty > 0 ? 'S' : 'B';
      const exits: CoverExit[] = [];
      for (const order of pending) {
        if (used.has(order.al_id) || order.exch !== position.exch || order.tsym !== position.tsym) continue;
        if (sideOfExit(order) !== closing) continue;
        const product = productOfExit(order);
        if (product !== undefined && product !== position.product) continue;
        const exit = exitOf(order, position);
        if (!exit) continue;
        used.add(order.al_id);
        exits.push(exit);
      }
      const open = Math.abs(position.netQty);
      const counted = exits.filter((e) => e.counts).reduce((sum, e) => sum + e.qty, 0);
      const coveredQty = Math.min(open, counted);
      const owedBy = owedOf(position, closing, exits, owed);
      const owedQty = owedBy.reduce((sum, o) => sum + o.qty, 0);
      return {
        exch: position.exch,
        tsym: position.tsym,
        product: position.product,
        netQty: position.netQty,
        averagePrice: position.averagePrice,
        status: statusOf(open, coveredQty, exits),
        coveredQty,
        uncoveredQty: open - coveredQty,
        ...(counted > open ? { overCoveredQty: counted - open } : {}),
        ...(owedQty ? { owedQty, owedBy } : {}),
        exits,
      };
    });
};

/** The totals over the positions' coverage. */
export const coverageTotals = (positions: readonly PositionCoverage[]) => ({
  open: positions.length,
  covered: positions.filter((p) => p.status === 'covered').length,
  partly: positions.filter((p) => p.status === 'partly').length,
  targetOnly: positions.filter((p) => p.status === 'target-only').length,
  uncovered: positions.filter((p) => p.status === 'uncovered').length,
});
