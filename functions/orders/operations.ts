/**
 * The operation table's entries: one `defineOperation` per broker operation. Each is one function's definition
 * (definitions.ts), which the function manifest lists with every other function; the handlers, the CDK functions and routes, the
 * local runner, the OpenAPI document and the Step Functions names come from there (docs/architecture.md).
 */
import { quoteJData, quoteResultOf } from '../base/broker/market.js';
import { compareOcoLegs } from '../base/broker/oco-legs.js';
import { normaliseBookOrder } from '../base/broker/order-fate.js';
import { modifyJData, modifyOcoJData, ocoJData, placeJData } from '../base/broker/order-jdata.js';
import {
  EMPTY_LIST,
  matchesFilters,
  normaliseOrder,
  triggeredOrderOf,
  withOrderFates,
} from '../base/broker/order-records.js';
import { changedFields, orderVersion } from '../base/broker/order-version.js';
import { mergePatch, modifyInputOfRecord } from '../base/broker/patch-merge.js';
import { OrderNotFoundError } from '../base/contract/errors.js';
import { defineOperation, type OperationDefinition } from '../base/contract/operation.js';
import { EXAMPLE_AL_ID, EXAMPLE_OCO, EXAMPLE_ORDER } from '../base/schemas/examples.js';
import {
  cancelOrderInput,
  getOrderInput,
  listOrdersInput,
  type ModifyOcoInput,
  modifyOcoInput,
  type ModifyOrderInput,
  modifyOrderInput,
  noInput,
  patchOcoInput,
  patchOrderInput,
  placeOcoInput,
  placeOrderInput,
  quoteInput,
  triggeredInput,
} from '../base/schemas/input.js';
import { pageOf } from '../base/schemas/paging.js';
import {
  cancelReply,
  clientDetailsReply,
  enabledReply,
  type GttOrder,
  gttOrderRead,
  logoutReply,
  modifyOcoReply,
  modifyReply,
  orderBookReply,
  orderBookResult,
  pendingReply,
  pendingResult,
  placeOcoReply,
  placeReply,
  quoteReply,
  quoteResult,
  triggeredReply,
  type TriggeredResult,
  triggeredResult,
} from '../base/schemas/reply.js';
import { viewOfOcoInput, viewOfOrderInput } from '../events/core/views.js';
import { ocoLegs, priceOcoLegs, priceOrder } from './safety/order-legs.js';

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
  query: ['fresh'],
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  input: getOrderInput,
  example: { al_id: EXAMPLE_AL_ID },
  reply: pendingReply,
  toResult: (orders, input): GttOrder & { source: 'broker' | 'watcher'; asOf?: string } => {
    const order = orders.find((o) => o.al_id === input.al_id);
    if (!order)
      throw new OrderNotFoundError(
        `No pending GTT order has al_id ${input.al_id} (it may have fired or been cancelled).`,
      );
    return { ...normaliseOrder(order), source: 'broker' };
  },
  result: gttOrderRead,
  emptyReply: EMPTY_LIST,
  etag: (order) => orderVersion(order),
  // The broker has no one-order read: the watcher's copy while fresh, else the whole list (gateway/order-copy.ts).
  fromCopy: true,
  // Only the asked order's records are decoded of the whole list (base/broker/one-record.ts).
  oneRecord: (input) => input.al_id,
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
  toResult: (records, input): TriggeredResult => pageOf(records.map(triggeredOrderOf), 'triggered', input),
  result: triggeredResult,
  emptyReply: EMPTY_LIST,
  // The order each fired GTT placed, from the day's order book (functions/base/broker/order-fate.ts).
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

const asEntry = (op: unknown) => op as OperationDefinition<unknown, unknown, unknown>;

/** What a PATCH entry's `patch` needs of the one-order read: the read, the merge and the version. */
const patchOf = <In>(full: OperationDefinition<In, unknown, unknown>['input'], kind: 'single' | 'oco') => ({
  read: getGttOrder as OperationDefinition<unknown, unknown, unknown>,
  merge: (record: unknown, changes: Record<string, unknown>) =>
    mergePatch(modifyInputOfRecord(record as GttOrder), changes),
  full,
  version: (record: unknown) => orderVersion(record as GttOrder),
  changed: (version: string, record: unknown) => changedFields(version, record as GttOrder),
  otherKind: (record: unknown) => otherKindOf(record as GttOrder, kind),
});

