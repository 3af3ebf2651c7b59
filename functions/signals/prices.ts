/**
 * An alert's numbers made into an order's (docs/reference/signals.md, "Offsets and rounding"): prices at an offset from the
 * alert's price, in percent or points, on the instrument's tick grid; the quantity; the side; the GTT's alert type.
 *
 * Rounding never gives a worse fill than the offset's exact price: every price of a buy (trigger and limit) goes
 * down to the tick, every price of a sell up. A buy never pays more, a sell never receives less, and a trigger never
 * fires at a level worse for the order's side than the one the strategy asked for. Exact decimal arithmetic
 * throughout (integers scaled by 10^8, orders/safety/grid.ts): 1500 at -0.5% is 1492.50, never 1492.4999999.
 */
import { ValidationFailedError } from '../base/contract/errors.js';
import type { Alert, SignalOrder } from '../base/schemas/signals.js';
import { lotProblem } from '../orders/safety/exchange-rule-checks.js';
import { compare, fromScaled, SCALED_ONE, toScaled } from '../orders/safety/grid.js';

export type Side = 'B' | 'S';

const DECIMAL = /^\d+(?:\.\d+)?$/;

const refused = (message: string, field: string) =>
  new ValidationFailedError(message, { details: [{ field, message }], outcome: 'not_executed' });

/** The alert's price, checked: a positive decimal. */
export const alertPrice = (alert: Alert): string => {
  const price = alert.price?.trim();
  if (price === undefined || price === '')
    throw refused(
      'The alert carries no price, and every offset is counted from it: add it to the alert\'s message (TradingView: "price": {{close}}); nothing was placed.',
      'price',
    );
  if (!DECIMAL.test(price) || Number(price) <= 0)
    throw refused(`The alert's price "${price}" is not a positive decimal number; nothing was placed.`, 'price');
  return price;
};

/**
 * `base` moved by `offset` ("-0.5%", "+1%", "-5", "0") and put on the tick grid in the side's safe direction: down
 * for a buy, up for a sell. Refused when the result is not a positive price.
 */
export const offsetPrice = (base: string, offset: string, tick: string, side: Side, field = 'offset'): string => {
  const percent = offset.endsWith('%');
  const text = percent ? offset.slice(0, -1) : offset;
  const negative = text.startsWith('-');
  const magnitude = toScaled(text.replace(/^[+-]/, '').replace(/^\./, '0.'));
  const o = negative ? -magnitude : magnitude;
  const p = toScaled(base);
  const t = toScaled(tick);
  // The exact result, scaled by 10^8, is num / den.
  const hundred = 100n * SCALED_ONE;
  const [num, den] = percent ? [p * (hundred + o), hundred] : [p + o, 1n];
  const divisor = den * t;
  // BigInt division truncates toward zero: the floor first, then one tick up for a sell when anything is left.
  const truncated = num / divisor;
  const remainder = num - truncated * divisor;
  const floor = remainder < 0n ? truncated - 1n : truncated;
  const units = side === 'S' && remainder !== 0n ? floor + 1n : floor;
  const result = units * t;
  if (result <= 0n)
    throw refused(
      `${field} ${offset} from the alert's price ${base} leaves no positive price on the ${tick} tick; nothing was placed.`,
      field,
    );
  return fromScaled(result, tick);
};

/** The order's side: the alert's, or the strategy's fixed `trantype`; refused when they disagree or neither says. */
export const sideOf = (alert: Alert, order: Pick<SignalOrder, 'trantype'>): Side => {
  if (alert.side && order.trantype && alert.side !== order.trantype)
    throw refused(
      `The alert says ${alert.side === 'B' ? 'buy' : 'sell'} but the strategy fixes order.trantype ${order.trantype}; nothing was placed. Change the alert or the strategy.`,
      'action',
    );
  const side = alert.side ?? order.trantype;
  if (!side)
    throw refused(
      'The alert names no side (buy or sell) and the strategy fixes none: set order.trantype in the strategy (ChartInk alerts carry no side), or send "action": "buy" or "sell"; nothing was placed.',
      'action',
    );
  return side;
};

/**
 * The quantity: the alert's, else the strategy's `order.qty`. Over `maxQty` it is refused, never cut down; it must be
 * a multiple of the instrument's lot.
 */
export const quantityOf = (
  alert: Alert,
  order: Pick<SignalOrder, 'qty'>,
  maxQty: number | undefined,
  lot: number,
  tsym: string,
): number => {
  const qty = alert.qty ?? order.qty;
  if (qty === undefined)
    throw refused(
      'The alert names no quantity and the strategy has no order.qty: set one of them; nothing was placed.',
      'qty',
    );
  if (!Number.isInteger(qty) || qty <= 0)
    throw refused(`The quantity ${qty} is not a positive whole number; nothing was placed.`, 'qty');
  if (maxQty !== undefined && qty > maxQty)
    throw refused(
      `The quantity ${qty} is over the strategy's maxQty ${maxQty}: refused, never cut down; nothing was placed. Raise maxQty or send a smaller quantity.`,
      'qty',
    );
  const problems = lotProblem('qty', String(qty), tsym, lot);
  if (problems.length) throw refused(`${problems[0]!.message}; nothing was placed.`, 'qty');
  return qty;
};

/**
 * The GTT's alert type: a trigger above the alert's price fires when the price rises to it (`LTP_A_O`), below when
 * it falls to it (`LTP_B_O`). A trigger at the alert's price follows the move that raised the alert: a buy fires at
 * or above it (a breakout is bought when it holds), a sell at or below.
 */
export const alertTypeOf = (trigger: string, reference: string, side: Side): 'LTP_A_O' | 'LTP_B_O' => {
  const c = compare(trigger, reference);
  if (c > 0) return 'LTP_A_O';
  if (c < 0) return 'LTP_B_O';
  return side === 'B' ? 'LTP_A_O' : 'LTP_B_O';
};
