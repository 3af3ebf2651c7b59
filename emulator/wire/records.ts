/** The wire shapes of order records: GetPendingGTTOrder elements and GetTrgOi elements, single GTT and OCO alike. */
import { instrumentToken } from '../state/formats.js';
import { DEMO_BROKER, type GttOrder, type OcoOrder, type Order, type OrderLeg } from '../state/state.js';
import { rulesFields } from '../state/symbols.js';

const PRODUCT_ALIAS: Record<string, string> = { C: 'CNC', M: 'NRML', H: 'CO' };

const common = (o: Order, stat: string) => ({
  stat,
  ai_t: o.ai_t,
  al_id: o.al_id,
  tsym: o.tsym,
  exch: o.exch,
  token: instrumentToken(o.exch, o.tsym),
  remarks: o.remarks,
  validity: o.validity,
  norentm: o.norentm,
  ...rulesFields(o.exch, o.tsym),
  brkname: DEMO_BROKER,
  actid: o.actid,
});

const gttRecord = (o: GttOrder, stat: string) => ({
  ...common(o, stat),
  trantype: o.trantype,
  prctyp: o.prctyp,
  qty: o.qty,
  prc: o.prc,
  C: 'C',
  prd: o.prd,
  ordersource: o.ordersource,
  d: o.d,
  place_order_params: {
    actid: o.actid,
    trantype: o.trantype,
    prctyp: o.prctyp,
    qty: o.qty,
    prc: o.prc,
    C: 'C',
    s_prdt_ali: PRODUCT_ALIAS[o.prd] ?? o.prd,
    prd: o.prd,
    ordersource: o.ordersource,
    ipaddr: o.ipaddr,
  },
  oivariable: [{ var_name: 'x', d: o.d }],
});

const legRecord = (leg: OrderLeg, ipaddr: string) => ({
  actid: leg.actid,
  trantype: leg.trantype,
  prctyp: leg.prctyp,
  qty: leg.qty,
  prc: leg.prc,
  C: 'C',
  s_prdt_ali: PRODUCT_ALIAS[leg.prd] ?? leg.prd,
  prd: leg.prd,
  ordersource: leg.ordersource,
  ipaddr,
  trgprc: leg.trgprc,
});

/** Top-level order fields mirror leg 1; `d` is empty (the triggers are in `oivariable`). */
const ocoRecord = (o: OcoOrder, stat: string) => ({
  ...common(o, stat),
  trantype: o.legs.x.trantype,
  prctyp: o.legs.x.prctyp,
  qty: o.legs.x.qty,
  prc: o.legs.x.prc,
  C: 'C',
  prd: o.legs.x.prd,
  ordersource: o.ordersource,
  d: '',
  place_order_params: legRecord(o.legs.x, o.ipaddr),
  place_order_params_leg2: legRecord(o.legs.y, o.ipaddr),
  oivariable: [
    { var_name: 'x', d: o.x },
    { var_name: 'y', d: o.y },
  ],
});

/** An element of GetPendingGTTOrder. */
export const pendingRecord = (o: Order) => (o.kind === 'oco' ? ocoRecord(o, 'Ok') : gttRecord(o, 'Ok'));

/**
 * An element of GetTrgOi: the pending shape with `stat` = `TRIGGERED`, `norentm` = the trigger time, and our own
 * `trg_leg` (which `oivariable` entry fired: `x` or `y`), `trg_d` (its trigger value) and `trg_ltp` (the price that
 * crossed it). Both legs of an OCO stay in the record.
 */
export const triggeredRecord = (o: Order) => {
  const trigger = o.trigger!;
  const record = o.kind === 'oco' ? ocoRecord(o, 'TRIGGERED') : gttRecord(o, 'TRIGGERED');
  return { ...record, norentm: trigger.at, trg_leg: trigger.leg, trg_d: trigger.d, trg_ltp: trigger.ltp };
};
