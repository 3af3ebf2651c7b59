/**
 * An assistant's per-order limits on a write: the order(s) the request leaves at the broker, each checked as the
 * registry reads an order (functions/base/schemas/assistant-limits.ts). Every write operation the tools call has a
 * case here, and one without a case is refused, never passed (fail closed): test/unit/mcp-preview.test.ts fails
 * when a write operation of operations.ts has none.
 *
 * A change (PATCH) leaves the order as it was with the changed fields laid over it, so it is checked as that merged
 * order: the preview reads the pending order at the broker (`GetGTTOrder`, fresh), merges the change over it with the
 * gateway's own merge (functions/base/broker/patch-merge.ts) and binds the request to the version it read
 * (`If-Match`: its ETag, functions/base/broker/order-version.ts). The confirm then changes that version only: an
 * order changed meanwhile is answered `412 ORDER_CHANGED` and nothing is sent, so the order checked is the order that
 * results.
 */
import { OPERATION_INFO } from '../client/generated/operations.js';
import { orderVersion } from '../functions/base/broker/order-version.js';
import { mergePatch, modifyInputOfRecord } from '../functions/base/broker/patch-merge.js';
import { checkLimits as overLimits, type LimitedOrder } from '../functions/base/schemas/assistant-limits.js';
import type { AssistantLimits } from '../functions/base/schemas/assistants.js';
import type { GttOrder } from '../functions/base/schemas/reply.js';
import type { GatewayPort, GatewayRequest } from './port.js';

type Fields = Record<string, unknown>;
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** One order as the limits read it, named for the reason. */
export type NamedOrder = LimitedOrder & { what: string };

const one = (o: Fields, exch: unknown, trigger: unknown, what: string): NamedOrder => ({
  exch: str(exch),
  qty: str(o.qty),
  prc: str(o.prc),
  d: str(trigger),
  what,
});
const single = (b: Fields): NamedOrder[] => [one(b, b.exch, b.d, 'the order')];
const legs = (b: Fields): NamedOrder[] =>
  (['target', 'stopLoss'] as const).map((name) => {
    const l = (b[name] ?? {}) as { trigger?: unknown; order?: Fields };
    return one(l.order ?? {}, b.exch, l.trigger, `the ${name} leg`);
  });

/** A change laid over the pending order: the order the broker holds after it (an OCO's legs, or a single order). */
export const changedOrder = (current: GttOrder, changes: Fields): Fields =>
  mergePatch(modifyInputOfRecord(current), changes);

const afterChange = (request: GatewayRequest, current: GttOrder | undefined): NamedOrder[] | string => {
  if (!current) return 'the order it changes was not read, so the order after the change cannot be checked';
  const merged = changedOrder(current, request.body ?? {});
  return merged.target !== undefined || merged.stopLoss !== undefined ? legs(merged) : single(merged);
};

/**
 * The contract an option plan's dry run picked now (functions/base/schemas/option-words.ts), or null: none said. A legs
 * plan's: each leg's entry order (its limit fixed now), a list.
 */
type Picked = { exch: string; tsym: string; qty: number; prc?: string };
export type PickedNow = Picked | (Picked & { prc: string })[] | null;

/**
 * A bracket's entry and its exits (each for the entry's quantity), a trailing stop's order, or an option plan's entry:
 * the contract its dry run picked now, its quantity the lots in units at the protected limit it would be sent at now
 * (its premium when the index crosses is held by the plan's maxValue: withValueCap). A legs plan's entries, each leg
 * held to the limits as an order of its own (its quantity and protected limit, fixed now).
 */
const planOrders = (b: Fields, picked?: PickedNow): NamedOrder[] | string => {
  if (b.kind === 'option-legs')
    return Array.isArray(picked)
      ? picked.map((l) => one(l, l.exch, undefined, `the legs plan's entry of ${l.tsym}`))
      : "the legs plan's entries were not read (its dry run said none), so their quantities cannot be checked";
  if (b.kind === 'option-entry')
    return picked && !Array.isArray(picked)
      ? [one(picked, picked.exch, undefined, `the option plan's entry (${picked.tsym} now)`)]
      : 'the contract the option plan picks was not read (its dry run said none), so its quantity cannot be checked';
  if (b.kind !== 'bracket') {
    const o = (b.order ?? {}) as Fields;
    return [one(o, o.exch, o.d, "the plan's order")];
  }
  const entry = (b.entry ?? {}) as Fields;
  const exit = (name: 'target' | 'stopLoss') => {
    const e = (b[name] ?? {}) as Fields;
    return one({ qty: entry.qty, prc: e.price }, entry.exch, e.trigger, `the plan's ${name}`);
  };
  return [one(entry, entry.exch, entry.d, "the plan's order"), exit('target'), exit('stopLoss')];
};

type OrdersOf = (request: GatewayRequest, current: GttOrder | undefined, picked?: PickedNow) => NamedOrder[] | string;
const NONE: OrdersOf = () => [];

/**
 * The order(s) each write operation leaves at the broker, as the limits read them (or why they cannot be known).
 * NONE: the operation places or raises no order (a cancel, the kill switch).
 */
