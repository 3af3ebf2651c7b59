/** The shape of one entry of the operation table (see operations.ts). */
import type { z } from 'zod';

import type { OrderView } from '../schemas/events.js';
import type { InstrumentFacts } from '../schemas/input.js';
import type { BrokerSession } from '../schemas/session.js';

/**
 * jData scalars are all strings on the wire (docs/explanation/broker-wire.md); OCO orders nest objects and arrays of them.
 * What an operation's `toJData` builds.
 */
export type JDataValue = string | readonly JDataValue[] | { readonly [field: string]: JDataValue };
export type JData = Record<string, JDataValue>;

/** One order as the deployment's guardrails see it (an OCO has two, one per leg). */
export interface GuardedOrder {
  exch: string;
  tsym: string;
  qty: string;
  prc: string;
  prd: string;
  prctyp: string;
  /** The trigger value. */
  d: string;
}

/** One order (or OCO leg) whose price type and price the deployment may rewrite (market orders: orders/safety/market-orders.ts). */
export interface PricedLeg {
  exch: string;
  tsym: string;
  trantype: string;
  prctyp: string;
  prc: string;
  /** The price a protection band is around: the GTT trigger `d`, or a stop-loss leg's own trigger price. */
  reference: string;
  /** How the caller names the leg's price (`prc`, `stopLoss.order.prc`), for error messages. */
  path: string;
}

