/**
 * An order's version (the `ETag` of `GET /gtt-orders/{alId}`, the `If-Match` of a PATCH): one short hash per field of
 * the broker's record, as its modify input has it (patch-merge.ts), so a version that no longer matches names the
 * fields that changed.
 */
import { createHash } from 'node:crypto';

import type { GttOrder } from '../schemas/reply.js';
import { isRecord } from '../schemas/values.js';
import { modifyInputOfRecord } from './patch-merge.js';

type Fields = Record<string, unknown>;

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
  path.split('.').reduce<unknown>((value, part) => (isRecord(value) ? value[part] : undefined), fields);
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
