/**
 * The brokers' rules on order writes that come before any check of the order itself: the exchanges' per-client
 * order rate (enforceOrderRate) and the 2026 algo rules' refusal of market orders from the API
 * (acceptApiMarketOrders).
 */
import type { Json } from './orders.js';
import type { Switches } from './switches.js';

/** The exchanges' per-client order rate that Noren brokers enforce since April 2026. */
export const BROKER_ORDER_RATE_LIMIT = 10;
const ORDER_WRITES = [
  'PlaceGTTOrder',
  'ModifyGTTOrder',
  'CancelGTTOrder',
  'CancelOCOOrder',
  'PlaceOCOOrder',
  'ModifyOCOOrder',
  'PlaceOrder',
];

/** The order operations whose jData carries a price type, at the top (single GTT, a regular order) or in the legs (OCO). */
const PRICED_OPERATIONS = ['PlaceGTTOrder', 'ModifyGTTOrder', 'PlaceOCOOrder', 'ModifyOCOOrder', 'PlaceOrder'];
const MARKET_TYPES = ['MKT', 'SL-MKT'];
const asFields = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
const isMarketOrder = (fields: Json): boolean =>
  [fields, asFields(fields.place_order_params), asFields(fields.place_order_params_leg2)].some((f) =>
    MARKET_TYPES.includes(String(f.prctyp)),
  );

/** Order writes per user in the current calendar second (enforceOrderRate). */
export class OrderRate {
  private readonly counts = new Map<string, { second: number; count: number }>();

  /** Count one more write of this user at this time: how many this calendar second, this one included. */
  count(uid: string, at: Date): number {
    const second = Math.floor(at.getTime() / 1_000);
    const counted = this.counts.get(uid);
    const count = counted?.second === second ? counted.count + 1 : 1;
    this.counts.set(uid, { second, count });
    return count;
  }

  clear(): void {
    this.counts.clear();
  }
}

/**
 * The broker's `emsg` when these rules refuse the request (counting it towards the rate when that is enforced), or
 * undefined when they let it through.
 */
export const orderRuleRefusal = (
  rate: OrderRate,
  switches: Switches,
  operation: string,
  fields: Json,
  uid: string,
  now: () => Date,
): string | undefined => {
  if (ORDER_WRITES.includes(operation) && switches.enforceOrderRate) {
    const count = rate.count(uid, now());
    if (count > BROKER_ORDER_RATE_LIMIT) {
      return `Invalid Input : Order Recieved ${count} in a current second exceeds Limit ${BROKER_ORDER_RATE_LIMIT} for user`;
    }
  }
  if (PRICED_OPERATIONS.includes(operation) && !switches.acceptApiMarketOrders && isMarketOrder(fields)) {
    return 'ALGO_CHK: MKT Order type not allowed for API order';
  }
  return undefined;
};
