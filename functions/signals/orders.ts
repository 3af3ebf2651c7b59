/**
 * What one alert asks of the broker, for each kind of action (docs/reference/signals.md, "Actions"), as the bodies the
 * operation table's entries and the plans take: a GTT (`POST /gtt-orders`), an OCO (`POST /gtt-orders/oco`), a
 * bracket or trailing-stop plan (`POST /plans`). Every price is an offset from the alert's price on the instrument's
 * tick (prices.ts), rounded for the side of the order it belongs to: a bracket's exit legs for the exit's side.
 * Every order carries its strategy's tag (`strategyTag`): the broker keeps it in `remarks`, the lists show it; a
 * plan's GTTs carry the plan's own stamp at the broker, and the plan the tag.
 */
import type { PlanInput } from '../base/schemas/plans.js';
import {
  type Alert,
  fitsStrategyTag,
  type OffsetRule,
  type SignalAction,
  type SignalOrder,
  type Strategy,
} from '../base/schemas/signals.js';
import { alertPrice, alertTypeOf, offsetPrice, quantityOf, type Side, sideOf } from './prices.js';
import type { Instrument } from './symbols.js';

type Placing = Extract<SignalAction, { kind: 'gtt' | 'oco' | 'bracket' | 'trailing-stop' }>;

/** One alert's order, ready for its entry: what is sent and how it is called. */
export type AlertOrder =
  | { kind: 'gtt'; body: Record<string, unknown> }
  | { kind: 'oco'; body: Record<string, unknown> }
  | { kind: 'plan'; plan: PlanInput; entry: Record<string, unknown> };

interface Terms {
  instrument: Instrument;
  side: Side;
  qty: number;
  /** The alert's price: every offset's base. */
  base: string;
  /** The strategy's tag, on every order. */
  tag: string;
}

/** The strategy's own tag; else its name when that is a tag with room for the stamp; else its id. */
export const strategyTag = (strategy: Pick<Strategy, 'tag' | 'name' | 'strategyId'>): string =>
  strategy.tag ?? (fitsStrategyTag(strategy.name) ? strategy.name : strategy.strategyId);

const opposite = (side: Side): Side => (side === 'B' ? 'S' : 'B');
const isMarket = (prctyp: string) => prctyp === 'MKT' || prctyp === 'SL-MKT';

/** A leg's trigger and price at their offsets, rounded for `side`; `field` names the leg in a refusal. */
const legAt = (terms: Terms, side: Side, leg: { trigger: OffsetRule; price: OffsetRule }, field = '') => {
  const tick = terms.instrument.rules.tick;
  const name = (part: string) => (field ? `${field}.${part}` : part);
  return {
    trigger: offsetPrice(terms.base, leg.trigger.offset, tick, side, name('trigger')),
    price: offsetPrice(terms.base, leg.price.offset, tick, side, name('price')),
  };
};

/** A single GTT's body (the place entry's input): the trigger `d`, its alert type, the limit price. */
const gttBody = (order: SignalOrder, terms: Terms, at: { trigger: string; price: string }) => ({
  exch: terms.instrument.exch,
  tsym: terms.instrument.tsym,
  qty: terms.qty,
  prd: order.prd,
  trantype: terms.side,
  prctyp: order.prctyp,
  ret: order.ret,
  ai_t: alertTypeOf(at.trigger, terms.base, terms.side),
  d: at.trigger,
  ...(isMarket(order.prctyp) ? {} : { prc: at.price }),
  tag: terms.tag,
});

/** The terms every placing action shares: side, instrument (already confirmed), quantity, base price. */
export const termsOf = (
  alert: Alert,
  order: SignalOrder,
  instrument: Instrument,
  strategy: Pick<Strategy, 'maxQty' | 'tag' | 'name' | 'strategyId'>,
): Terms => ({
  side: sideOf(alert, order),
  instrument,
  qty: quantityOf(alert, order, strategy.maxQty, instrument.rules.lot, instrument.tsym),
  base: alertPrice(alert),
  tag: strategyTag(strategy),
});

/** The order one alert places under `action`; refused (VALIDATION_FAILED) when a price or quantity cannot be made. */
export const alertOrder = (action: Placing, terms: Terms): AlertOrder => {
  const order = action.order;
  switch (action.kind) {
    case 'gtt':
      return { kind: 'gtt', body: gttBody(order, terms, legAt(terms, terms.side, action)) };
    case 'oco': {
      // Both legs close one position: the alert's side is theirs (a sell alert sells at the target or the stop).
      const leg = (name: 'target' | 'stopLoss') => {
        const at = legAt(terms, terms.side, action[name], name);
        return {
          trigger: at.trigger,
          order: {
            trantype: terms.side,
            prctyp: order.prctyp,
            qty: terms.qty,
            prd: order.prd,
            ret: order.ret,
            ...(isMarket(order.prctyp) ? {} : { prc: at.price }),
          },
        };
      };
      const body = {
        exch: terms.instrument.exch,
        tsym: terms.instrument.tsym,
        // The alert's price as the LTP: the OCO's own check that it lies between the two triggers.
        ltp: terms.base,
        target: leg('target'),
        stopLoss: leg('stopLoss'),
        tag: terms.tag,
      };
      return { kind: 'oco', body };
    }
    case 'bracket': {
      const entry = gttBody(order, terms, legAt(terms, terms.side, action.entry, 'entry'));
      const exit = opposite(terms.side);
      return {
        kind: 'plan',
        entry,
        plan: {
          kind: 'bracket',
          entry,
          tag: terms.tag,
          target: legAt(terms, exit, action.target, 'target'),
          stopLoss: legAt(terms, exit, action.stopLoss, 'stopLoss'),
        },
      };
    }
    case 'trailing-stop': {
      const stop = gttBody(order, terms, legAt(terms, terms.side, action));
      return {
        kind: 'plan',
        entry: stop,
        plan: {
          kind: 'trailing-stop',
          order: stop,
          tag: terms.tag,
          trailBy: action.trailBy,
          ...(action.step === undefined ? {} : { step: action.step }),
        },
      };
    }
  }
};
