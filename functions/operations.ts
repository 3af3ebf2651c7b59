/**
 * The operation table: the single source for the handlers, the CDK routes and functions, the local runner, the
 * OpenAPI document and the Step Functions names. A new operation is one more entry here plus a one-line entry
 * file in handlers/ (docs/architecture.md).
 */
import { encodeSymbol, type JData } from './broker/jdata.js';
import { type FiredGtt, matchFiredOrders, normaliseBookOrder } from './broker/order-fate.js';
import { OrderNotFoundError } from './contract/errors.js';
import {
  type AnyOperation,
  defineOperation,
  type GuardedOrder,
  type OperationDefinition,
  type PricedLeg,
  type WireSettings,
} from './contract/operation.js';
import { viewOfOcoInput, viewOfOrderInput } from './events/views.js';
import {
  cancelOrderInput,
  getOrderInput,
  type ListOrdersInput,
  listOrdersInput,
  type ModifyOcoInput,
  modifyOcoInput,
  type ModifyOrderInput,
  modifyOrderInput,
  noInput,
  type PlaceOcoInput,
  placeOcoInput,
  type PlaceOrderInput,
  placeOrderInput,
  triggeredInput,
} from './schemas/input.js';
import { pageOf } from './schemas/paging.js';
import {
  type BookOrder,
  cancelReply,
  clientDetailsReply,
  enabledReply,
  type GttOrder,
  gttOrder,
  logoutReply,
  modifyOcoReply,
  modifyReply,
  orderBookReply,
  orderBookResult,
  type PendingOrderRecord,
  pendingReply,
  pendingResult,
  placeOcoReply,
  placeReply,
  triggeredReply,
  type TriggeredResult,
  triggeredResult,
} from './schemas/reply.js';
import type { BrokerSession } from './schemas/session.js';
import { isRecord } from './schemas/values.js';

/** `algo_id` when the deployment sets an exchange algo id (ALGO_ID); nothing otherwise. */
const algoIdField = (wire: WireSettings | undefined): { algo_id?: string } =>
  wire?.algoId ? { algo_id: wire.algoId } : {};

/** The order fields of place and modify, each from validated input or the deployment's session. */
const orderFields = (order: PlaceOrderInput, session: BrokerSession) => ({
  uid: session.uid,
  actid: session.actid,
  exch: order.exch,
  tsym: encodeSymbol(order.tsym),
  qty: order.qty,
  prc: order.prc,
  prd: order.prd,
  trantype: order.trantype,
  prctyp: order.prctyp,
  ret: order.ret,
  ai_t: order.ai_t,
  validity: order.validity,
  d: order.d,
  ...(order.tag === undefined ? {} : { remarks: order.tag }),
});

/** PlaceGTTOrder fields in the order the broker documents them (docs/broker-wire.md). */
const placeJData = (order: PlaceOrderInput, session: BrokerSession, wire?: WireSettings): JData => ({
  ...orderFields(order, session),
  ...algoIdField(wire),
});

/** ModifyGTTOrder fields in the broker's documented order: the same fields plus `al_id`, rebuilt from a fully typed object (no `!`). */
const modifyJData = (order: ModifyOrderInput, session: BrokerSession, wire?: WireSettings): JData => {
  const f = orderFields(order, session);
  return {
    uid: f.uid,
    actid: f.actid,
    exch: f.exch,
    tsym: f.tsym,
    al_id: order.al_id,
    ai_t: f.ai_t,
    validity: f.validity,
    d: f.d,
    trantype: f.trantype,
    prctyp: f.prctyp,
    prd: f.prd,
    ret: f.ret,
    qty: f.qty,
    prc: f.prc,
    ...(f.remarks === undefined ? {} : { remarks: f.remarks }),
    ...algoIdField(wire),
  };
};

/**
 * An OCO on the wire: `oivariable` x pairs with `place_order_params` (the target leg), y with
 * `place_order_params_leg2` (the stop-loss leg); the alert type is fixed at `LMT_BOS_O` (docs/broker-wire.md).
 */
