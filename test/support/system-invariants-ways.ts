/**
 * The system model's invariants over the ways in that system-signals.ts and system-mcp.ts drive, checked after every
 * step (checkAll, system-invariants.ts) against the emulator's own books, never against what the gateway says:
 *
 * 1. never twice, for one alert: each alert to the ways strategy has at most one entry per symbol at the broker,
 *    whatever the strategy's action was at each delivery (a single GTT, an OCO, or a plan, whose GTTs, entry and
 *    exits, are one entry), found by the alert's quantity on the symbol;
 * 8. an assistant never exceeds its limits per order: no broker order of its confirms (its tag prefix, a GTT of a
 *    plan it created, an al_id a confirm answered) holds a quantity (each OCO leg's) or a value (quantity x limit
 *    price) over its most per order, a change's included;
 * 9. an assistant never exceeds its orders per day: the orders its confirms placed (its tagged ones, its plans' first
 *    GTTs) number at most its maxOrdersPerDay (each sequence's assistants are new: a day of their own).
 */
import type { Order } from '../../emulator/state/state.js';
import { splitRemarks } from '../../functions/base/broker/order-stamps.js';
import { parseStamp } from '../../functions/plans/stamps.js';
import { fail, norm } from './system-invariants.js';
import type { Sys } from './system-state.js';

const describe = (list: Order[]) => list.map((g) => `${g.al_id} ${g.kind} ${g.state} "${g.remarks}"`).join(', ');

/** Each alert's entries per symbol: orders with its quantity there, a plan's GTTs counted once. */
const oneEntryPerAlert = (s: Sys, gtts: Order[]) => {
  for (const alert of s.signals?.alerts ?? [])
    for (const tsym of alert.tsyms) {
      const orders = gtts.filter(
        (g) => g.tsym === tsym && (g.kind === 'oco' ? g.legs.x.qty === alert.qty : g.qty === alert.qty),
      );
      const plans = new Set<string>();
      let direct = 0;
      for (const g of orders) {
        const planId = parseStamp(splitRemarks(g.remarks).tag)?.planId;
        if (planId) plans.add(planId);
        else direct += 1;
      }
      if (direct + plans.size > 1)
        fail(
          s,
          1,
          `${alert.label} (actions ${alert.kinds.join(', ')}) has ${direct + plans.size} entries on ${tsym}: ${describe(orders)}`,
        );
    }
};

const legsOf = (g: Order): { qty: number; prc: string }[] =>
  g.kind === 'oco' ? [g.legs.x, g.legs.y] : [{ qty: g.qty, prc: g.prc }];

const withinLimits = (s: Sys, gtts: Order[]) => {
  for (const who of s.mcp?.assistants ?? []) {
    const ofPlan = (g: Order) => who.planIds.has(parseStamp(splitRemarks(g.remarks).tag)?.planId ?? '');
    const mine = gtts.filter((g) => g.remarks.startsWith(`${who.tag}:`) || who.alIds.has(g.al_id) || ofPlan(g));
    const { maxOrdersPerDay, maxQtyPerOrder, maxValuePerOrder } = who.limits;
    // Its places: its tagged orders and its plans' first GTTs (a plan's entry or stop; its exits are no new order).
    const placed = mine.filter(
      (g) =>
        g.remarks.startsWith(`${who.tag}:`) ||
        (ofPlan(g) && /^[es]$/.test(parseStamp(splitRemarks(g.remarks).tag)!.step)),
    );
    if (maxOrdersPerDay !== undefined && placed.length > maxOrdersPerDay)
      fail(
        s,
        9,
        `assistant ${who.name} (at most ${maxOrdersPerDay} orders a day) placed ${placed.length}: ${describe(placed)}`,
      );
    for (const g of mine)
      for (const leg of legsOf(g)) {
        const value = leg.qty * Number(leg.prc);
        if (maxQtyPerOrder !== undefined && leg.qty > maxQtyPerOrder)
          fail(s, 8, `assistant ${who.name} (qty at most ${maxQtyPerOrder}): ${describe([g])} holds qty ${leg.qty}`);
        else if (maxValuePerOrder !== undefined && value > maxValuePerOrder)
          fail(
            s,
            8,
            `assistant ${who.name} (value at most ${maxValuePerOrder}): ${describe([g])} holds ${leg.qty} x ${norm(leg.prc)} = ${value}`,
          );
      }
  }
};

/** The invariants of this file, after every step. */
export const checkWays = (s: Sys, gtts: Order[]): void => {
  oneEntryPerAlert(s, gtts);
  withinLimits(s, gtts);
};