/** Why a PATCH of one kind cannot change an order of the other, and where to send it instead. */
const otherKindOf = (order: GttOrder, kind: 'single' | 'oco'): string | undefined => {
  if ((order.type === 'oco') === (kind === 'oco')) return undefined;
  return order.type === 'oco'
    ? `GTT order ${order.al_id} is an OCO order (a target and a stop-loss leg): change it with PATCH /gtt-orders/oco/${order.al_id}, e.g. {"stopLoss": {"trigger": "1410"}}`
    : `GTT order ${order.al_id} is a single GTT order, not an OCO: change it with PATCH /gtt-orders/${order.al_id}, e.g. {"d": "1495"}`;
};

export const patchGttOrder = defineOperation({
  name: 'PatchGTTOrder',
  broker: 'ModifyGTTOrder',
  id: 'patch-gtt-order',
  summary: 'Change some fields of a pending GTT order (the others kept as the broker holds them; If-Match: its ETag)',
  route: { method: 'PATCH', path: '/gtt-orders/{alId}' },
  pathParams: { alId: 'al_id' },
  successStatus: 200,
  kind: 'order',
  retrySafe: false,
  idempotency: 'optional',
  refusedWhileHalted: true,
  priceOrders: priceOrder,
  guardedOrders: (input) => [input],
  // The caller's changes; every step after the merge sees the full order (`patch.full`).
  input: patchOrderInput as unknown as typeof modifyOrderInput,
  patch: patchOf<ModifyOrderInput>(modifyOrderInput, 'single'),
  example: { al_id: EXAMPLE_AL_ID, d: '1495' },
  toJData: modifyJData,
  reply: modifyReply,
  lifecycle: { detailType: 'GTT Modified', order: (input, alId) => viewOfOrderInput(alId, input) },
});

export const patchOcoOrder = defineOperation({
  name: 'PatchOCOOrder',
  broker: 'ModifyOCOOrder',
  id: 'patch-oco-order',
  summary: 'Change some fields of a pending OCO order (either leg; the rest kept; If-Match: its ETag)',
  route: { method: 'PATCH', path: '/gtt-orders/oco/{alId}' },
  pathParams: { alId: 'al_id' },
  successStatus: 200,
  kind: 'order',
  retrySafe: false,
  idempotency: 'optional',
  refusedWhileHalted: true,
  priceOrders: priceOcoLegs,
  guardedOrders: ocoLegs,
  // The caller's changes; every step after the merge sees the full OCO (`patch.full`).
  input: patchOcoInput as unknown as typeof modifyOcoInput,
  patch: patchOf<ModifyOcoInput>(modifyOcoInput, 'oco'),
  example: { al_id: EXAMPLE_AL_ID, stopLoss: { trigger: '1410' } },
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
  // Its legs read back once placed; held otherwise than asked, cancelled at once (gateway/oco-readback.ts).
  readBack: { read: asEntry(getGttOrder), cancel: asEntry(cancelGttOrder), compare: compareOcoLegs },
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

export const getQuote = defineOperation({
  name: 'GetQuote',
  broker: 'GetQuotes',
  id: 'get-quote',
  summary: "An instrument's last traded price, today's price band, and its tick and lot",
  route: { method: 'GET', path: '/quotes' },
  query: ['exch', 'tsym'],
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  input: quoteInput,
  example: { exch: 'NSE', tsym: EXAMPLE_ORDER.tsym },
  // The broker quotes by instrument token: today's rules give it (and the tick, lot and band the caller reads).
  instrument: { of: (input) => input, withRules: (input, rules) => ({ ...input, rules }) },
  toJData: quoteJData,
  reply: quoteReply,
  toResult: (reply, input) => quoteResultOf(reply, input),
  result: quoteResult,
  // `no data`: the broker has no quote for the instrument today; its rules are still answered.
  emptyReply: { emsg: 'no data', reply: { stat: 'Ok' } },
});

/** GET /quotes/series, in a file of its own (series-operation.ts). */
export { getSeries } from './series-operation.js';

/** GET /positions, in a file of its own (positions-operation.ts). */
export { getPositions } from './positions-operation.js';
