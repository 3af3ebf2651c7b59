/**
 * The operation table: the single source for the handlers, the CDK routes and functions, the local runner and
 * the OpenAPI document. An eighth operation is one more entry here plus a one-line entry file in handlers/.
 */
import {
  cancelOrderInput,
  modifyOrderInput,
  noInput,
  placeOrderInput,
  type ModifyOrderInput,
  type PlaceOrderInput,
} from './schemas/input.js';
import {
  cancelReply,
  clientDetailsReply,
  enabledReply,
  logoutReply,
  modifyReply,
  pendingReply,
  pendingResult,
  placeReply,
} from './schemas/reply.js';
import { encodeSymbol, type JData } from './broker/jdata.js';
import type { BrokerSession } from './schemas/session.js';
import { defineOperation, type AnyOperation } from './contract/operation.js';

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
});

/** PlaceGTTOrder fields in the order the broker documents them (docs/broker-wire.md). */
const placeJData = (order: PlaceOrderInput, session: BrokerSession): JData => orderFields(order, session);

/** ModifyGTTOrder fields in the broker's documented order: the same fields plus `al_id`, rebuilt from a fully typed object (no `!`). */
const modifyJData = (order: ModifyOrderInput, session: BrokerSession): JData => {
  const f = orderFields(order, session);
  return {
    uid: f.uid, actid: f.actid, exch: f.exch, tsym: f.tsym, al_id: order.al_id, ai_t: f.ai_t, validity: f.validity,
    d: f.d, trantype: f.trantype, prctyp: f.prctyp, prd: f.prd, ret: f.ret, qty: f.qty, prc: f.prc,
  };
};

export const placeGttOrder = defineOperation({
  name: 'PlaceGTTOrder',
  id: 'place-gtt-order',
  summary: 'Place a GTT order',
  route: { method: 'POST', path: '/gtt-orders' },
  successStatus: 201,
  kind: 'order',
  retrySafe: false,
  idempotency: 'required',
  guardrails: true,
  input: placeOrderInput,
  toJData: placeJData,
  reply: placeReply,
  toResult: (reply) => reply,
  result: placeReply,
});

export const getPendingGttOrders = defineOperation({
  name: 'GetPendingGTTOrder',
  id: 'get-pending-gtt-orders',
  summary: 'List pending GTT orders',
  route: { method: 'GET', path: '/gtt-orders' },
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  input: noInput,
  toJData: (_input, session) => ({ uid: session.uid }),
  reply: pendingReply,
  toResult: (orders) => ({ orders }),
  result: pendingResult,
  // Brokers of this family answer an empty book with Not_Ok "no data"; to callers it is an empty list.
  emptyReply: { emsg: 'no data', result: { orders: [] } },
});

export const getEnabledGtts = defineOperation({
  name: 'GetEnabledGTTs',
  id: 'get-enabled-gtts',
  summary: 'List the GTT trigger types enabled for the account',
  route: { method: 'GET', path: '/gtt-orders/enabled' },
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  input: noInput,
  toJData: (_input, session) => ({ uid: session.uid }),
  reply: enabledReply,
  toResult: (reply) => reply,
  result: enabledReply,
});

export const modifyGttOrder = defineOperation({
  name: 'ModifyGTTOrder',
  id: 'modify-gtt-order',
  summary: 'Replace a pending GTT order',
  route: { method: 'PUT', path: '/gtt-orders/{alId}' },
  pathParams: { alId: 'al_id' },
  successStatus: 200,
  kind: 'order',
  retrySafe: false,
  idempotency: 'optional',
  guardrails: true,
  input: modifyOrderInput,
  toJData: modifyJData,
  reply: modifyReply,
  toResult: (reply) => reply,
  result: modifyReply,
});

export const cancelGttOrder = defineOperation({
  name: 'CancelGTTOrder',
  id: 'cancel-gtt-order',
  summary: 'Cancel a pending GTT order',
  route: { method: 'DELETE', path: '/gtt-orders/{alId}' },
  pathParams: { alId: 'al_id' },
  successStatus: 200,
  kind: 'order',
  retrySafe: false,
  idempotency: 'optional',
  input: cancelOrderInput,
  toJData: (input, session) => ({ uid: session.uid, al_id: input.al_id }),
  reply: cancelReply,
  toResult: (reply) => reply,
  result: cancelReply,
});

export const clientDetails = defineOperation({
  name: 'ClientDetails',
  id: 'client-details',
  summary: "Read the account's client record",
  route: { method: 'GET', path: '/client' },
  successStatus: 200,
  kind: 'read',
  retrySafe: true,
  input: noInput,
  toJData: (_input, session) => ({
    uid: session.uid,
    actid: session.actid,
    ...(session.brkname === undefined ? {} : { brkname: session.brkname }),
  }),
  reply: clientDetailsReply,
  toResult: (reply) => reply,
  result: clientDetailsReply,
});

export const logout = defineOperation({
  name: 'Logout',
  id: 'logout',
  summary: 'End the broker session (the access token stops working)',
  route: { method: 'POST', path: '/session/logout' },
  successStatus: 200,
  kind: 'session',
  retrySafe: false,
  input: noInput,
  toJData: (_input, session) => ({ uid: session.uid }),
  reply: logoutReply,
  toResult: (reply) => reply,
  result: logoutReply,
});

export const OPERATIONS: readonly AnyOperation[] = [
  placeGttOrder,
  getPendingGttOrders,
  getEnabledGtts,
  modifyGttOrder,
  cancelGttOrder,
  clientDetails,
  logout,
];

export const operationByName = (name: string): AnyOperation | undefined => OPERATIONS.find((op) => op.name === name);
