/**
 * An order operation's input as the safety checks see it: the orders guardrails judge (an OCO's two legs) and the
 * price type and price each gets through the deployment's market-order rule (market-orders.ts).
 */
import type { GuardedOrder, PricedLeg } from '../../base/contract/operation.js';
import type { PlaceOcoInput, PlaceOrderInput } from '../../base/schemas/input.js';

/** Guardrails see each leg of an OCO as one order whose trigger is the leg's. */
export const ocoLegs = (oco: PlaceOcoInput): GuardedOrder[] =>
  [oco.target, oco.stopLoss].map((l) => ({
    exch: oco.exch,
    tsym: oco.tsym,
    qty: l.order.qty,
    prc: l.order.prc ?? '0',
    prd: l.order.prd,
    prctyp: l.order.prctyp,
    d: l.trigger,
  }));

export type Pricer = (leg: PricedLeg) => { prctyp: string; prc: string };

/** A single order's price type and price through the deployment's rule (the band is around its trigger `d`). */
export const priceOrder = <T extends PlaceOrderInput>(order: T, price: Pricer): T => ({
  ...order,
  ...price({
    exch: order.exch,
    tsym: order.tsym,
    trantype: order.trantype,
    prctyp: order.prctyp,
    prc: order.prc,
    reference: order.d,
    path: 'prc',
  }),
});

/** Each OCO leg's: the band is around the leg's own stop trigger (`trgprc`) when it has one, else its trigger. */
export const priceOcoLegs = <T extends PlaceOcoInput>(oco: T, price: Pricer): T => {
  const leg = (name: 'target' | 'stopLoss') => {
    const l = oco[name];
    const priced = price({
      exch: oco.exch,
      tsym: oco.tsym,
      trantype: l.order.trantype,
      prctyp: l.order.prctyp,
      prc: l.order.prc ?? '0',
      reference: l.order.trgprc ?? l.trigger,
      path: `${name}.order.prc`,
    });
    return { ...l, order: { ...l.order, ...priced } as typeof l.order };
  };
  return { ...oco, target: leg('target'), stopLoss: leg('stopLoss') };
};
