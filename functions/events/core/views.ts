/**
 * Orders as events describe them (base/schemas/events.ts: OrderView), built from what the caller sent (the gateway's
 * producer) or from the broker's record (the watcher's), and the stable event ids derived from them.
 *
 * Both producers must give one change one id, so the ids hash a canonical form of the view: keys sorted, numeric
 * strings as numbers (`1500.00` and `1500` are one price), the symbol as the broker lists it.
 */
import { createHash } from 'node:crypto';

import type { EventLeg, OrderView, SignalDetailType } from '../../base/schemas/events.js';
import type { FiredOrder } from '../../base/schemas/events.js';
import type { PlaceOcoInput, PlaceOrderInput } from '../../base/schemas/input.js';
import type { GttOrder } from '../../base/schemas/reply.js';
import type { BookOrder } from '../../base/schemas/reply.js';

const str = (value: unknown): string => (value === undefined || value === null ? '' : String(value));
const withTag = (tag: string | undefined) => (tag ? { tag } : {});

/** The fields a single order has under the same names in the caller's input and in the broker's record. */
interface SingleOrderFields {
  exch: string;
  tsym: string;
  trantype: string;
  d: string;
  ai_t: string;
  qty: string | number;
  prc: string;
  prctyp: string;
  prd: string;
  tag?: string | undefined;
}

const singleView = (alId: string, order: SingleOrderFields): OrderView => ({
  al_id: alId,
  type: 'single',
  exch: order.exch,
  tsym: order.tsym,
  side: order.trantype,
  trigger: order.d,
  alertType: order.ai_t,
  quantity: Number(order.qty),
  price: order.prc,
  priceType: order.prctyp,
  product: order.prd,
  ...withTag(order.tag),
});

/** A single order as the caller sent it (place or modify input), once the broker gave it `al_id`. */
export const viewOfOrderInput = (alId: string, order: PlaceOrderInput): OrderView => singleView(alId, order);

/** An OCO as the caller sent it. */
export const viewOfOcoInput = (alId: string, oco: PlaceOcoInput): OrderView => {
  const leg = (l: PlaceOcoInput['target']): EventLeg => ({
    trigger: l.trigger,
    side: l.order.trantype,
    quantity: Number(l.order.qty),
    price: l.order.prc ?? '0',
    priceType: l.order.prctyp,
    product: l.order.prd,
    ...(l.order.trgprc === undefined ? {} : { triggerPrice: l.order.trgprc }),
  });
  return {
    al_id: alId,
    type: 'oco',
    exch: oco.exch,
    tsym: oco.tsym,
    side: oco.target.order.trantype,
    target: leg(oco.target),
    stopLoss: leg(oco.stopLoss),
    ...withTag(oco.tag),
  };
};

/** An order as the broker lists it (pending list or triggered history), normalised by the operation table. */
export const viewOfRecord = (order: GttOrder): OrderView => {
  if (order.type === 'oco' && order.target && order.stopLoss) {
    const leg = (l: NonNullable<GttOrder['target']>): EventLeg => ({
      trigger: l.trigger,
      side: str(l.order.trantype),
      quantity: Number(l.order.qty ?? 0),
      price: str(l.order.prc ?? '0'),
      priceType: str(l.order.prctyp),
      product: str(l.order.prd),
      // The broker writes an empty trgprc for a leg without one.
      ...(l.order.trgprc ? { triggerPrice: l.order.trgprc } : {}),
    });
    return {
      al_id: order.al_id,
      type: 'oco',
      exch: order.exch,
      tsym: order.tsym,
      side: str(order.target.order.trantype),
      target: leg(order.target),
      stopLoss: leg(order.stopLoss),
      ...withTag(order.tag),
    };
  }
  return singleView(order.al_id, order);
};

const NUMERIC = /^-?\d+(\.\d+)?$/;
const canonical = (value: unknown): unknown => {
  if (typeof value === 'string' && NUMERIC.test(value)) return Number(value);
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
};

const digest = (...parts: string[]): string =>
  createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);

/** What an order is, without its id: equal for the caller's input and the broker's record of the same order. */
export const contentHash = (view: OrderView): string => {
  const { al_id: _id, ...content } = view;
  return digest(JSON.stringify(canonical(content)));
};

/**
 * Whose orders: one deployment (its event bus) acting for one broker account. `al_id`s are the broker's counters, so
 * two accounts, two deployments, or two sandbox runs of one day share them: the ids of order events include both.
 */
export interface EventScope {
  /** The deployment: its event bus name (both producers know it as `eventBusName`). */
  deployment: string;
  /** The broker account the deployment's secret names. */
  uid: string;
  actid: string;
}

/** The account part of a scope, from the session secret. */
export const scopeOf = (deployment: string, session: { uid: string; actid: string }): EventScope => ({
  deployment,
  uid: session.uid,
  actid: session.actid,
});

/**
 * The stable ids of one scope's order events. An order is placed once and ends once (cancelled, triggered or removed:
 * whichever is seen, it is the one end of that order), so those ids hang on the scope and `al_id`; a modification
 * also on the content it produced.
 */
export const orderEventIds = (scope: EventScope) => {
  const where = [scope.deployment, scope.uid, scope.actid].join('\u0001');
  return {
    placed: (alId: string) => digest('placed', where, alId),
    modified: (alId: string, hash: string) => digest('modified', where, alId, hash),
    ended: (alId: string) => digest('ended', where, alId),
    /** The order a fired GTT placed reached its final status: once per order and status. */
    settled: (alId: string, norenordno: string, status: string) => digest('settled', where, alId, norenordno, status),
  };
};
export type OrderEventIds = ReturnType<typeof orderEventIds>;

/**
 * The stable ids of the other events: a renewal's secret version is unique, a snapshot version only per deployment;
 * a signal's event is one per signal and kind (a second delivery of one completion is recorded once); an assistant's
 * act one per request and tool.
 */
export const eventIds = {
  sessionExpired: (deployment: string, epoch: string) => digest('session-expired', deployment, epoch),
  sessionRenewed: (versionId: string) => digest('session-renewed', versionId),
  killSwitch: (halted: boolean, changedAt: string) => digest('kill-switch', halted ? 'on' : 'off', changedAt),
  signal: (detailType: SignalDetailType, signalId: string) => digest(detailType, signalId),
  assistantAction: (assistantId: string, requestId: string, tool: string) =>
    digest('Assistant Action', assistantId, requestId, tool),
  /** One per account and India day: a limit is hit once a day. */
  riskLimitHit: (scope: string, day: string) => digest('Risk Limit Hit', scope, day),
  /** An open position without cover: once per IST day, position, net quantity and uncovered quantity. */
  positionUnprotected: (scope: string, day: string, position: string, netQty: number, uncoveredQty: number) =>
    digest('position-unprotected', scope, day, position, String(netQty), String(uncoveredQty)),
};

/** The order a fired GTT placed, as events carry it. */
export const viewOfFiredOrder = (order: BookOrder): FiredOrder => ({
  norenordno: order.norenordno,
  status: order.status,
  filledQty: order.filledQty,
  ...(order.averagePrice === undefined ? {} : { averagePrice: order.averagePrice }),
  ...(order.rejection === undefined ? {} : { rejection: order.rejection }),
});