const ocoJData = (oco: PlaceOcoInput, session: BrokerSession, wire?: WireSettings): JData => {
  const tsym = encodeSymbol(oco.tsym);
  const leg = (l: PlaceOcoInput['target']): JData => ({
    tsym,
    exch: oco.exch,
    trantype: l.order.trantype,
    prctyp: l.order.prctyp,
    prd: l.order.prd,
    ret: l.order.ret,
    actid: session.actid,
    uid: session.uid,
    ordersource: 'API',
    qty: l.order.qty,
    prc: l.order.prc ?? '0',
    ...(l.order.trgprc === undefined ? {} : { trgprc: l.order.trgprc }),
    // Each leg is the order the broker places when its trigger is crossed: the algo id goes with it.
    ...algoIdField(wire),
  });
  return {
    uid: session.uid,
    ai_t: 'LMT_BOS_O',
    validity: oco.validity,
    tsym,
    exch: oco.exch,
    oivariable: [
      { d: oco.target.trigger, var_name: 'x' },
      { d: oco.stopLoss.trigger, var_name: 'y' },
    ],
    place_order_params: leg(oco.target),
    place_order_params_leg2: leg(oco.stopLoss),
    ...(oco.tag === undefined ? {} : { remarks: oco.tag }),
    actid: session.actid,
  };
};

const modifyOcoJData = (oco: ModifyOcoInput, session: BrokerSession, wire?: WireSettings): JData => ({
  ...ocoJData(oco, session, wire),
  al_id: oco.al_id,
});

/** Guardrails see each leg of an OCO as one order whose trigger is the leg's. */
const ocoLegs = (oco: PlaceOcoInput): GuardedOrder[] =>
  [oco.target, oco.stopLoss].map((l) => ({
    exch: oco.exch,
    tsym: oco.tsym,
    qty: l.order.qty,
    prc: l.order.prc ?? '0',
    prd: l.order.prd,
    prctyp: l.order.prctyp,
    d: l.trigger,
  }));

type Pricer = (leg: PricedLeg) => { prctyp: string; prc: string };

/** A single order's price type and price through the deployment's rule (the band is around its trigger `d`). */
const priceOrder = <T extends PlaceOrderInput>(order: T, price: Pricer): T => ({
  ...order,
  ...price({
    exch: order.exch,
    tsym: order.tsym,
    trantype: order.trantype,
    prctyp: order.prctyp,
    prc: order.prc,
    reference: order.d,
    path: 'prc',
  }),
});

/** Each OCO leg's: the band is around the leg's own stop trigger (`trgprc`) when it has one, else its trigger. */
const priceOcoLegs = <T extends PlaceOcoInput>(oco: T, price: Pricer): T => {
  const leg = (name: 'target' | 'stopLoss') => {
    const l = oco[name];
    const priced = price({
      exch: oco.exch,
      tsym: oco.tsym,
      trantype: l.order.trantype,
      prctyp: l.order.prctyp,
      prc: l.order.prc ?? '0',
      reference: l.order.trgprc ?? l.trigger,
      path: `${name}.order.prc`,
    });
    return { ...l, order: { ...l.order, ...priced } as typeof l.order };
  };
  return { ...oco, target: leg('target'), stopLoss: leg('stopLoss') };
};

/** The broker's record -> one normalised shape for single and OCO orders. Clients tell an OCO by its second leg. */
const normaliseOrder = <R extends Omit<PendingOrderRecord, 'stat'>>(
  record: R,
): R & Omit<GttOrder, keyof PendingOrderRecord> => {
  const tag = record.remarks ? { tag: record.remarks } : {};
  if (record.place_order_params_leg2) {
    const [x, y] = record.oivariable ?? [];
    return {
      ...record,
      type: 'oco',
      ...tag,
      target: { trigger: x?.d ?? '', order: record.place_order_params ?? {} },
      stopLoss: { trigger: y?.d ?? '', order: record.place_order_params_leg2 },
    };
  }
  return { ...record, type: 'single', ...tag, trigger: record.d };
};

