/**
 * The GTT operations proper: place, modify and cancel single GTTs and OCOs, list the pending and the triggered ones,
 * and fire them when a last traded price meets their trigger. Each takes the checked session's account.
 */
import { EMULATOR_ALERT_TYPES } from '../state/alert-rules.js';
import { compactRequestTime, requestTime } from '../state/formats.js';
import { checkOco, ocoDirections, ocoFiringLeg } from '../state/oco.js';
import { checkGtt, gttFires, type Json, OCO_ALERT_TYPE, Refusal, requireAlId, requireString } from '../state/orders.js';
import { type Account, type GttOrder, type LegName, ltpKey, type OcoOrder, type Order } from '../state/state.js';
import type { OperationContext } from '../state/switches.js';
import { tradingRefusal } from '../state/symbols.js';
import { extendWeek52, withWeek52 } from '../state/week52.js';
import { pendingRecord, triggeredRecord } from '../wire/records.js';
import { type EmulatorReply, json, notOk } from '../wire/reply.js';
import type { EmulatorRequest } from '../wire/routing.js';

/** One order fired by a last traded price. */
export interface FiredOrder {
  al_id: string;
  kind: Order['kind'];
  leg: LegName;
  d: string;
  /** The order it placed in the order book, and that order's status. */
  norenordno: string;
  status: string;
}

const ordersOf = (ctx: OperationContext, uid: string, state: Order['state']): Order[] =>
  [...ctx.state.orders.values()].filter((o) => o.uid === uid && o.state === state);

/** A list reply: the records, or `no data` (an object, or `[]` with the switch) when there are none. */
const list = (ctx: OperationContext, orders: Order[], record: (o: Order) => unknown): EmulatorReply => {
  if (orders.length === 0 && !ctx.switches.emptyListAsArray) return notOk('no data');
  return json(200, orders.map(record));
};

const entryFacts = (ctx: OperationContext, req: EmulatorRequest) => ({
  ipaddr: req.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
  norentm: requestTime(ctx.now()),
});

/** The checked order, if its exchange lists its symbol (or any symbol is taken); the broker's refusal otherwise. */
const listed = <T extends { exch: string; tsym: string }>(ctx: OperationContext, checked: T): T => {
  const refused = tradingRefusal(checked.exch, checked.tsym, ctx.now(), ctx.switches.acceptAnySymbol);
  if (refused !== undefined) throw new Refusal(refused);
  return checked;
};

/** A pending order of this account (of the given kind), or undefined: unknown, gone or someone else's. */
const pendingOf = (ctx: OperationContext, uid: string, alId: string, kind?: Order['kind']): Order | undefined => {
  const order = ctx.state.orders.get(alId);
  return order && order.uid === uid && order.state === 'pending' && (kind === undefined || order.kind === kind)
    ? order
    : undefined;
};

const invalidOi = (ctx: OperationContext, alId: string): EmulatorReply =>
  json(200, { request_time: requestTime(ctx.now()), stat: 'Invalid Oi', al_id: alId });

export const getPendingGtts = (ctx: OperationContext, account: Account): EmulatorReply =>
  list(ctx, ordersOf(ctx, account.uid, 'pending'), pendingRecord);

/** GetEnabledGTTs: every alert type the emulator fires (alert-rules.ts), then the OCO's. */
export const getEnabledGtts = (ctx: OperationContext): EmulatorReply =>
  json(200, {
    stat: 'Ok',
    request_time: compactRequestTime(ctx.now()),
    ai_ts: [...EMULATOR_ALERT_TYPES, OCO_ALERT_TYPE].map((ai_t) => ({ ai_t })),
  });

/** GetTrgOi: the fired orders, in the order they fired. */
export const getTriggered = (ctx: OperationContext, fields: Json, account: Account): EmulatorReply => {
  requireString(fields, 'actid');
  if (fields.actid !== account.actid) throw new Refusal('Invalid Account Id');
  const fired = ordersOf(ctx, account.uid, 'triggered').sort((a, b) => a.trigger!.seq - b.trigger!.seq);
  return list(ctx, fired, triggeredRecord);
};

export const placeGtt = (
  ctx: OperationContext,
  fields: Json,
  account: Account,
  req: EmulatorRequest,
): EmulatorReply => {
  return created(ctx, { kind: 'gtt', ...listed(ctx, checkGtt(fields, account)), ...pendingFacts(ctx, account, req) });
};

export const placeOco = (
  ctx: OperationContext,
  fields: Json,
  account: Account,
  req: EmulatorRequest,
): EmulatorReply => {
  const checked = listed(ctx, checkOco(fields, account));
  const order: OcoOrder = {
    kind: 'oco',
    ...checked,
    ...ocoDirections(checked.x, checked.y, ctx.state.ltps.get(ltpKey(checked.exch, checked.tsym))),
    ...pendingFacts(ctx, account, req),
  };
  return created(ctx, order);
};

/** A new order's number, owner, state and entry facts. */
const pendingFacts = (ctx: OperationContext, account: Account, req: EmulatorRequest) => ({
  al_id: ctx.state.newAlId(),
  uid: account.uid,
  state: 'pending' as const,
  ...entryFacts(ctx, req),
});

