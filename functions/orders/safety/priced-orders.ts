/**
 * An order operation's input with its market orders priced (market-orders.ts) and what was done, by leg: the
 * `converted` of the reply, the audit record and the lifecycle event. Priced once, on the instrument's tick, when the
 * exchange's rules are read (orders/gateway/exchange-rules.ts): the price sent is always on the instrument's grid.
 */
import type { AnyOperation, PricedLeg } from '../../base/contract/operation.js';
import type { Converted, MarketConversion } from '../../base/schemas/conversion.js';
import { MARKET_PRICE_TYPES } from '../../base/schemas/input.js';
import { convertMarketOrder, type MarketOrderSettings } from './market-orders.js';

export interface PricedInput {
  input: unknown;
  /** Absent when no order was a market order. */
  converted?: Converted;
}

/** `prc` is the single order's; `target.order.prc`, `stopLoss.order.prc` the OCO legs'. */
const legOf = (path: string): 'target' | 'stopLoss' | undefined =>
  path.startsWith('target.') ? 'target' : path.startsWith('stopLoss.') ? 'stopLoss' : undefined;

export const priceInput = (
  operation: AnyOperation,
  input: unknown,
  settings: MarketOrderSettings,
  tick?: string,
): PricedInput => {
  if (!operation.priceOrders) return { input };
  let single: MarketConversion | undefined;
  const legs: { target?: MarketConversion; stopLoss?: MarketConversion } = {};
  const priced: unknown = operation.priceOrders(input, (leg: PricedLeg) => {
    const { prctyp, prc, conversion } = convertMarketOrder(leg, settings, tick);
    if (conversion) {
      const name = legOf(leg.path);
      if (name) legs[name] = conversion;
      else single = conversion;
    }
    return { prctyp, prc };
  });
  const converted = single ?? (legs.target || legs.stopLoss ? legs : undefined);
  return { input: priced, ...(converted ? { converted } : {}) };
};

/** Whether any of the input's orders is a market order (MKT, SL-MKT): it has no price until it is priced. */
export const hasMarketOrders = (operation: AnyOperation, input: unknown): boolean => {
  let market = false;
  operation.priceOrders?.(input, (leg: PricedLeg) => {
    if (MARKET_PRICE_TYPES.includes(leg.prctyp)) market = true;
    return { prctyp: leg.prctyp, prc: leg.prc };
  });
  return market;
};
