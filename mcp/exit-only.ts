/**
 * The exit-only scope on the MCP server's writes (docs/reference/assistants.md, "Exit-only"): an assistant with the
 * `exit` scope (and not `trade`) may cancel orders and plans, turn the kill switch on, change a pending order's
 * triggers and prices (never raise its quantity, flip its side or move it to another instrument or product), and place
 * a GTT, an OCO or a trailing-stop plan (its stop) only when it reduces an open position, by the rule of
 * functions/base/schemas/exit-only.ts.
 *
 * A place is checked on the positions (`GetPositions`), the pending orders of its symbol (`GetPendingGTTOrder`) and
 * the plans (`ListPlans`: what the live ones owe, their stops and exits not at the broker yet included) read at its
 * preview, and read and checked again at its confirm, before the confirmation is taken: a position that shrank (or
 * an exit placed or a plan started meanwhile) refuses the confirm and nothing is sent. A read that fails refuses,
 * never allows blind. Any other write (a full replacement, a bracket, the kill switch's release) is refused with the reason.
 */
import { mergePatch, modifyInputOfRecord } from '../functions/base/broker/patch-merge.js';
import {
  exitChangeRefusal,
  exitOnlyLine,
  exitOnlyRefusal,
  type ExitOrder,
  type HeldPosition,
  type OwedExit,
  owedExitsOf,
  planExitOrder,
} from '../functions/base/schemas/exit-only.js';
import type { GttOrder } from '../functions/base/schemas/reply.js';
import type { GatewayPort, GatewayRequest } from './port.js';

type Fields = Record<string, unknown>;
const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** The writes an exit-only assistant may make without a position check: they place and raise nothing. */
const ALWAYS = ['CancelGTTOrder', 'CancelPlan', 'ActivateKillSwitch'];
/** Closes that the gateway itself holds to the position and its pending exits (functions/risk/close.ts). */
const REDUCING = ['ClosePosition'];
/** The places checked against the positions, at preview and again at confirm. */
export const EXIT_PLACES: readonly string[] = ['PlaceGTTOrder', 'PlaceOCOOrder', 'CreatePlan'];
const CHANGES = ['PatchGTTOrder', 'PatchOCOOrder'];
const WAY: Record<string, string> = {
  ModifyGTTOrder: 'use change_gtt to move its trigger or price (bound to the order as read)',
  ModifyOCOOrder: 'use change_oco to move its triggers or prices (bound to the order as read)',
  ReleaseKillSwitch: 'only the trader (or a trade assistant) turns it off',
  SetRiskLimits: "the day's limits are the trader's (or a trade assistant's): loosening one raises risk",
  PutCoverageSettings: "coverage is the trader's (or a trade assistant's): turning it off leaves positions unwatched",
};

/** The order(s) a GTT or OCO body (a place's, or an order after a change) leaves: an OCO's legs each. */
export const exitOrdersOf = (b: Fields): ExitOrder[] => {
  if (b.target !== undefined || b.stopLoss !== undefined)
    return (['target', 'stopLoss'] as const).map((name) => {
      const o = ((b[name] as Fields | undefined)?.order ?? {}) as Fields;
      return { exch: text(b.exch), tsym: text(b.tsym), prd: text(o.prd), trantype: text(o.trantype), qty: text(o.qty) };
    });
  return [{ exch: text(b.exch), tsym: text(b.tsym), prd: text(b.prd), trantype: text(b.trantype), qty: text(b.qty) }];
};

const codeOf = (error: unknown): string => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : 'ERROR';
};

/** The pending orders of one symbol at the broker, every page. */
const pendingOf = async (port: GatewayPort, exch: string, tsym: string): Promise<Fields[]> => {
  const orders: Fields[] = [];
  let cursor: string | undefined;
  do {
    const page = (await port.call({
      operation: 'GetPendingGTTOrder',
      query: { exch, tsym, limit: 1000, ...(cursor ? { cursor } : {}) },
    })) as { orders?: Fields[]; nextCursor?: string };
    orders.push(...(page.orders ?? []));
    cursor = page.nextCursor;
  } while (cursor);
  return orders;
};