/** Keeps a new order and answers as the broker does: `OI created` with its number. */
const created = (ctx: OperationContext, order: GttOrder | OcoOrder): EmulatorReply => {
  ctx.state.orders.set(order.al_id, order);
  return json(200, { request_time: requestTime(ctx.now()), stat: 'OI created', al_id: order.al_id });
};

/**
 * Many single GTTs of one account at once, as if each had been placed (`POST /_emulator/seed-gtts`, for benchmarks
 * that need a long pending list fast): the fields are checked once, as PlaceGTTOrder checks them, and `qty` goes
 * round from 1 to 50 so the records differ. Answers the new al_ids' first and last.
 */
export const seedGtts = (ctx: OperationContext, account: Account, fields: Json, count: number) => {
  const checked = listed(ctx, checkGtt(fields, account));
  const facts = { ipaddr: '127.0.0.1', norentm: requestTime(ctx.now()) };
  let first = '';
  let last = '';
  for (let i = 0; i < count; i++) {
    const order: GttOrder = {
      kind: 'gtt',
      ...checked,
      qty: 1 + (i % 50),
      al_id: ctx.state.newAlId(),
      uid: account.uid,
      state: 'pending',
      ...facts,
    };
    ctx.state.orders.set(order.al_id, order);
    first ||= order.al_id;
    last = order.al_id;
  }
  return { first, last };
};

export const modifyGtt = (
  ctx: OperationContext,
  fields: Json,
  account: Account,
  req: EmulatorRequest,
): EmulatorReply => {
  const alId = requireAlId(fields);
  const changes = listed(ctx, checkGtt(fields, account));
  const existing = pendingOf(ctx, account.uid, alId, 'gtt');
  if (!existing) return invalidOi(ctx, alId);
  return replaced(ctx, { ...(existing as GttOrder), ...changes, ...entryFacts(ctx, req) });
};

/** A full replacement: both legs and both triggers; the legs' directions are decided again from today's price. */
export const modifyOco = (
  ctx: OperationContext,
  fields: Json,
  account: Account,
  req: EmulatorRequest,
): EmulatorReply => {
  const alId = requireAlId(fields);
  const checked = listed(ctx, checkOco(fields, account));
  const existing = pendingOf(ctx, account.uid, alId, 'oco');
  if (!existing) return invalidOi(ctx, alId);
  return replaced(ctx, {
    ...(existing as OcoOrder),
    ...checked,
    ...ocoDirections(checked.x, checked.y, ctx.state.ltps.get(ltpKey(checked.exch, checked.tsym))),
    ...entryFacts(ctx, req),
  });
};

/** Keeps an order's replacement under its number and answers as the broker does: `OI replaced`. */
const replaced = (ctx: OperationContext, order: GttOrder | OcoOrder): EmulatorReply => {
  ctx.state.orders.set(order.al_id, order);
  return json(200, { request_time: requestTime(ctx.now()), stat: 'OI replaced', al_id: order.al_id });
};

/** CancelGTTOrder and CancelOCOOrder: either cancels a pending order of either kind. */
export const cancel = (ctx: OperationContext, fields: Json, account: Account): EmulatorReply => {
  const alId = requireAlId(fields);
  const existing = pendingOf(ctx, account.uid, alId);
  if (!existing) return invalidOi(ctx, alId);
  existing.state = 'cancelled';
  return json(200, { request_time: requestTime(ctx.now()), stat: 'OI deleted', al_id: alId });
};

/** Set the last traded price of a symbol: pending GTTs whose trigger it meets fire (an OCO fires one leg only). */
export const fireAtPrice = (ctx: OperationContext, exch: string, tsym: string, ltp: number): FiredOrder[] => {
  const key = ltpKey(exch, tsym);
  const previous = ctx.state.ltps.get(key);
  ctx.state.ltps.set(key, ltp);
  // The 52-week range as it stood before this price (seeded from the first price), moved by it after the alerts.
  const figures = withWeek52(ctx.state.figures.get(key), exch, tsym, previous ?? ltp);
  ctx.state.figures.set(key, { ...figures, ...extendWeek52(figures, ltp) });
  const market = { ltp, close: ctx.state.closes.get(key), figures };
  const fired: FiredOrder[] = [];
  for (const order of ctx.state.orders.values()) {
    if (order.state !== 'pending' || order.exch !== exch || order.tsym !== tsym) continue;
    const leg = order.kind === 'oco' ? ocoFiringLeg(order, ltp, previous) : gttFires(order, market) ? 'x' : undefined;
    if (!leg) continue;
    const d = order.kind === 'oco' ? order[leg] : order.d;
    order.state = 'triggered';
    order.trigger = { at: requestTime(ctx.now()), seq: ctx.state.nextTriggerSeq(), leg, d, ltp: String(ltp) };
    const placed = ctx.book.placeFired(order, leg, ltp, ctx.now(), ctx.state.closes.get(key));
    fired.push({
      al_id: order.al_id,
      kind: order.kind,
      leg,
      d,
      norenordno: placed.norenordno,
      status: placed.history[0]!.status,
    });
  }
  return fired;
};
