/**
 * PlaceOrder's jData checked (a regular exchange order, not a GTT), as NorenRestApiPy's `place_order` sends it:
 * `ordersource`, `uid`, `actid`, `trantype`, `prd`, `exch`, `tsym`, `qty`, `dscqty`, `prctyp`, `prc`, `trgprc`,
 * `ret`, `remarks` (and `amo`, read as nothing here). Malformed input is refused (`Invalid Input : ...`); what the
 * exchange decides (tick, lot, band, freeze) is the order book's, which rejects the order there (order-book.ts).
 */
import type { NewOrder } from './order-book.js';
import {
  checkExchange,
  checkPrice,
  checkQty,
  checkSymbol,
  checkTrigger,
  type Json,
  optionalString,
  Refusal,
  requireOneOf,
  requireString,
} from './orders.js';
import type { Account } from './state.js';

/** The price types a regular order takes here (the family's `DS`, `2L`, `3L` are not emulated). */
export const PLAIN_PRICE_TYPES = ['LMT', 'MKT', 'SL-LMT', 'SL-MKT'] as const;
export const PLAIN_RETENTIONS = ['DAY', 'IOC', 'EOS'] as const;
/** Delivery, carry forward, intraday (cover and bracket orders, with their legs' prices, are not emulated). */
const PRODUCTS = ['C', 'M', 'I'];

/** PlaceOrder's fields as checked: an order reaching the exchange but for the session's user and a GTT's id. */
export type PlainOrderFields = Omit<NewOrder, 'uid' | 'al_id'>;

/** `trgprc` is read for the stop-loss types only: NorenRestApiPy sends `"None"` there for any other. */
export const checkPlainOrder = (fields: Json, account: Account): PlainOrderFields => {
  for (const field of ['actid', 'exch', 'tsym', 'qty', 'prd', 'trantype', 'prctyp', 'ret'])
    requireString(fields, field);
  if (fields.actid !== account.actid) throw new Refusal('Invalid Account Id');
  const text = (field: string) => fields[field] as string;
  checkExchange(text('exch'), account);
  requireOneOf(text('trantype'), ['B', 'S'], 'trantype');
  requireOneOf(text('prd'), PRODUCTS, 'prd');
  const prctyp = requireOneOf(text('prctyp'), PLAIN_PRICE_TYPES, 'prctyp');
  requireOneOf(text('ret'), PLAIN_RETENTIONS, 'ret');
  const market = prctyp === 'MKT' || prctyp === 'SL-MKT';
  const prc = market ? optionalString(fields, 'prc', '0') : requireString(fields, 'prc');
  checkPrice(prc);
  if (market && Number(prc) !== 0) throw new Refusal(`prc must be 0 for price type ${prctyp}`);
  if (!market && Number(prc) <= 0) throw new Refusal(`prc must be a positive price for price type ${prctyp}`);
  const dscqty = optionalString(fields, 'dscqty', '0');
  if (!/^\d{1,10}$/.test(dscqty)) throw new Refusal('dscqty must be a whole number');
  const qty = checkQty(text('qty'));
  if (Number(dscqty) > qty) throw new Refusal('dscqty must not exceed qty');
  const stop = prctyp.startsWith('SL-');
  return {
    actid: account.actid,
    exch: text('exch'),
    tsym: checkSymbol(text('tsym')),
    trantype: text('trantype'),
    qty,
    prc,
    prctyp,
    prd: text('prd'),
    ret: text('ret'),
    remarks: optionalString(fields, 'remarks', ''),
    ...(stop ? { trgprc: checkTrigger(requireString(fields, 'trgprc'), 'trgprc') } : {}),
  };
};