const matchesFilters = (order: { tsym: string; exch: string }, filters: ListOrdersInput): boolean =>
  (filters.tsym === undefined || order.tsym === filters.tsym) &&
  (filters.exch === undefined || order.exch === filters.exch);

/** The table's example inputs (`example`): a buy of one M&M at 1500 when the price falls to 1490, and its OCO exit. */
const EXAMPLE_AL_ID = '26112300000001';
const EXAMPLE_ORDER = {
  exch: 'NSE',
  tsym: 'M&M-EQ',
  qty: 1,
  prc: '1500',
  prd: 'C',
  trantype: 'B',
  prctyp: 'LMT',
  ret: 'DAY',
  ai_t: 'LTP_B_O',
  d: '1490',
};
const EXAMPLE_OCO = {
  exch: 'NSE',
  tsym: 'M&M-EQ',
  target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1600', prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype: 'S', prctyp: 'LMT', qty: 1, prc: '1395', prd: 'C' } },
};

/** The fired GTT's side and quantity are its fired leg's for an OCO. */
const firedOf = (o: TriggeredResult['orders'][number]): FiredGtt => {
  const leg = o.type === 'oco' ? (o.firedLeg === 'stopLoss' ? o.stopLoss : o.target) : undefined;
  return {
    exch: o.exch,
    tsym: o.tsym,
    side: leg?.order.trantype ?? o.trantype,
    qty: leg?.order.qty ?? o.qty,
    ...(o.tag === undefined ? {} : { tag: o.tag }),
    ...(o.triggeredAt === undefined ? {} : { firedAt: o.triggeredAt }),
  };
};

/** Each fired GTT with the order it placed; when the book could not be read, the history says so. */
export const withOrderFates = (result: TriggeredResult, book: unknown): TriggeredResult => {
  const orders = isRecord(book) && Array.isArray(book.orders) ? (book.orders as BookOrder[]) : undefined;
  if (!orders) return { ...result, orderBookUnavailable: true };
  const matches = matchFiredOrders(result.orders.map(firedOf), orders);
  return { ...result, orders: result.orders.map((o, i) => (matches[i] ? { ...o, order: matches[i] } : o)) };
};

/** Brokers of this family answer an empty book with Not_Ok "no data"; to callers it is an empty list. */
const EMPTY_LIST = { emsg: 'no data', reply: [] };

export const placeGttOrder = defineOperation({
  name: 'PlaceGTTOrder',
  broker: 'PlaceGTTOrder',
  id: 'place-gtt-order',
  summary: 'Place a GTT order',
  route: { method: 'POST', path: '/gtt-orders' },
  successStatus: 201,
  kind: 'order',
  retrySafe: false,
  idempotency: 'required',
  refusedWhileHalted: true,
  priceOrders: priceOrder,
  guardedOrders: (input) => [input],
  input: placeOrderInput,
  example: EXAMPLE_ORDER,
  toJData: placeJData,
  reply: placeReply,
  lifecycle: { detailType: 'GTT Placed', order: (input, alId) => viewOfOrderInput(alId, input) },
});

export const placeOcoOrder = defineOperation({
  name: 'PlaceOCOOrder',
  broker: 'PlaceOCOOrder',
  id: 'place-oco-order',
  summary:
    'Place a two-leg OCO GTT order (target and stop-loss: the first trigger crossed fires its leg, the other is dropped)',
  route: { method: 'POST', path: '/gtt-orders/oco' },
  successStatus: 201,
  kind: 'order',
  retrySafe: false,
  idempotency: 'required',
  refusedWhileHalted: true,
  priceOrders: priceOcoLegs,
  guardedOrders: ocoLegs,
  input: placeOcoInput,
  example: EXAMPLE_OCO,
  toJData: ocoJData,
  reply: placeOcoReply,
  lifecycle: { detailType: 'GTT Placed', order: (input, alId) => viewOfOcoInput(alId, input) },
});

