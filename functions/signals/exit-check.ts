/**
 * An exit strategy's order checked by the exit-only rule (functions/base/schemas/exit-only.ts) when the worker acts
 * on its alert (docs/reference/signals.md, "Exit-only strategies"): the account's positions (`GetPositions`) and the
 * pending orders of the alert's symbol (`GetPendingGTTOrder`, every page) read now, in-process, and the plans from
 * their store (what the live ones owe, their stops and exits not at the broker yet included), and the GTT (each OCO
 * leg, a trailing stop's stop) held to them; a bracket, which opens a position, is refused without a read. Why not
 * is a GUARDRAIL_REJECTED whose message begins `EXIT_ONLY:`: nothing is sent. A read that fails refuses too (never
 * allows blind), saying which read and its code.
 */
import { fromDirectInvocation, GuardrailRejectedError } from '../base/contract/errors.js';
import {
  exitOnlyRefusal,
  type ExitOrder,
  type HeldPosition,
  type OwedExit,
  owedExitsOf,
  planExitOrder,
} from '../base/schemas/exit-only.js';
import type { DirectHandler } from '../orders/gateway/in-process.js';
import type { AlertOrder } from './orders.js';

type Fields = Record<string, unknown>;
const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** The orders one alert places: a GTT's body, or an OCO's legs each (only one fires); a plan's is planExitOrder's. */
const ordersOf = (order: Exclude<AlertOrder, { kind: 'plan' }>): ExitOrder[] => {
  const b = order.body;
  if (order.kind === 'gtt')
    return [{ exch: text(b.exch), tsym: text(b.tsym), prd: text(b.prd), trantype: text(b.trantype), qty: text(b.qty) }];
  return (['target', 'stopLoss'] as const).map((name) => {
    const o = ((b[name] as Fields | undefined)?.order ?? {}) as Fields;
    return { exch: text(b.exch), tsym: text(b.tsym), prd: text(o.prd), trantype: text(o.trantype), qty: text(o.qty) };
  });
};

const refuse = (message: string) => new GuardrailRejectedError(message, { outcome: 'not_executed' });

/** Throws the refusal when `order` would not only reduce its position; returns quietly when it does. */
export const checkExitOnly = async (
  reads: { positions: DirectHandler; pending: DirectHandler; plans: (deadline: number) => Promise<Fields[]> },
  order: AlertOrder,
  deadline: number,
): Promise<void> => {
  let orders: ExitOrder[];
  if (order.kind === 'plan') {
    const plan = planExitOrder(order.plan);
    if ('refused' in plan) throw refuse(`${plan.refused}; nothing was sent.`);
    orders = [plan.order];
  } else orders = ordersOf(order);
  const { exch, tsym } = orders[0]!;
  let positions: HeldPosition[];
  try {
    positions = ((await reads.positions({}, deadline)) as { positions: HeldPosition[] }).positions;
  } catch (error) {
    throw refuse(
      `EXIT_ONLY: the positions could not be read (${fromDirectInvocation(error).code}), so whether the order only reduces one cannot be known; nothing was sent.`,
    );
  }
  const pending: Fields[] = [];
  try {
    let cursor: string | undefined;
    do {
      const page = (await reads.pending({ exch, tsym, limit: 1_000, ...(cursor ? { cursor } : {}) }, deadline)) as {
        orders: Fields[];
        nextCursor?: string;
      };
      pending.push(...page.orders);
      cursor = page.nextCursor;
    } while (cursor);
  } catch (error) {
    throw refuse(
      `EXIT_ONLY: the pending orders of ${exch}:${tsym} could not be read (${fromDirectInvocation(error).code}), so the exits already waiting cannot be counted; nothing was sent.`,
    );
  }
  let owed: OwedExit[];
  try {
    owed = owedExitsOf(await reads.plans(deadline));
  } catch (error) {
    throw refuse(
      `EXIT_ONLY: the plans could not be read (${fromDirectInvocation(error).code}), so the exits the live plans owe cannot be counted; nothing was sent.`,
    );
  }
  for (const leg of orders) {
    const reason = exitOnlyRefusal(leg, positions, pending, owed);
    if (reason) throw refuse(`${reason}; nothing was sent.`);
  }
};
