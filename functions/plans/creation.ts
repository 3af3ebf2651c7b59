/**
 * What is refused when a plan is created, before anything is recorded or sent: everything the plan would later do
 * must be possible now. Prices on the instrument's tick grid (read from the broker: SearchScrip's `ti`); a bracket's
 * legs on the right sides of its entry (a long's stop-loss below the entry, its target above; a short's the other
 * way); its exit passed through the OCO schema and the guardrails (a dry run of the exit at the entry's quantity);
 * a trailing stop of a type that can trail (LMT, or MKT through the same price protection as a market order), moved
 * by at least a tick.
 */
import { type FieldProblem, fromDirectInvocation, type GatewayError } from '../base/contract/errors.js';
import { isPriceAlert } from '../base/schemas/alert-types.js';
import type { PlanInput } from '../base/schemas/plans.js';
import { lotProblem, tickProblem } from '../orders/safety/exchange-rule-checks.js';
import { compare } from '../orders/safety/grid.js';
import type { PlanDeps } from './engine-needs.js';

/** The same tick check as every order's (orders/safety/exchange-rule-checks.ts). */
const gridProblem = (field: string, value: string | undefined, tick: string): FieldProblem[] =>
  value === undefined ? [] : tickProblem(field, value, tick);

const isMarket = (prctyp: unknown) => prctyp === 'MKT' || prctyp === 'SL-MKT';

/** The problems of a plan's prices and legs, for an instrument of this tick. */
export const planProblems = (input: PlanInput, tick: string, lot = 1): FieldProblem[] => {
  // An option plan's contract is chosen when its index crosses: its checks are option-create.ts's.
  if (input.kind === 'option-entry' || input.kind === 'option-legs') return [];
  if (input.kind === 'bracket') {
    const entry = input.entry as Record<string, string | undefined>;
    const problems = [
      ...(isMarket(entry.prctyp) ? [] : gridProblem('entry.prc', entry.prc, tick)),
      // A trigger that is no price (percentage change, open interest, volume) is not on the tick (alert-types.ts).
      ...(isPriceAlert(entry.ai_t) ? gridProblem('entry.d', entry.d, tick) : []),
      ...lotProblem('entry.qty', String(entry.qty), String(entry.tsym), lot),
      ...gridProblem('target.trigger', input.target.trigger, tick),
      ...gridProblem('target.price', input.target.price, tick),
      ...gridProblem('stopLoss.trigger', input.stopLoss.trigger, tick),
      ...gridProblem('stopLoss.price', input.stopLoss.price, tick),
    ];
    // The entry's reference: its limit price, or its trigger for a market entry.
    const reference = isMarket(entry.prctyp) || !entry.prc ? entry.d! : entry.prc;
    const long = entry.trantype === 'B';
    const below = (field: string, value: string, what: string) =>
      compare(value, reference) < 0
        ? []
        : [{ field, message: `${what} (${value}) must be below the entry's ${reference}` }];
    const above = (field: string, value: string, what: string) =>
      compare(value, reference) > 0
        ? []
        : [{ field, message: `${what} (${value}) must be above the entry's ${reference}` }];
    if (long)
      problems.push(
        ...above('target.trigger', input.target.trigger, "a long bracket's target"),
        ...below('stopLoss.trigger', input.stopLoss.trigger, "a long bracket's stop-loss"),
      );
    else
      problems.push(
        ...below('target.trigger', input.target.trigger, "a short bracket's target"),
        ...above('stopLoss.trigger', input.stopLoss.trigger, "a short bracket's stop-loss"),
      );
    return problems;
  }
  const order = input.order as Record<string, string | undefined>;
  const problems: FieldProblem[] = [];
  if (order.prctyp !== 'LMT' && order.prctyp !== 'MKT')
    problems.push({
      field: 'order.prctyp',
      message: `a trailing stop's order must be LMT or MKT (MKT trails as a price-protected limit order); ${order.prctyp} carries a trigger of its own that the plan would not move`,
    });
  if (!isPriceAlert(order.ai_t))
    problems.push({
      field: 'order.ai_t',
      message: `a trailing stop moves a price trigger; ${String(order.ai_t)} does not watch a price: use LTP_A_O or LTP_B_O`,
    });
  problems.push(
    ...(isMarket(order.prctyp) ? [] : gridProblem('order.prc', order.prc, tick)),
    ...gridProblem('order.d', order.d, tick),
    ...lotProblem('order.qty', String(order.qty), String(order.tsym), lot),
    ...gridProblem('trailBy', input.trailBy, tick),
    ...gridProblem('step', input.step, tick),
  );
  if (compare(input.trailBy, tick) < 0)
    problems.push({ field: 'trailBy', message: `trailBy must be at least one tick (${tick})` });
  if (input.step !== undefined && compare(input.step, tick) < 0)
    problems.push({ field: 'step', message: `step must be at least one tick (${tick})` });
  return problems;
};

/**
 * A bracket's exit as it will be placed (the entry's quantity, the opposite side, limit orders at the legs' prices),
 * through PlaceOCOOrder's own checks and this deployment's guardrails in a dry run: nothing is sent. Its refusal,
 * with the fields named as the plan names them (`target...`, `stopLoss...`).
 */
export const exitDryRun = async (
  input: Extract<PlanInput, { kind: 'bracket' }>,
  deps: Pick<PlanDeps, 'placeOco'>,
  deadline: number,
): Promise<GatewayError | undefined> => {
  const entry = input.entry as Record<string, unknown>;
  const side = entry.trantype === 'B' ? 'S' : 'B';
  const leg = (l: { trigger: string; price: string }) => ({
    trigger: l.trigger,
    order: { trantype: side, prctyp: 'LMT', qty: entry.qty, prc: l.price, prd: entry.prd },
  });
  try {
    await deps.placeOco(
      { exch: entry.exch, tsym: entry.tsym, target: leg(input.target), stopLoss: leg(input.stopLoss), dryRun: true },
      deadline,
    );
    return undefined;
  } catch (error) {
    const failure = fromDirectInvocation(error);
    failure.message = `The bracket's exit (an OCO selling what the entry buys, or buying what it sells) would be refused: ${failure.message}`;
    return failure;
  }
};