export const getPendingGttOrders = defineOperation({
  name: 'GetPendingGTTOrder',
  broker: 'GetPendingGTTOrder',
  id: 'get-pending-gtt-orders',
  summary: 'List pending GTT orders, single and OCO (optionally of one tsym and/or exch)',
  route: { method: 'GET', path: '/gtt-orders' },
  query: ['tsym', 'exch', 'limit', 'cursor'],
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  input: listOrdersInput,
  example: { exch: 'NSE' },
  reply: pendingReply,
  toResult: (orders, input) =>
    pageOf(orders.filter((o) => matchesFilters(o, input)).map(normaliseOrder), 'pending', input),
  result: pendingResult,
  emptyReply: EMPTY_LIST,
});

export const getGttOrder = defineOperation({
  name: 'GetGTTOrder',
  broker: 'GetPendingGTTOrder',
  id: 'get-gtt-order',
  summary: 'One pending GTT order (single or OCO) by its al_id',
  route: { method: 'GET', path: '/gtt-orders/{alId}' },
  pathParams: { alId: 'al_id' },
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  input: getOrderInput,
  example: { al_id: EXAMPLE_AL_ID },
  reply: pendingReply,
  toResult: (orders, input) => {
    const order = orders.find((o) => o.al_id === input.al_id);
    if (!order)
      throw new OrderNotFoundError(
        `No pending GTT order has al_id ${input.al_id} (it may have fired or been cancelled).`,
      );
    return normaliseOrder(order);
  },
  result: gttOrder,
  emptyReply: EMPTY_LIST,
});

export const getOrderBook = defineOperation({
  name: 'GetOrderBook',
  broker: 'OrderBook',
  id: 'get-order-book',
  summary:
    "The day's orders at the broker (those fired GTTs placed too): status, filled quantity, average price, why refused",
  route: { method: 'GET', path: '/orders' },
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  input: noInput,
  example: {},
  reply: orderBookReply,
  toResult: (records) => ({ orders: records.map(normaliseBookOrder) }),
  result: orderBookResult,
  emptyReply: EMPTY_LIST,
});

export const getTriggeredGttOrders = defineOperation({
  name: 'GetTriggeredGTTOrders',
  broker: 'GetTrgOi',
  id: 'get-triggered-gtt-orders',
  summary: 'The GTT orders that fired (single and OCO, with the leg that fired and when)',
  route: { method: 'GET', path: '/gtt-orders/triggered' },
  query: ['limit', 'cursor'],
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  input: triggeredInput,
  example: { limit: 100 },
  toJData: (_input, session) => ({ actid: session.actid }),
  reply: triggeredReply,
  toResult: (records, input): TriggeredResult =>
    pageOf(
      records.map((record) => {
        // Only an OCO has legs: a single order's record may still say `x` (its one trigger).
        const oco = record.place_order_params_leg2 !== undefined;
        const firedLeg = !oco
          ? undefined
          : record.trg_leg === 'x'
            ? 'target'
            : record.trg_leg === 'y'
              ? 'stopLoss'
              : undefined;
        return {
          ...normaliseOrder(record),
          status: record.stat,
          ...(record.norentm ? { triggeredAt: record.norentm } : {}),
          ...(firedLeg ? { firedLeg } : {}),
        } as const;
      }),
      'triggered',
      input,
    ),
  result: triggeredResult,
  emptyReply: EMPTY_LIST,
  // The order each fired GTT placed, from the day's order book (functions/broker/order-fate.ts).
  alsoRead: {
    operation: getOrderBook as OperationDefinition<unknown, unknown, unknown>,
    fold: (result, book) => withOrderFates(result, book),
  },
});

export const getEnabledGtts = defineOperation({
  name: 'GetEnabledGTTs',
  broker: 'GetEnabledGTTs',
  id: 'get-enabled-gtts',
  summary: 'List the GTT trigger types enabled for the account',
  route: { method: 'GET', path: '/gtt-orders/enabled' },
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  input: noInput,
  example: {},
  reply: enabledReply,
});