/** Every plan, every page (the ended ones are kept a while; owedExitsOf skips them). */
const plansOf = async (port: GatewayPort): Promise<Fields[]> => {
  const plans: Fields[] = [];
  let cursor: string | undefined;
  do {
    const page = (await port.call({
      operation: 'ListPlans',
      query: { limit: 1000, ...(cursor ? { cursor } : {}) },
    })) as { plans?: Fields[]; nextCursor?: string };
    plans.push(...(page.plans ?? []));
    cursor = page.nextCursor;
  } while (cursor);
  return plans;
};

/**
 * Whether `request` is an exit-only write, and what was checked. `current`: the pending order a change applies to,
 * as its preview read it (a change without it is refused). Reads the positions, pending orders and plans for a place.
 */
export const exitOnlyCheck = async (
  port: GatewayPort,
  request: GatewayRequest,
  current?: GttOrder,
): Promise<{ checked: string[]; refused?: string }> => {
  const op = request.operation;
  const nothingSent = (reason: string) => ({ checked: [], refused: `${reason}; nothing was sent.` });
  if (ALWAYS.includes(op)) return { checked: ['exit-only: a cancel or the kill switch on raises no exposure'] };
  if (REDUCING.includes(op))
    return { checked: ['exit-only: a close only reduces (the gateway refuses one past the position or its exits)'] };
  if (CHANGES.includes(op)) {
    if (!current) return nothingSent('EXIT_ONLY: the order it changes was not read, so the change cannot be checked');
    const before = modifyInputOfRecord(current);
    const refusal = exitChangeRefusal(exitOrdersOf(before), exitOrdersOf(mergePatch(before, request.body ?? {})));
    if (refusal) return nothingSent(refusal);
    return { checked: ['exit-only: the change keeps the side, instrument and product and raises no quantity'] };
  }
  if (!EXIT_PLACES.includes(op))
    return nothingSent(
      `EXIT_ONLY: ${op} is not an exit-only write (an exit-only assistant cancels, changes triggers and prices, and places orders that reduce an open position)${WAY[op] ? `: ${WAY[op]}` : ''}`,
    );
  let orders: ExitOrder[];
  if (op === 'CreatePlan') {
    const plan = planExitOrder(request.body ?? {});
    if ('refused' in plan) return nothingSent(plan.refused);
    orders = [plan.order];
  } else orders = exitOrdersOf(request.body ?? {});
  const { exch, tsym } = orders[0]!;
  let positions: HeldPosition[];
  let pending: Fields[];
  let owed: OwedExit[];
  try {
    positions = ((await port.call({ operation: 'GetPositions' })) as { positions?: HeldPosition[] }).positions ?? [];
  } catch (error) {
    return nothingSent(
      `EXIT_ONLY: the positions could not be read (${codeOf(error)}), so whether the order only reduces one cannot be known`,
    );
  }
  try {
    pending = await pendingOf(port, exch, tsym);
  } catch (error) {
    return nothingSent(
      `EXIT_ONLY: the pending orders of ${exch}:${tsym} could not be read (${codeOf(error)}), so the exits already waiting cannot be counted`,
    );
  }
  try {
    owed = owedExitsOf(await plansOf(port));
  } catch (error) {
    return nothingSent(
      `EXIT_ONLY: the plans could not be read (${codeOf(error)}), so the exits the live plans owe cannot be counted`,
    );
  }
  // An OCO's legs each: only one fires, so each is held to the room the position leaves on its own.
  for (const order of orders) {
    const refusal = exitOnlyRefusal(order, positions, pending, owed);
    if (refusal)
      return { checked: [exitOnlyLine(order, positions, pending, owed)], refused: `${refusal}; nothing was sent.` };
  }
  return { checked: [exitOnlyLine(orders[0]!, positions, pending, owed)] };
};
