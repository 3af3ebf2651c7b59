/**
 * The option plan's promises as checks (plans-invariants.ts calls them; docs/reference/plans.md, "Option entry"),
 * against the emulator's order book, where its entry is the one order whose remarks carry `<planId>.e`:
 *
 * - never twice: at most one order stamped with the plan's entry, whatever the faults (after every step);
 * - recorded = broker (after a run): a watching plan has sent nothing; once its entry is recorded, its number is that
 *   order's; a plan whose entry filled holds the filled quantity as its position and is the contract's; a plan failed
 *   with nothing filled has no fill at the broker. Never unprotected is the bracket's check, which option plans share.
 * - its cap (`maxValue`): an entry sent is worth at most it (quantity × limit); a plan failed on it sent nothing.
 */
import type { BookOrder } from '../../emulator/state/order-book.js';
import { splitRemarks } from '../../functions/base/broker/order-stamps.js';
import type { Plan } from '../../functions/base/schemas/plans.js';

const entriesOf = (planId: string, orders: readonly BookOrder[]) =>
  orders.filter((o) => splitRemarks(o.remarks).tag === `${planId}.e`);

const ENDED = new Set(['COMPLETE', 'REJECTED', 'CANCELED']);

/** Why the plan's entry was sent twice, or undefined. */
export const entrySentTwice = (planId: string, orders: readonly BookOrder[]): string | undefined => {
  const entries = entriesOf(planId, orders);
  return entries.length > 1
    ? `plan ${planId}: ${entries.length} entry orders stamped ${planId}.e (${entries.map((o) => o.norenordno).join(', ')}): sent twice`
    : undefined;
};

/** Why an option plan's record is not the broker's, or undefined (after a run). */
export const optionRecordProblem = (plan: Plan, orders: readonly BookOrder[], errored: boolean): string | undefined => {
  if (plan.kind !== 'option-entry') return undefined;
  const id = plan.planId;
  const [entry] = entriesOf(id, orders);
  const latest = entry?.history[0];
  if (plan.state === 'watching' && entry) return `plan ${id} is watching, yet its entry ${entry.norenordno} was sent`;
  const cap = plan.option?.maxValue;
  if (cap !== undefined && entry && entry.qty * Number(entry.prc) > cap + 1e-6)
    return `plan ${id}'s entry ${entry.norenordno} is worth ${entry.qty} × ${entry.prc}, above its maxValue ${cap}`;
  if (entry && plan.history.some((h) => h.action === 'entry-above-cap'))
    return `plan ${id} failed on its maxValue, yet its entry ${entry.norenordno} was sent`;
  const recorded = plan.option?.entryOrder;
  if (recorded && recorded !== entry?.norenordno)
    return `plan ${id} records entry ${recorded}, the broker's is ${entry?.norenordno ?? 'absent'}`;
  if (plan.state === 'entry-filled' || plan.state === 'exit-armed') {
    if (!entry || !latest) return `plan ${id} (${plan.state}) has no entry order at the broker`;
    if (ENDED.has(latest.status) && plan.position === undefined)
      return `plan ${id} (${plan.state}) records no position though its entry filled ${latest.fillshares}`;
    if (plan.tsym !== entry.tsym) return `plan ${id} is on ${plan.tsym}, its entry on ${entry.tsym}`;
    const filled = plan.history.find((h) => h.action === 'entry-filled')?.detail?.filledQty;
    if (filled !== undefined && ENDED.has(latest.status) && filled !== latest.fillshares)
      return `plan ${id} recorded a fill of ${String(filled)}, the broker ${latest.fillshares}`;
  }
  if (plan.state === 'failed' && latest && latest.fillshares > 0 && !errored)
    return `plan ${id} failed, yet its entry ${entry!.norenordno} filled ${latest.fillshares}: a position without a plan`;
  return undefined;
};
