/** Checking order requests (single GTT; shared rules for OCO legs) and the rule that fires a single GTT. */
import { alertFires, alertTriggerProblem, EMULATOR_ALERT_TYPES, type MarketView } from './alert-rules.js';
import { decodeSymbol } from './formats.js';
import { type Account, EXCHANGES, type GttOrder } from './state.js';

export type Json = Record<string, unknown>;

/** A failed business check: becomes `{stat: Not_Ok, emsg: "Invalid Input : <message>"}`. */
export class Refusal extends Error {}

export const ENUMS = {
  exch: EXCHANGES as readonly string[],
  prd: ['C', 'M', 'H'],
  trantype: ['B', 'S'],
  prctyp: ['LMT', 'MKT', 'SL-LMT', 'SL-MKT', 'DS', '2L', '3L'],
  ret: ['DAY', 'EOS', 'IOC'],
  ai_t: EMULATOR_ALERT_TYPES,
  validity: ['GTT'],
} satisfies Record<string, readonly string[]>;

export const OCO_ALERT_TYPE = 'LMT_BOS_O';
export const OCO_VALIDITIES = ['GTT', 'DAY'];
const ORDER_FIELDS = [
  'uid',
  'actid',
  'exch',
  'tsym',
  'qty',
  'prc',
  'prd',
  'trantype',
  'prctyp',
  'ret',
  'ai_t',
  'validity',
  'd',
];

/** `label` is how the field is named in the error text (`qty`, `place_order_params.qty`). */
export const requireString = (fields: Json, field: string, label = field): string => {
  const value = fields[field];
  if (value === undefined || value === null || value === '') throw new Refusal(`${label} is Missing`);
  if (typeof value !== 'string') throw new Refusal(`${label} must be a string`);
  return value;
};

/** An optional text field: absent is `fallback`, present must be a string. */
export const optionalString = (fields: Json, field: string, fallback: string, label = field): string => {
  const value = fields[field];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string') throw new Refusal(`${label} must be a string`);
  return value;
};

export const requireOneOf = (value: string, allowed: readonly string[], label: string): string => {
  if (!allowed.includes(value)) throw new Refusal(`${label} must be one of ${allowed.join(', ')}`);
  return value;
};

export const checkExchange = (value: string, account: Account, label = 'exch'): string => {
  requireOneOf(value, ENUMS.exch, label);
  if (!account.client.exarr.includes(value)) throw new Refusal(`exchange ${value} is not enabled for this account`);
  return value;
};

export const checkQty = (value: string, label = 'qty'): number => {
  if (!/^[1-9]\d{0,9}$/.test(value)) throw new Refusal(`${label} must be a positive whole number`);
  return Number(value);
};

export const checkPrice = (value: string, label = 'prc'): string => {
  if (!/^\d+(\.\d+)?$/.test(value)) throw new Refusal(`${label} must be a number`);
  return value;
};

export const checkTrigger = (value: string, label = 'd'): string => {
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0) throw new Refusal(`${label} must be a positive number`);
  return value;
};

export const checkSymbol = (raw: string): string => {
  const tsym = decodeSymbol(raw);
  if (tsym.trim() === '') throw new Refusal('tsym is Missing');
  return tsym;
};

export type GttFields = Omit<GttOrder, 'al_id' | 'uid' | 'state' | 'ipaddr' | 'norentm' | 'kind' | 'trigger'>;

/** PlaceGTTOrder / ModifyGTTOrder fields (every field of the shown request is mandatory). */
export const checkGtt = (fields: Json, account: Account): GttFields => {
  for (const field of ORDER_FIELDS) requireString(fields, field);
  if (fields.actid !== account.actid) throw new Refusal('Invalid Account Id');
  const text = (field: string) => fields[field] as string;
  checkExchange(text('exch'), account);
  for (const field of ['prd', 'trantype', 'prctyp', 'ret', 'ai_t', 'validity'] as const)
    requireOneOf(text(field), ENUMS[field], field);
  const problem = alertTriggerProblem(text('ai_t'), text('d'), text('exch'));
  if (problem !== undefined) throw new Refusal(problem);
  return {
    actid: account.actid,
    exch: text('exch'),
    tsym: checkSymbol(text('tsym')),
    qty: checkQty(text('qty')),
    prc: checkPrice(text('prc')),
    prd: text('prd'),
    trantype: text('trantype'),
    prctyp: text('prctyp'),
    ret: text('ret'),
    ai_t: text('ai_t'),
    validity: text('validity'),
    d: text('d'),
    remarks: optionalString(fields, 'remarks', ''),
    ordersource: optionalString(fields, 'ordersource', 'API'),
  };
};

/** A single GTT fires when what its type watches reaches `d`: rises to it (`_A_`) or falls to it (`_B_`); alert-rules.ts. */
export const gttFires = (order: GttOrder, market: MarketView): boolean => alertFires(order.ai_t, order.d, market);

/** `al_id` of a modify or cancel: a digit string; a JSON whole number is taken too (one Python client sends one). */
export const requireAlId = (fields: Json): string => {
  const value = fields.al_id;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return requireString(fields, 'al_id');
};
