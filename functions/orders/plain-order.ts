/**
 * The order core's face for closing a position (the day's-limit square-off, `POST /positions/close`):
 * `exitOrders(gateway)` gives `placeExitOrder`, which places one protected limit order through the plain PlaceOrder
 * entry (plain-order-operation.ts) in-process, on the same order core as every write (in-process.ts): guardrails, the
 * exchange's rules, the governor, the journal and its stamp. It is an exit (`exit: true`), so the kill switch lets
 * it through; the caller answers for that: it reduces a position it has just read, by at most its quantity.
 *
 * `key` is the write's idempotency key, the same on every retry of that one exit (for instance the day, the position
 * and the attempt): a retry with it never places a second order; a reply lost on the way is settled by the broker's
 * OrderBook (the stamp in `remarks`). OrderBook is the day's: retry an unknown outcome within the day, and name
 * the day in the key. A refusal is the core's typed GatewayError (its `outcome` says whether anything may have
 * reached the broker).
 */
import type { DirectHandler } from './gateway/in-process.js';
import { placeOrder } from './plain-order-operation.js';

export interface ExitOrder {
  exch: string;
  tsym: string;
  /** The position's product: C, M or I (CNC, NRML, MIS). */
  prd: string;
  /** S closes a long position, B a short one. */
  trantype: 'B' | 'S';
  qty: number | string;
  /** The protected limit: on the instrument's tick and inside today's band (refused otherwise, nothing sent). */
  prc: string;
  /** Idempotency key: the same on every retry of this exit. */
  key: string;
  /** The caller's tag in the order's remarks (the stamp goes after it). */
  tag?: string;
}

export interface PlacedExit {
  norenordno: string;
  /** Answered from the journal, or from the broker's books for an earlier attempt: no order was sent this time. */
  replayed: boolean;
  /** Found in the broker's OrderBook by its stamp (an earlier attempt's reply was lost). */
  adopted: boolean;
}

export type PlaceExitOrder = (order: ExitOrder, deadline: number) => Promise<PlacedExit>;

interface PlainOrderResult {
  norenordno: string;
  idempotency: { replayed: boolean; adopted?: boolean };
}

/** `placeExitOrder` on an in-process gateway's order core (`inProcessGateway(...)`, built once per container). */
export const exitOrders = (gateway: { direct: (operation: typeof placeOrder) => DirectHandler }): PlaceExitOrder => {
  const place = gateway.direct(placeOrder);
  return async ({ key, tag, ...order }, deadline) => {
    const result = (await place(
      { ...order, prctyp: 'LMT', ...(tag === undefined ? {} : { tag }), exit: true, idempotencyKey: key },
      deadline,
    )) as PlainOrderResult;
    return {
      norenordno: result.norenordno,
      replayed: result.idempotency.replayed,
      adopted: result.idempotency.adopted === true,
    };
  };
};

/** The exchange's order a `placeExitOrder` of `order` would send (PlaceOrder's dry run: its checks, nothing sent). */
export type DryRunExitOrder = (order: Omit<ExitOrder, 'key'>, deadline: number) => Promise<Record<string, unknown>>;

export const exitOrderDryRun = (gateway: {
  direct: (operation: typeof placeOrder) => DirectHandler;
}): DryRunExitOrder => {
  const place = gateway.direct(placeOrder);
  return async ({ tag, ...order }, deadline) =>
    (await place(
      { ...order, prctyp: 'LMT', ...(tag === undefined ? {} : { tag }), exit: true, dryRun: true },
      deadline,
    )) as Record<string, unknown>;
};
