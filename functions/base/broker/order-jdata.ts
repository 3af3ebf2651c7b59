/**
 * The jData of the order operations (PlaceGTTOrder, ModifyGTTOrder, PlaceOCOOrder, ModifyOCOOrder): validated input
 * and the deployment's session in the fields and order the broker documents (docs/explanation/broker-wire.md).
 */
import type { WireSettings } from '../contract/operation.js';
import type { ModifyOcoInput, ModifyOrderInput, PlaceOcoInput, PlaceOrderInput } from '../schemas/input.js';
import type { PlainOrderInput } from '../schemas/plain-order.js';
import type { BrokerSession } from '../schemas/session.js';
import { encodeSymbol, type JData } from './jdata.js';
import { stampedRemarks } from './order-stamps.js';

/** `algo_id` when the deployment sets an exchange algo id (`algoId`); nothing otherwise. */
const algoIdField = (wire: WireSettings | undefined): { algo_id?: string } =>
  wire?.algoId ? { algo_id: wire.algoId } : {};

/** The remarks sent: the caller's tag, and the journaled write's stamp after it when there is room. */
const remarksOf = (tag: string | undefined, wire: WireSettings | undefined): { remarks?: string } => {
  const remarks = wire?.stamp ? (stampedRemarks(tag, wire.stamp) ?? tag) : tag;
  return remarks === undefined ? {} : { remarks };
};

/** The order fields of place and modify, each from validated input or the deployment's session. */
export const orderFields = (order: PlaceOrderInput, session: BrokerSession, wire?: WireSettings) => ({
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
  ...remarksOf(order.tag, wire),
});

/** PlaceGTTOrder fields in the order the broker documents them (docs/explanation/broker-wire.md). */
export const placeJData = (order: PlaceOrderInput, session: BrokerSession, wire?: WireSettings): JData => ({
  ...orderFields(order, session, wire),
  ...algoIdField(wire),
});

/** ModifyGTTOrder fields in the broker's documented order: the same fields plus `al_id`, rebuilt from a fully typed object (no `!`). */
export const modifyJData = (order: ModifyOrderInput, session: BrokerSession, wire?: WireSettings): JData => {
  const f = orderFields(order, session, wire);
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
 * `place_order_params_leg2` (the stop-loss leg); the alert type is fixed at `LMT_BOS_O` (docs/explanation/broker-wire.md).
 */
export const ocoJData = (oco: PlaceOcoInput, session: BrokerSession, wire?: WireSettings): JData => {
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
    ...remarksOf(oco.tag, wire),
    actid: session.actid,
  };
};

/** ModifyOCOOrder: the OCO's fields plus the `al_id` it replaces. */
export const modifyOcoJData = (oco: ModifyOcoInput, session: BrokerSession, wire?: WireSettings): JData => ({
  ...ocoJData(oco, session, wire),
  al_id: oco.al_id,
});

/**
 * PlaceOrder (a regular order, not a GTT) in the fields and order NorenRestApiPy's `place_order` sends them
 * (docs/explanation/broker-wire.md, "PlaceOrder"): no `trgprc` (a limit order has none; that client sends the text
 * `None`) and no `amo`; `dscqty` 0 (nothing disclosed).
 */
export const plainOrderJData = (order: PlainOrderInput, session: BrokerSession, wire?: WireSettings): JData => ({
  ordersource: 'API',
  uid: session.uid,
  actid: session.actid,
  trantype: order.trantype,
  prd: order.prd,
  exch: order.exch,
  tsym: encodeSymbol(order.tsym),
  qty: order.qty,
  dscqty: '0',
  prctyp: order.prctyp,
  prc: order.prc,
  ret: order.ret,
  ...remarksOf(order.tag, wire),
  ...algoIdField(wire),
});