export const modifyGttOrder = defineOperation({
  name: 'ModifyGTTOrder',
  broker: 'ModifyGTTOrder',
  id: 'modify-gtt-order',
  summary: 'Replace a pending GTT order',
  route: { method: 'PUT', path: '/gtt-orders/{alId}' },
  pathParams: { alId: 'al_id' },
  successStatus: 200,
  kind: 'order',
  retrySafe: false,
  idempotency: 'optional',
  refusedWhileHalted: true,
  priceOrders: priceOrder,
  guardedOrders: (input) => [input],
  input: modifyOrderInput,
  example: { ...EXAMPLE_ORDER, al_id: EXAMPLE_AL_ID, d: '1480' },
  toJData: modifyJData,
  reply: modifyReply,
  lifecycle: { detailType: 'GTT Modified', order: (input, alId) => viewOfOrderInput(alId, input) },
});

export const modifyOcoOrder = defineOperation({
  name: 'ModifyOCOOrder',
  broker: 'ModifyOCOOrder',
  id: 'modify-oco-order',
  summary: 'Replace a pending OCO order (both legs are sent again: a full replacement)',
  route: { method: 'PUT', path: '/gtt-orders/oco/{alId}' },
  pathParams: { alId: 'al_id' },
  successStatus: 200,
  kind: 'order',
  retrySafe: false,
  idempotency: 'optional',
  refusedWhileHalted: true,
  priceOrders: priceOcoLegs,
  guardedOrders: ocoLegs,
  input: modifyOcoInput,
  example: { ...EXAMPLE_OCO, al_id: EXAMPLE_AL_ID },
  toJData: modifyOcoJData,
  reply: modifyOcoReply,
  lifecycle: { detailType: 'GTT Modified', order: (input, alId) => viewOfOcoInput(alId, input) },
});

export const cancelGttOrder = defineOperation({
  name: 'CancelGTTOrder',
  broker: 'CancelGTTOrder',
  id: 'cancel-gtt-order',
  summary: 'Cancel a pending GTT order, single or OCO',
  route: { method: 'DELETE', path: '/gtt-orders/{alId}' },
  pathParams: { alId: 'al_id' },
  successStatus: 200,
  kind: 'order',
  retrySafe: false,
  idempotency: 'optional',
  input: cancelOrderInput,
  example: { al_id: EXAMPLE_AL_ID },
  toJData: (input, session) => ({ uid: session.uid, al_id: input.al_id }),
  reply: cancelReply,
  lifecycle: { detailType: 'GTT Cancelled' },
});

export const clientDetails = defineOperation({
  name: 'ClientDetails',
  broker: 'ClientDetails',
  id: 'client-details',
  summary: "Read the account's client record",
  route: { method: 'GET', path: '/client' },
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  input: noInput,
  example: {},
  toJData: (_input, session) => ({
    uid: session.uid,
    actid: session.actid,
    ...(session.brkname === undefined ? {} : { brkname: session.brkname }),
  }),
  reply: clientDetailsReply,
});

export const logout = defineOperation({
  name: 'Logout',
  broker: 'Logout',
  id: 'logout',
  summary: 'End the broker session (the access token stops working)',
  route: { method: 'POST', path: '/session/logout' },
  successStatus: 200,
  kind: 'session',
  retrySafe: false,
  input: noInput,
  example: {},
  reply: logoutReply,
});

export const OPERATIONS: readonly AnyOperation[] = [
  placeGttOrder,
  placeOcoOrder,
  getPendingGttOrders,
  getGttOrder,
  getTriggeredGttOrders,
  getEnabledGtts,
  modifyGttOrder,
  modifyOcoOrder,
  cancelGttOrder,
  clientDetails,
  logout,
  getOrderBook,
];

export const operationByName = (name: string): AnyOperation | undefined => OPERATIONS.find((op) => op.name === name);
