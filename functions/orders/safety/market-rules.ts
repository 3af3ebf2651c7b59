/**
 * The market's day-to-day rules on an order (beside the instrument's tick, lot and precision: exchange-rule-checks.ts):
 * - the price band. A GTT is held for up to a year and fires on a later day, so a trigger beyond today's band is not
 *   refused (it cannot fire today, and tomorrow's band is another). What the exchange refuses when the GTT fires is a
 *   limit price too far from the price of that moment: so each leg's limit price must lie within the band's width
 *   around its own trigger. The width is today's band relative to its reference, `(uc - lc) / (uc + lc)` (the ±x of
 *   the instrument), and the allowed prices `[trigger * (1 - x), trigger * (1 + x)]` on the tick.
 * - the freeze quantity: the exchange refuses an order above it (NSE's quantity freeze of index derivatives).
 * Each is checked only where the broker gives it; the dry run lists what was checked (`CheckedRules`). A plain order
 * (PlaceOrder) goes to the exchange at once: its limit itself must lie inside today's band `[lc, uc]`.
 */
import type { PriceBand } from '../../base/broker/market.js';
import type { FieldProblem } from '../../base/contract/errors.js';
import { bandAround, compare, onTickText } from './grid.js';

interface Field {
  field: string;
  value: string;
}

/** What the band and freeze checks read of an order (a RuledOrder of exchange-rule-checks.ts). */
interface MarketOrder {
  exch: string;
  tsym: string;
  quantity: Field;
  trigger?: Field | undefined;
  limit?: Field | undefined;
  now?: boolean | undefined;
}

const NOT_GIVEN = 'not given by the broker' as const;

/** Where a check's rules came from (functions/orders/instruments/rules.ts), for the dry run. */
export interface RulesSource {
  /** India's calendar day the rules are of. */
  day: string;
  /** Where the tick, lot and precision were read: the day's symbol master or the broker's SearchScrip. */
  instrument: 'symbol master' | 'SearchScrip';
  /** When the band and freeze quantity were read from the broker (GetQuotes, GetSecurityInfo), ISO. */
  marketReadAt: string;
  /** What this check read them from: the broker now, the account's copy, or this container's memory of either. */
  via: 'broker' | 'copy' | 'container';
}

/** The rules a dry run says were checked, with their values. */
export interface CheckedRules {
  instrument: string;
  tick: string;
  lot: number;
  precision: number;
  /** Today's band and its width, or that the broker gives none (not checked). */
  band: { lc: string; uc: string; width: string } | typeof NOT_GIVEN;
  /** The largest quantity one order may carry, or that the broker gives none (not checked). */
  freeze: number | typeof NOT_GIVEN;
  /** Where they came from. */
  source?: RulesSource;
}

/** "10" for a band 1350–1650: the band's half-width over its midpoint, in percent, two decimals at most. */
export const bandPercent = (band: PriceBand): string => {
  const uc = Number(band.uc);
  const lc = Number(band.lc);
  return String(Math.round(((uc - lc) / (uc + lc)) * 100 * 100) / 100);
};

const percentBetween = (a: string, b: string): string =>
  String(Math.round((Math.abs(Number(a) - Number(b)) / Number(b)) * 100 * 100) / 100);

/**
 * "limit 1800.00 is 20% from its trigger 1500.00; NSE:INFY-EQ's band today is ±10% (1350.00–1650.00): use at most
 * 1650.00".
 */
export const bandProblem = (order: MarketOrder, band: PriceBand, tick: string): FieldProblem[] => {
  const { trigger, limit } = order;
  if (order.now && limit) return todaysBandProblem(order, limit, band, tick);
  if (!trigger || !limit) return [];
  const [low, high] = bandAround(trigger.value, band.lc, band.uc, tick);
  const above = compare(limit.value, high) > 0;
  if (!above && compare(limit.value, low) >= 0) return [];
  const today = `${order.exch}:${order.tsym}'s band today is ±${bandPercent(band)}% (${onTickText(band.lc, tick)}–${onTickText(band.uc, tick)})`;
  return [
    {
      field: limit.field,
      message: `limit ${onTickText(limit.value, tick)} is ${percentBetween(limit.value, trigger.value)}% from its trigger ${onTickText(trigger.value, tick)}; ${today}: use ${above ? `at most ${high}` : `at least ${low}`}`,
    },
  ];
};

/** "limit 1700.00 is outside NSE:INFY-EQ's band today (1350.00–1650.00): use at most 1650.00". */
const todaysBandProblem = (order: MarketOrder, limit: Field, band: PriceBand, tick: string): FieldProblem[] => {
  const above = compare(limit.value, band.uc) > 0;
  if (!above && compare(limit.value, band.lc) >= 0) return [];
  const edge = onTickText(above ? band.uc : band.lc, tick);
  return [
    {
      field: limit.field,
      message: `limit ${onTickText(limit.value, tick)} is outside ${order.exch}:${order.tsym}'s band today (${onTickText(band.lc, tick)}–${onTickText(band.uc, tick)}): use ${above ? 'at most' : 'at least'} ${edge}`,
    },
  ];
};

/** "NIFTY…F's freeze quantity is 1800: 1950 is above it; split it into orders of at most 1800 (several GTTs)". */
export const freezeProblem = (order: MarketOrder, freeze: number): FieldProblem[] => {
  const qty = Number(order.quantity.value);
  if (!Number.isFinite(qty) || qty <= freeze) return [];
  return [
    {
      field: order.quantity.field,
      message: `${qty} is above ${order.exch}:${order.tsym}'s freeze quantity of ${freeze}, which the exchange refuses in one order: split it into orders of at most ${freeze} (several GTTs)`,
    },
  ];
};

/** "tick 0.05, lot 1, band ±10% (1350–1650), freeze 1800" for the refusal's message. */
export const describeRules = (rules: {
  tick: string;
  lot: number;
  band?: PriceBand | undefined;
  freeze?: number | undefined;
}): string =>
  [
    `tick ${rules.tick}`,
    `lot ${rules.lot}`,
    ...(rules.band ? [`band ±${bandPercent(rules.band)}% (${rules.band.lc}–${rules.band.uc})`] : []),
    ...(rules.freeze !== undefined ? [`freeze ${rules.freeze}`] : []),
  ].join(', ');

/** What was checked, for the dry run. */
export const checkedRules = (
  exch: string,
  tsym: string,
  rules: { tick: string; lot: number; precision: number; band?: PriceBand | undefined; freeze?: number | undefined },
  source?: RulesSource,
): CheckedRules => ({
  instrument: `${exch}:${tsym}`,
  tick: rules.tick,
  lot: rules.lot,
  precision: rules.precision,
  band: rules.band ? { ...rules.band, width: `±${bandPercent(rules.band)}%` } : NOT_GIVEN,
  freeze: rules.freeze ?? NOT_GIVEN,
  ...(source ? { source } : {}),
});
