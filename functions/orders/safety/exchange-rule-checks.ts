/**
 * The exchange's rules on an order, checked before anything is sent: every price on the instrument's tick (`ti`),
 * with no more decimals than its price precision (`pp`), and the quantity a multiple of its lot size (`ls`), on a
 * single GTT and on each OCO leg alike. A GTT is an alert the broker holds: without this check the exchange refuses
 * the order only when the GTT fires. The refusal names the field, the rule and the nearest valid values.
 */
import type { InstrumentRules } from '../../base/broker/instruments.js';
import type { PriceBand } from '../../base/broker/market.js';
import { type FieldProblem, ValidationFailedError } from '../../base/contract/errors.js';
import { isPriceAlert } from '../../base/schemas/alert-types.js';
import { nearestOnGrid, onGrid } from './grid.js';
import { bandProblem, describeRules, freezeProblem } from './market-rules.js';

/** An order's prices and quantity as the caller named them (`target.order.prc`). */
export interface RuledOrder {
  exch: string;
  tsym: string;
  prices: { field: string; value: string }[];
  quantity: { field: string; value: string };
  /** The trigger and the limit price of the order it places (none for a market order), for the price band. */
  trigger?: { field: string; value: string } | undefined;
  limit?: { field: string; value: string } | undefined;
  /** Sent to the exchange now (a plain order), not held as a GTT: its limit must lie in today's band. */
  now?: boolean;
}

type Fields = Record<string, unknown>;
const isMarket = (prctyp: unknown) => prctyp === 'MKT' || prctyp === 'SL-MKT';
const text = (value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;

const priced = (field: string, value: unknown) => {
  const v = text(value);
  return v === undefined || Number(v) === 0 ? undefined : { field, value: v };
};

const orderPrices = (order: Fields, prefix: string, trigger: { field: string; value: unknown }) =>
  [
    trigger,
    ...(isMarket(order.prctyp) ? [] : [{ field: `${prefix}prc`, value: order.prc }]),
    { field: `${prefix}trgprc`, value: order.trgprc },
  ].flatMap(({ field, value }) => {
    const v = text(value);
    return v === undefined || Number(v) === 0 ? [] : [{ field, value: v }];
  });

/** The orders of a place or modify input (a single GTT, or an OCO's two legs). */
export const ruledOrders = (input: unknown): RuledOrder[] => {
  const fields = (input ?? {}) as Fields;
  const exch = String(fields.exch);
  const tsym = String(fields.tsym);
  if (typeof fields.target === 'object' && typeof fields.stopLoss === 'object') {
    return (['target', 'stopLoss'] as const).map((name) => {
      const leg = fields[name] as { trigger: unknown; order: Fields };
      return {
        exch,
        tsym,
        prices: orderPrices(leg.order, `${name}.order.`, { field: `${name}.trigger`, value: leg.trigger }),
        quantity: { field: `${name}.order.qty`, value: String(leg.order.qty) },
        trigger: priced(`${name}.trigger`, leg.trigger),
        limit: isMarket(leg.order.prctyp) ? undefined : priced(`${name}.order.prc`, leg.order.prc),
      };
    });
  }
  // A trigger that is no price (a percentage change, open interest, volume) is not on the tick nor in the band.
  const priceTrigger = isPriceAlert(fields.ai_t);
  return [
    {
      exch,
      tsym,
      prices: orderPrices(fields, '', { field: 'd', value: priceTrigger ? fields.d : undefined }),
      quantity: { field: 'qty', value: String(fields.qty) },
      trigger: priceTrigger ? priced('d', fields.d) : undefined,
      limit: isMarket(fields.prctyp) ? undefined : priced('prc', fields.prc),
      // A plain order (no alert, no trigger: PlaceOrder) goes to the exchange now: its limit lies in today's band.
      ...(fields.ai_t === undefined && fields.d === undefined ? { now: true } : {}),
    },
  ];
};

/** "1500.03 is off the 0.05 tick: 1500.00 or 1500.05". */
export const tickProblem = (field: string, value: string, tick: string): FieldProblem[] => {
  if (onGrid(value, tick)) return [];
  const [below, above] = nearestOnGrid(value, tick);
  return [{ field, message: `${value} is off the instrument's ${tick} tick: ${below} or ${above}` }];
};

/** "NIFTY29DEC26F trades in lots of 65: 50 is not a multiple; 65". */
export const lotProblem = (field: string, value: string, tsym: string, lot: number): FieldProblem[] => {
  const qty = Number(value);
  if (!Number.isInteger(qty) || qty % lot === 0) return [];
  const below = Math.floor(qty / lot) * lot;
  const nearest = [below, below + lot].filter((q) => q > 0).join(' or ');
  return [{ field, message: `${tsym} trades in lots of ${lot}: ${qty} is not a multiple; ${nearest}` }];
};

/** The exchange's rules on an instrument: its own (tick, lot, precision), today's band and its freeze quantity. */
export type MarketRules = Pick<InstrumentRules, 'tick' | 'lot' | 'precision'> & {
  band?: PriceBand | undefined;
  freeze?: number | undefined;
};

/** The problems of one order against the instrument's rules. */
export const ruleProblems = (order: RuledOrder, rules: MarketRules) => {
  const problems: FieldProblem[] = [];
  for (const { field, value } of order.prices) {
    const decimals = (value.split('.')[1] ?? '').replace(/0+$/, '').length;
    if (decimals > rules.precision)
      problems.push({ field, message: `${value} has more than the instrument's ${rules.precision} decimals` });
    else problems.push(...tickProblem(field, value, rules.tick));
  }
  problems.push(...lotProblem(order.quantity.field, order.quantity.value, order.tsym, rules.lot));
  if (rules.band) problems.push(...bandProblem(order, rules.band, rules.tick));
  if (rules.freeze !== undefined) problems.push(...freezeProblem(order, rules.freeze));
  return problems;
};

/** Throws VALIDATION_FAILED naming every broken rule; nothing was sent. */
export const checkExchangeRules = (orders: readonly RuledOrder[], rules: MarketRules): void => {
  const problems = orders.flatMap((o) => ruleProblems(o, rules));
  if (problems.length === 0) return;
  const { exch, tsym } = orders[0]!;
  throw new ValidationFailedError(
    `The exchange's rules for ${exch}:${tsym} (${describeRules(rules)}) refuse this order; nothing was sent: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}.`,
    { details: problems, outcome: 'not_executed' },
  );
};
