/**
 * What the kill switch's `keep-exits` mode counts as an exit (docs/explanation/compliance.md, "The kill switch"): one rule, read
 * by the switch's sweep on each order the broker lists (functions/controls/kill-switch.ts) and by the order core on
 * the order a write leaves at the broker when it lands after the switch went on (gateway/landed-after-halt.ts), so
 * the two never disagree about an order: what the sweep answers `kept`, a change of it landing later keeps too.
 *
 * An exit is every OCO (a target and a stop: it closes a position), and a plan's exit OCO and trailing stop, known by
 * the plan's stamp in the order's tag (`pl<16 hex>.x<n>`, `.s`; functions/plans/stamps.ts): a plan's entry
 * (`.e`) and every other single GTT would open a position, so they are not.
 */

/** A plan's GTT's tag: the plan id and the step (`e` entry, `s` stop, `x<n>` the n-th exit). */
const PLAN_STAMP = /^(pl[0-9a-f]{16})\.(e|s|x\d{1,4})$/;

/** A plan step's name in its stamp: `e` (entry), `s` (stop), `x<n>` (the n-th exit). */
export type PlanStep = 'e' | 's' | `x${number}`;

/** The plan and step a GTT's tag names, or undefined for any other tag. */
export const parsePlanStamp = (tag: string | undefined): { planId: string; step: PlanStep } | undefined => {
  const m = PLAN_STAMP.exec(tag ?? '');
  return m ? { planId: m[1]!, step: m[2] as PlanStep } : undefined;
};

/** An order as the rule reads it: its kind and its tag (the caller's part of the remarks). */
export interface ExitShape {
  type?: 'single' | 'oco' | undefined;
  tag?: string | undefined;
}

/** Whether keep-exits keeps this order at the broker: an OCO, or a plan's exit or trailing stop. */
export const isExit = (order: ExitShape): boolean => {
  if (order.type === 'oco') return true;
  const step = parsePlanStamp(order.tag)?.step;
  return step !== undefined && step !== 'e';
};
