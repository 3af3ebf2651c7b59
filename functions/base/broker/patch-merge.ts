/**
 * A partial modify (PATCH) against the broker's record: the pending order as a full modify input, and the caller's
 * changes laid over it (the broker's ModifyGTTOrder / ModifyOCOOrder replace the whole order). The order's version,
 * which a PATCH's If-Match names, is in order-version.ts.
 *
 * The broker's pending record does not carry the retention (`ret`): a PATCH sends the one given, else `DAY`.
 */
import type { GttOrder } from '../schemas/reply.js';
import { isRecord } from '../schemas/values.js';

type Fields = Record<string, unknown>;

/** The retention sent when the PATCH names none (the record does not say). */
export const PATCH_DEFAULT_RETENTION = 'DAY';

const text = (value: unknown): string | undefined =>
  value === undefined || value === null || value === '' ? undefined : String(value);
const defined = (fields: Fields): Fields =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

const legOf = (leg: NonNullable<GttOrder['target']>): Fields => ({
  trigger: leg.trigger,
  order: defined({
    trantype: text(leg.order.trantype),
    prctyp: text(leg.order.prctyp),
    qty: leg.order.qty,
    prc: text(leg.order.prc),
    prd: text(leg.order.prd),
    ret: PATCH_DEFAULT_RETENTION,
    trgprc: text(leg.order.trgprc),
  }),
});

/** The pending order (GetGTTOrder's result) as the full input of its modify. */
export const modifyInputOfRecord = (order: GttOrder): Fields => {
  const common = { al_id: order.al_id, exch: order.exch, tsym: order.tsym, validity: text(order.validity) };
  if (order.type === 'oco' && order.target && order.stopLoss) {
    return defined({ ...common, tag: text(order.tag), target: legOf(order.target), stopLoss: legOf(order.stopLoss) });
  }
  return defined({
    ...common,
    qty: order.qty,
    prc: text(order.prc),
    prd: order.prd,
    trantype: order.trantype,
    prctyp: order.prctyp,
    ret: PATCH_DEFAULT_RETENTION,
    ai_t: order.ai_t,
    d: order.d,
    tag: text(order.tag),
  });
};

/** The changes over the order, nested objects (an OCO's legs and their orders) merged field by field. */
export const mergePatch = (base: Fields, patch: Fields): Fields => {
  const merged: Fields = { ...base };
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    merged[field] = isRecord(value) && isRecord(base[field]) ? mergePatch(base[field], value) : value;
  }
  // A market order has no price of its own: the record's limit price does not survive a change to MKT.
  if (typeof patch.prctyp === 'string' && /MKT$/.test(patch.prctyp) && patch.prc === undefined) merged.prc = '0';
  return merged;
};
