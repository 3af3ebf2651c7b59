/**
 * An order held to an assistant's limits (docs/reference/assistants.md, "Assistant tokens"): pure, so the MCP server's preview
 * (mcp/preview.ts) and the assistants' registry check an order the same way. The reason is a sentence a person (and the assistant) can read;
 * undefined: within every limit. An OCO is checked leg by leg, each leg as an order.
 */
import type { AssistantLimits } from './assistants.js';

/** The fields of an order the limits read, in the gateway's own names (a GTT's body, or one OCO leg's). */
export interface LimitedOrder {
  exch: string;
  qty: number | string;
  /** The limit price; 0 or absent for a market order. */
  prc?: number | string | undefined;
  /** The trigger price: a market order's value is reckoned at it. */
  d?: number | string | undefined;
}

export const rupees = (value: number): string =>
  `₹${value.toLocaleString('en-IN', { maximumFractionDigits: 2, minimumFractionDigits: 0 })}`;

/** A price in rupees and paise, always two decimals: `₹1,498.50`. */
export const rupeesAndPaise = (value: number): string =>
  `₹${value.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const positiveNumber = (value: number | string | undefined): number | undefined => {
  const n = typeof value === 'string' ? (value.trim() === '' ? NaN : Number(value)) : value;
  return n !== undefined && Number.isFinite(n) && n > 0 ? n : undefined;
};

/**
 * Why `order` is over `limits`, or undefined. `ordersToday`: the orders the assistant already placed today (the day's
 * counter, read before this one); this order would be one more. A value that cannot be reckoned (no price and no
 * trigger) is refused where a value limit is set, never waved through.
 */
export const checkLimits = (limits: AssistantLimits, order: LimitedOrder, ordersToday = 0): string | undefined => {
  if (limits.exchanges && !(limits.exchanges as readonly string[]).includes(order.exch))
    return `exchange ${String(order.exch).slice(0, 16)} is not one of this assistant's (${limits.exchanges.join(', ')})`;
  const qty = positiveNumber(order.qty);
  if (qty === undefined || !Number.isInteger(qty))
    return `quantity ${JSON.stringify(order.qty).slice(0, 24)} is not a positive whole number`;
  if (limits.maxQtyPerOrder !== undefined && qty > limits.maxQtyPerOrder)
    return `quantity ${qty} is over this assistant's most per order (${limits.maxQtyPerOrder})`;
  if (limits.maxValuePerOrder !== undefined) {
    const price = positiveNumber(order.prc) ?? positiveNumber(order.d);
    if (price === undefined)
      return `the order's value cannot be reckoned (no price and no trigger price) and this assistant's most per order is ${rupees(limits.maxValuePerOrder)}`;
    const value = Math.round(qty * price * 100) / 100;
    if (value > limits.maxValuePerOrder)
      return `value ${rupees(value)} (quantity ${qty} × ${price}) is over this assistant's most per order (${rupees(limits.maxValuePerOrder)})`;
  }
  if (limits.maxOrdersPerDay !== undefined && ordersToday >= limits.maxOrdersPerDay)
    return `this assistant has placed ${ordersToday} orders today, its most per day (${limits.maxOrdersPerDay}); more tomorrow (India time)`;
  return undefined;
};
