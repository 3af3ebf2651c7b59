/**
 * OCO (one-cancels-other) GTTs: checking PlaceOCOOrder / ModifyOCOOrder bodies, deciding each leg's direction, and
 * the rule that fires exactly one leg. See docs/explanation/emulator-extensions.md for the decisions.
 */
import { decodeSymbol } from './formats.js';
import {
  checkExchange,
  checkPrice,
  checkQty,
  checkSymbol,
  checkTrigger,
  ENUMS,
  type Json,
  OCO_ALERT_TYPE,
  OCO_VALIDITIES,
  optionalString,
  Refusal,
  requireOneOf,
  requireString,
} from './orders.js';
import type { Account, LegName, OcoOrder, OrderLeg } from './state.js';

export type OcoFields = Omit<
  OcoOrder,
  'al_id' | 'uid' | 'state' | 'ipaddr' | 'norentm' | 'kind' | 'trigger' | 'xRises' | 'yRises'
>;

const LEG_KEYS = { x: 'place_order_params', y: 'place_order_params_leg2' } as const;
const SL_TYPES = ['SL-LMT', 'SL-MKT'];

const checkLeg = (body: unknown, key: string, account: Account, uid: string, exch: string, tsym: string): OrderLeg => {
  if (body === undefined || body === null) throw new Refusal(`${key} is Missing`);
  if (typeof body !== 'object' || Array.isArray(body)) throw new Refusal(`${key} must be an object`);
  const leg = body as Json;
  const text = (field: string) => requireString(leg, field, `${key}.${field}`);
  for (const field of ['tsym', 'exch', 'trantype', 'prctyp', 'prd', 'ret', 'actid', 'uid', 'ordersource', 'qty', 'prc'])
    text(field);
  const legTsym = leg.tsym as string;
  // Clients send the leg symbol plain (NorenRestApiPy) or encoded like the top level; either must name the same one.
  if (legTsym !== tsym && decodeSymbol(legTsym) !== tsym)
    throw new Refusal(`${key}.tsym must be the same symbol as tsym`);
  checkExchange(leg.exch as string, account, `${key}.exch`);
  if (leg.exch !== exch) throw new Refusal(`${key}.exch must be the same exchange as exch`);
  if (leg.actid !== account.actid) throw new Refusal('Invalid Account Id');
  if (leg.uid !== uid) throw new Refusal('Invalid User Id');
  for (const field of ['trantype', 'prctyp', 'prd', 'ret'] as const)
    requireOneOf(leg[field] as string, ENUMS[field], `${key}.${field}`);
  const trgprc = optionalString(leg, 'trgprc', '', `${key}.trgprc`);
  if (trgprc !== '') checkPrice(trgprc, `${key}.trgprc`);
  else if (SL_TYPES.includes(leg.prctyp as string)) throw new Refusal(`${key}.trgprc is Missing`);
  return {
    trantype: leg.trantype as string,
    prctyp: leg.prctyp as string,
    prd: leg.prd as string,
    ret: leg.ret as string,
    actid: account.actid,
    ordersource: leg.ordersource as string,
    qty: checkQty(leg.qty as string, `${key}.qty`),
    prc: checkPrice(leg.prc as string, `${key}.prc`),
    trgprc,
  };
};

const checkOiVariable = (value: unknown): { x: string; y: string } => {
  if (value === undefined || value === null) throw new Refusal('oivariable is Missing');
  const shape = 'oivariable must be two entries {d, var_name}: x, then y';
  if (!Array.isArray(value) || value.length !== 2) throw new Refusal(shape);
  const out: Record<LegName, string> = { x: '', y: '' };
  (['x', 'y'] as const).forEach((name, i) => {
    const entry: unknown = value[i];
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry) || (entry as Json).var_name !== name)
      throw new Refusal(shape);
    out[name] = checkTrigger(requireString(entry as Json, 'd', `oivariable[${i}].d`), `oivariable[${i}].d`);
  });
  return out;
};

/** PlaceOCOOrder / ModifyOCOOrder fields, after the session check (so `uid` is the session's user). */
export const checkOco = (fields: Json, account: Account): OcoFields => {
  for (const field of ['ai_t', 'validity', 'tsym', 'exch']) requireString(fields, field);
  if (fields.ai_t !== OCO_ALERT_TYPE) throw new Refusal(`ai_t must be ${OCO_ALERT_TYPE}`);
  const validity = requireOneOf(fields.validity as string, OCO_VALIDITIES, 'validity');
  const exch = checkExchange(fields.exch as string, account);
  const tsym = checkSymbol(fields.tsym as string);
  if (fields.actid !== undefined && fields.actid !== account.actid) throw new Refusal('Invalid Account Id');
  const { x, y } = checkOiVariable(fields.oivariable);
  const leg1 = checkLeg(fields[LEG_KEYS.x], LEG_KEYS.x, account, account.uid, exch, tsym);
  const leg2 = checkLeg(fields[LEG_KEYS.y], LEG_KEYS.y, account, account.uid, exch, tsym);
  return {
    actid: account.actid,
    exch,
    tsym,
    ai_t: OCO_ALERT_TYPE,
    validity,
    remarks: optionalString(fields, 'remarks', ''),
    ordersource: optionalString(fields, 'ordersource', leg1.ordersource),
    x,
    y,
    legs: { x: leg1, y: leg2 },
  };
};

/**
 * Which way each leg fires. A leg whose trigger is above the last traded price known at entry fires when the price
 * rises to it, one below fires when the price falls to it. With no known price (or a trigger equal to it) the legs
 * are read as a long position's exit: x is the upper bound when x > y (target above stop-loss), else the lower
 * one, and y is the other bound.
 */
export const ocoDirections = (x: string, y: string, ltp: number | undefined): { xRises: boolean; yRises: boolean } => {
  const xd = Number(x);
  const yd = Number(y);
  const xUpper = xd > yd;
  return {
    xRises: ltp === undefined || xd === ltp ? xUpper : xd > ltp,
    yRises: ltp === undefined || yd === ltp ? !xUpper : yd > ltp,
  };
};

/**
 * The leg a new price fires, if any: only one ever fires. When one price meets both (a gap through both triggers),
 * the leg whose trigger lies nearer the previous price fires (it was crossed first); a tie or no previous price: x.
 */
export const ocoFiringLeg = (order: OcoOrder, ltp: number, previous: number | undefined): LegName | undefined => {
  const meets = (rises: boolean, d: string) => (rises ? ltp >= Number(d) : ltp <= Number(d));
  const x = meets(order.xRises, order.x);
  const y = meets(order.yRises, order.y);
  if (x && y) {
    if (previous !== undefined && Math.abs(Number(order.y) - previous) < Math.abs(Number(order.x) - previous))
      return 'y';
    return 'x';
  }
  return x ? 'x' : y ? 'y' : undefined;
};
