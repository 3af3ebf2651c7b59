/**
 * A partial modify (PATCH) against the broker's record: the pending order as a full modify input, the caller's
 * changes over it (the broker's ModifyGTTOrder / ModifyOCOOrder replace the whole order), and the order's version
 * (the `ETag` of `GET /gtt-orders/{alId}`): one short hash per field of the record, so a version that no longer
 * matches names the fields that changed.
 *
 * The broker's pending record does not carry the retention (`ret`): a PATCH sends the one given, else `DAY`.
 */
import { createHash } from 'node:crypto';

import type { GttOrder } from '../schemas/reply.js';

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

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The changes over the order, nested objects (an OCO's legs and their orders) merged field by field. */
export const mergePatch = (base: Fields, patch: Fields): Fields => {
  const merged: Fields = { ...base };
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    merged[field] = isObject(value) && isObject(base[field]) ? mergePatch(base[field], value) : value;
  }
  // A market order has no price of its own: the record's limit price does not survive a change to MKT.
  if (typeof patch.prctyp === 'string' && /MKT$/.test(patch.prctyp) && patch.prc === undefined) merged.prc = '0';
  return merged;
};

/** The fields a version covers, in a fixed order: a single order's, and an OCO's (each leg's). */
const SINGLE_FIELDS = ['exch', 'tsym', 'trantype', 'prctyp', 'qty', 'prc', 'prd', 'ai_t', 'd', 'validity', 'tag'];
const LEG_FIELDS = ['trigger', 'order.trantype', 'order.prctyp', 'order.qty', 'order.prc', 'order.prd', 'order.trgprc'];
const OCO_FIELDS = [
  'exch',
  'tsym',
  'validity',
  'tag',
  ...LEG_FIELDS.map((f) => `target.${f}`),
  ...LEG_FIELDS.map((f) => `stopLoss.${f}`),
];
const HASH_CHARS = 4;

const at = (fields: Fields, path: string): unknown =>
  path.split('.').reduce<unknown>((value, part) => (isObject(value) ? value[part] : undefined), fields);
/** `1500`, `1500.0` and `1500.00` are one price. */
const canonical = (value: unknown): string => {
  const s = value === undefined || value === null ? '' : String(value);
  return /^-?\d+(\.\d+)?$/.test(s) ? String(Number(s)) : s;
};
const fieldHash = (path: string, value: unknown) =>
  createHash('sha256')
    .update(`${path}=${canonical(value)}`)
    .digest('hex')
    .slice(0, HASH_CHARS);

const fieldsOf = (type: string) => (type === 'oco' ? OCO_FIELDS : SINGLE_FIELDS);

/** The order's version: `s.` or `o.` and a few hex characters per field (the ETag's value, quoted by the caller). */
export const orderVersion = (order: GttOrder): string => {
  const fields = modifyInputOfRecord(order);
  const type = order.type === 'oco' ? 'o' : 's';
  return `${type}.${fieldsOf(order.type)
    .map((path) => fieldHash(path, at(fields, path)))
    .join('')}`;
};

/** The fields in which a version (an If-Match value, quotes and `W/` removed) differs from the order's. */
export const changedFields = (version: string, order: GttOrder): string[] => {
  const current = orderVersion(order);
  if (version === current) return [];
  if (version[0] !== current[0] || version.length !== current.length) return ['type'];
  const paths = fieldsOf(order.type);
  return paths.filter((_path, i) => {
    const from = 2 + i * HASH_CHARS;
    return version.slice(from, from + HASH_CHARS) !== current.slice(from, from + HASH_CHARS);
  });
};

/**
 * Whether `version` (an If-Match value, quotes and `W/` removed) has the shape of an order's version: `s.` or `o.`
 * and the hex characters of that kind's fields. Anything else is no ETag this gateway gave.
 */
export const isOrderVersion = (version: string): boolean => {
  const match = /^([so])\.[0-9a-f]+$/.exec(version);
  return match !== null && version.length === 2 + fieldsOf(match[1] === 'o' ? 'oco' : 'single').length * HASH_CHARS;
};

/** An If-Match header's version: `"s.ab12…"` or `W/"s.ab12…"`; `*` matches any version. */
export const versionOfIfMatch = (header: string): string => header.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
