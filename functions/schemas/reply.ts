/**
 * What the broker answers on success (docs/broker-wire.md: records and replies), and therefore what the gateway returns.
 *
 * Fields the gateway's correctness rests on (`stat`, `al_id`, the order fields) are checked strictly; cosmetic
 * fields (`request_time` and the record's undocumented extras) only by type, so a harmless format change at the
 * broker cannot turn an order that was placed into an "unreadable reply".
 */
import * as z from 'zod';

const digits = z.string().regex(/^\d+$/, { error: 'must be a digit string' });
/** `HH:MM:SS DD-MM-YYYY` in the spec; typed as a string only (see above). */
const requestTime = z.string();
/** The spec says `qty` is a JSON number; accept a numeric string too and hand out a number. */
const numberField = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/)]).transform(Number).pipe(z.number());
const optionalText = z.string().optional();

/** Place, modify and cancel answer the same shape; only the success text in `stat` differs. */
const orderActionReply = <S extends string>(stat: S) =>
  z.object({ stat: z.literal(stat), al_id: digits, request_time: requestTime });

export const placeReply = orderActionReply('OI created');
export type PlaceReply = z.output<typeof placeReply>;

export const modifyReply = orderActionReply('OI replaced');
export type ModifyReply = z.output<typeof modifyReply>;

export const cancelReply = orderActionReply('OI deleted');
export type CancelReply = z.output<typeof cancelReply>;

export const placeOrderParams = z.object({
  actid: optionalText,
  trantype: optionalText,
  prctyp: optionalText,
  qty: numberField.optional(),
  prc: optionalText,
  C: optionalText,
  s_prdt_ali: optionalText,
  prd: optionalText,
  ordersource: optionalText,
  ipaddr: optionalText,
});

export const pendingOrderRecord = z.object({
  stat: z.literal('Ok'),
  al_id: digits,
  ai_t: z.string(),
  tsym: z.string(),
  exch: z.string(),
  trantype: z.string(),
  prctyp: z.string(),
  qty: numberField,
  prc: z.string(),
  prd: z.string(),
  d: z.string(),
  validity: optionalText,
  token: optionalText,
  remarks: optionalText,
  norentm: optionalText,
  pp: optionalText,
  ls: optionalText,
  ti: optionalText,
  brkname: optionalText,
  actid: optionalText,
  C: optionalText,
  ordersource: optionalText,
  place_order_params: placeOrderParams.optional(),
  oivariable: z.array(z.object({ var_name: optionalText, d: optionalText })).optional(),
});
export type PendingOrderRecord = z.output<typeof pendingOrderRecord>;

/** The broker answers an array; the gateway wraps it so an empty account is `{ orders: [] }`. */
export const pendingReply = z.array(pendingOrderRecord);
export const pendingResult = z.object({ orders: z.array(pendingOrderRecord) });
export type PendingResult = z.output<typeof pendingResult>;

export const enabledReply = z.object({
  stat: z.literal('Ok'),
  request_time: requestTime,
  ai_ts: z.array(z.looseObject({ ai_t: z.string().optional() })),
});
export type EnabledReply = z.output<typeof enabledReply>;

export const clientDetailsReply = z.object({
  stat: z.literal('Ok'),
  request_time: requestTime,
  actid: z.string(),
  cliname: optionalText,
  act_sts: optionalText,
  creatdte: optionalText,
  creattme: optionalText,
  m_num: optionalText,
  email: optionalText,
  pan: optionalText,
  dob: optionalText,
  addr: optionalText,
  addroffice: optionalText,
  addrcity: optionalText,
  addrstate: optionalText,
  partic_id_list: z.array(z.object({ partic_id: z.string(), exch: z.string() })).optional(),
  eqt_asba: optionalText,
  der_asba: optionalText,
  fx_asba: optionalText,
  com_asba: optionalText,
  mandate_id_list: z.array(z.object({ mandate_id: z.string() })).optional(),
  exarr: z.array(z.string()),
  bankdetails: z.array(z.object({ bankn: optionalText, acctnum: optionalText, ifsc_code: optionalText })).optional(),
  dp_acct_num: z.array(z.object({ dpnum: z.string() })).optional(),
});
export type ClientDetailsReply = z.output<typeof clientDetailsReply>;

export const logoutReply = z.object({
  stat: z.literal('Ok'),
  request_time: requestTime,
});
export type LogoutReply = z.output<typeof logoutReply>;

/** The failure object of spec section 7. */
export const failureReply = z.object({ stat: z.literal('Not_Ok'), emsg: z.string() });