export const LIMITED_WRITES: Readonly<Record<string, OrdersOf>> = {
  PlaceGTTOrder: (r) => single(r.body ?? {}),
  ModifyGTTOrder: (r) => single(r.body ?? {}),
  PatchGTTOrder: afterChange,
  PlaceOCOOrder: (r) => legs(r.body ?? {}),
  ModifyOCOOrder: (r) => legs(r.body ?? {}),
  PatchOCOOrder: afterChange,
  CreatePlan: (r, _current, picked) => planOrders(r.body ?? {}, picked),
  CancelGTTOrder: NONE,
  CancelPlan: NONE,
  ReleaseKillSwitch: NONE,
  ActivateKillSwitch: NONE,
  // Settings, not orders (mcp/settings.ts): a square-off or an autoCover OCO only closes or covers a position held.
  SetRiskLimits: NONE,
  PutCoverageSettings: NONE,
  // A close only reduces a position held, by at most its quantity (functions/risk/close.ts checks it at the gateway).
  ClosePosition: NONE,
};

/**
 * An option entry's request held to the assistant's maxValuePerOrder at the crossing too: its body's maxValue is that
 * limit (or the lower one asked), so the gateway sends nothing when the entry is then worth more (its premium is known
 * only when the index crosses). Any other request, or an assistant without the limit, is answered as it is.
 */
export const withValueCap = (request: GatewayRequest, limits: AssistantLimits = {}): GatewayRequest => {
  const most = limits.maxValuePerOrder;
  const body = request.body;
  if (most === undefined || request.operation !== 'CreatePlan' || body?.kind !== 'option-entry') return request;
  const asked = typeof body.maxValue === 'number' ? body.maxValue : most;
  return { ...request, body: { ...body, maxValue: Math.min(asked, most) } };
};

/** The operations that change a pending order in place: their preview reads it first. */
export const PATCH_OPERATIONS: readonly string[] = ['PatchGTTOrder', 'PatchOCOOrder'];

/** The operations that place a new order (a plan places its entry): each counts once against the orders per day. */
export const PLACING_OPERATIONS: readonly string[] = ['PlaceGTTOrder', 'PlaceOCOOrder', 'CreatePlan'];

/** Whether an operation writes (anything but a GET): every one must have a case in LIMITED_WRITES. */
export const isWrite = (operation: string): boolean =>
  (OPERATION_INFO as Record<string, { method: string } | undefined>)[operation]?.method !== 'GET';

/** The assistant's limits as the preview says it checked them, one line each. */
const limitLines = (limits: AssistantLimits, counted: boolean, ordersToday: number): string[] => [
  ...(limits.exchanges ? [`exchange among ${limits.exchanges.join(', ')}`] : []),
  ...(limits.maxQtyPerOrder !== undefined ? [`quantity at most ${limits.maxQtyPerOrder} per order`] : []),
  ...(limits.maxValuePerOrder !== undefined ? [`value at most ${limits.maxValuePerOrder} per order`] : []),
  ...(counted && limits.maxOrdersPerDay !== undefined
    ? [`orders today: ${ordersToday} of at most ${limits.maxOrdersPerDay}`]
    : []),
];

/**
 * The limits checked and the first order (or OCO leg) over one, if any, in the registry's words. `ordersToday`: the
 * assistant's day counter where the server keeps one (the remote server; 0 over stdio); only a request that places
 * a new order is held to the orders per day. `current`: the pending order a change (PATCH) applies to, as read for
 * its preview; a change is checked as the order after it. `picked`: an option plan's contract, from its dry run. A
 * write operation with no case is refused.
 */
export const checkLimits = (
  request: GatewayRequest,
  limits: AssistantLimits = {},
  ordersToday = 0,
  current?: GttOrder,
  picked?: PickedNow,
): { checked: string[]; refused?: string } => {
  const ordersOf = LIMITED_WRITES[request.operation];
  if (!ordersOf) {
    if (!isWrite(request.operation)) return { checked: [] };
    return {
      checked: [],
      refused: `${request.operation} has no check of this assistant's limits in this server, so it is refused; nothing was sent.`,
    };
  }
  const orders = ordersOf(request, current, picked);
  if (typeof orders === 'string') return { checked: [], refused: `${orders}; nothing was sent.` };
  if (orders.length === 0) return { checked: [] };
  const counted = PLACING_OPERATIONS.includes(request.operation);
  const checked = limitLines(limits, counted, ordersToday);
  for (const { what, ...order } of orders) {
    const reason = overLimits(limits, order, counted ? ordersToday : 0);
    if (reason) return { checked, refused: `${what}${current ? ' after the change' : ''}: ${reason}` };
  }
  return { checked };
};

/**
 * For a change (PATCH): the pending order read at the broker and the request bound to its version (`If-Match`), so
 * what the confirm changes is the order the limits checked. Any other request is answered as it is.
 */
export const boundToCurrent = async (
  port: GatewayPort,
  request: GatewayRequest,
): Promise<{ request: GatewayRequest; current?: GttOrder }> => {
  const alId = request.path?.alId;
  if (!PATCH_OPERATIONS.includes(request.operation) || alId === undefined) return { request };
  const current = (await port.call({ operation: 'GetGTTOrder', path: { alId }, query: { fresh: true } })) as GttOrder;
  return { request: { ...request, ifMatch: `"${orderVersion(current)}"` }, current };
};