/** Deployment settings that shape the jData of orders. */
export interface WireSettings {
  /** The exchange algo id (the deployment's `algoId`): order jData carries it as `algo_id` when set (docs/explanation/compliance.md). */
  algoId?: string;
  /** The journaled write's stamp (base/broker/order-stamps.ts): order jData carries it in `remarks` after the tag. */
  stamp?: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * `order` operations change orders at the broker: a lost reply leaves their outcome unknown.
 * `session` operations change the session; `read` operations change nothing.
 */
export type OperationKind = 'order' | 'read' | 'session';

export interface OperationDefinition<In = unknown, Reply = unknown, Result = unknown> {
  /** Our name for the operation: the Lambda's logical name, its Step Functions task name, the OpenAPI operationId. */
  name: string;
  /** The broker operation it calls: the path segment after the base URL's prefix (e.g. `GetPendingGTTOrder`). */
  broker: string;
  /** kebab-case id used for file names, function names and OpenAPI operation ids. */
  id: string;
  summary: string;
  route: { method: HttpMethod; path: string };
  /** Path parameters of the route and the input field each fills (e.g. `alId` -> `al_id`). */
  pathParams?: Record<string, string>;
  /**
   * The operation's own query parameters (e.g. list filters): each fills the input field of the same name. With
   * `dryRun` (on the operations that support dry run) they are the only query parameters the operation takes: any
   * other is refused with 400 VALIDATION_FAILED naming it, never ignored (see base/contract/gateway-request.ts).
   */
  query?: readonly string[];
  successStatus: 200 | 201;
  kind: OperationKind;
  /** Safe to repeat automatically after a timeout or an unavailable broker (nothing changes twice). */
  retrySafe: boolean;
  /**
   * Idempotency keys: `required` (place, unless the deployment turns that off), `optional` (modify, cancel), or
   * absent (a key is refused: the operation either changes nothing or cannot be replayed meaningfully).
   */
  idempotency?: 'required' | 'optional';
  /**
   * Refused with TRADING_HALTED while the kill switch is on (place and modify: they add or change exposure; a cancel
   * only removes it and stays available). Only for `order` operations.
   */
  refusedWhileHalted?: boolean;
  /**
   * A `refusedWhileHalted` entry's input that the kill switch lets through all the same: an exit, which only reduces
   * a position its caller read (the plain PlaceOrder's `exit: true`, a square-off's). Never undone when it lands
   * after the switch went on (docs/explanation/order-safety.md, "Plain orders").
   */
  haltExempt?(input: In): boolean;
  /**
   * The input with each order's (OCO: each leg's) price type and price passed through `price`: how market orders
   * become protected limit orders before guardrails, the dry run and the broker see them. Place and modify.
   */
  priceOrders?(input: In, price: (leg: PricedLeg) => { prctyp: string; prc: string }): In;
  /** The orders the deployment's guardrails check (place and modify: the order; OCO: both legs). */
  guardedOrders?(input: In): GuardedOrder[];
  /** What the caller sends (validated; nothing reaches the broker when it fails). */
  input: z.ZodType<In>;
  /**
   * A valid input as a direct caller sends it (path parameters as fields): the OpenAPI document's example, and what
   * the generic tests (leak check, fuzzing, OpenAPI, client) send, so a new entry is covered without editing them.
   * `test/unit/operation-table.test.ts` checks it against `input`.
   */
  example: Record<string, unknown>;
  /**
   * The jData fields, in the broker's documented order, from validated input, the deployment's session and its wire
   * settings (the exchange algo id of orders, when the deployment sets one).
   */
  toJData(input: In, session: BrokerSession, wire?: WireSettings): JData;
  /** The broker's success reply. */
  reply: z.ZodType<Reply>;
  /**
   * What the gateway returns for that reply (given the validated input, e.g. for filters), and its schema for the
   * docs. May throw a GatewayError (e.g. ORDER_NOT_FOUND when the one order asked for is not in the list).
   */
  toResult(reply: Reply, input: In): Result;
  result: z.ZodType<Result>;
  /** A `Not_Ok` text that means "nothing here" rather than failure, and the reply it stands for (then `toResult`). */
  emptyReply?: { emsg: string; reply: Reply };
  /**
   * The lifecycle event a broker success publishes (docs/reference/events.md; never for dry runs or idempotent replays), and
   * the order it describes, from the input and the `al_id` the broker answered. Without `order` (cancel) the event
   * describes the order as the watcher last saw it. Absent: the operation publishes nothing.
   */
  lifecycle?: {
    detailType: 'GTT Placed' | 'GTT Modified' | 'GTT Cancelled';
    order?(input: In, alId: string): OrderView;
  };
  /**
   * A partial modify (PATCH): `input` validates the caller's changes only; the pending order is read with `read`
   * (the one-order read entry), `merge` lays the changes over it and `full` (the modify's own input schema) checks
   * the result, which every later step (order safety, the exchange's rules, `toJData`, the event) sees as the
   * entry's input `In`. Right before sending, the order is read again and must not have changed (ORDER_CHANGED).
   */
  patch?: {
    read: OperationDefinition<unknown, unknown, unknown>;
    merge(record: unknown, changes: Record<string, unknown>): Record<string, unknown>;
    full: z.ZodType<In>;
    /** The version of a record (the `ETag` of the read entry), and the fields in which a version differs from it. */
    version(record: unknown): string;
    changed(version: string, record: unknown): string[];
    /** Why the record is not this entry's kind of order (an OCO sent to the single order's PATCH), if it is not. */
    otherKind?(record: unknown): string | undefined;
  };
  /** Read entries of one order: the version the result is at, sent as its `ETag` header (HTTP). */
  etag?(result: Result): string;
  /**
   * The one-order read: answered from the GttWatcher's copy of the pending list while it is fresh, else by the
   * broker's list (functions/orders/gateway/order-copy.ts); `?fresh=true` asks the broker. Its entry gets the events table.
   */
  fromCopy?: true;
  /**
   * A read of one record of a list reply: its al_id. Only the records with it are decoded, the others are parsed
   * for their al_id alone (functions/base/broker/one-record.ts); `toResult` gets those records.
   */
  oneRecord?(input: In): string;
  /**
   * Read entries only: a second read, after the entry's own, whose result the entry folds into its own (the
   * triggered history with the orders its GTTs placed). `other` is undefined when that read failed: the entry's
   * own answer still goes out, saying so.
   */
  alsoRead?: {
    operation: OperationDefinition<unknown, unknown, unknown>;
    fold(result: Result, other: unknown): Result;
  };
  /**
   * Read entries of one instrument (a quote): the instrument the input names. Today's rules of it are read before
   * the call as an order's are (the container, the account's copy, else the broker's SearchScrip), and `withRules`
   * lays them on the input `toJData` and `toResult` see (the token the broker reads by, the tick, lot and band the
   * caller reads). A symbol the broker does not list is refused there, naming the closest listed ones.
   */
  instrument?: {
    of(input: In): { exch: string; tsym: string };
    withRules(input: In, rules: InstrumentFacts): In;
  };
}

/** The jData of most reads: the session's user id alone. */
const uidOnly = (_input: unknown, session: BrokerSession): JData => ({ uid: session.uid });

type WithDefaults<In, Reply, Result> = Omit<
  OperationDefinition<In, Reply, Result>,
  'toJData' | 'toResult' | 'result'
> & {
  /** Default: `{uid}` of the session. */
  toJData?: OperationDefinition<In, Reply, Result>['toJData'];
};

/**
 * Identity with inference and the table's defaults: keeps each entry's types checked while the table holds them side
 * by side. Without `toJData` the jData is the session's `{uid}`; without `toResult` and `result` the result is the
 * broker's reply as its schema decoded it.
 */
export function defineOperation<In, Reply>(
  definition: WithDefaults<In, Reply, Reply> & { toResult?: never; result?: never },
): OperationDefinition<In, Reply, Reply>;
export function defineOperation<In, Reply, Result>(
  definition: WithDefaults<In, Reply, Result> & Pick<OperationDefinition<In, Reply, Result>, 'toResult' | 'result'>,
): OperationDefinition<In, Reply, Result>;
export function defineOperation<In, Reply, Result>(
  definition: WithDefaults<In, Reply, Result> &
    Partial<Pick<OperationDefinition<In, Reply, Result>, 'toResult' | 'result'>>,
): OperationDefinition<In, Reply, Result> {
  return {
    ...definition,
    toJData: definition.toJData ?? uidOnly,
    toResult: definition.toResult ?? ((reply: Reply) => reply as unknown as Result),
    result: definition.result ?? (definition.reply as unknown as z.ZodType<Result>),
  };
}

/** The validated input of an entry: what its input schema outputs and its `toJData` takes. */
export type InputOf<Op> = Op extends OperationDefinition<infer In, infer _Reply, infer _Result> ? In : never;
/** The broker reply of an entry, as its reply schema decodes it. */
export type ReplyOf<Op> = Op extends OperationDefinition<infer _In, infer Reply, infer _Result> ? Reply : never;
/** The result an entry answers (its `toResult`'s, or the decoded reply when it has none). */
export type ResultOf<Op> = Op extends OperationDefinition<infer _In, infer _Reply, infer Result> ? Result : never;

/**
 * The table's element type. zod schema types are invariant in their output type, so entries with different
 * In/Reply/Result types only share a type through `any`; each entry is fully typed where it is defined, and the
 * generic pipeline only moves values from `input.parse` to `toJData` and from `reply.parse` to `toResult`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: heterogeneous table of typed entries
export type AnyOperation = OperationDefinition<any, any, any>;

/**
 * Whether an operation's function uses the account's trading controls (orders/safety/trading-controls.ts): order writes take
 * a permit, and Logout writes the session's end into the same item (every container's next order re-reads the secret).
 */
export const usesTradingControls = (op: Pick<AnyOperation, 'kind' | 'broker'>): boolean =>
  op.kind === 'order' || op.broker === 'Logout';

/** The writes that change an existing order (modify, PATCH, cancel): what a lease on the order protects. */
export const changesAnOrder = (op: Pick<AnyOperation, 'kind' | 'broker'>): boolean =>
  op.kind === 'order' && ['ModifyGTTOrder', 'ModifyOCOOrder', 'CancelGTTOrder'].includes(op.broker);
