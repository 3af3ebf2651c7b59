/**
 * What the plan engine needs of a deployment (runtime.ts wires them): the plan store, the operation table's entries
 * invoked in-process (each with the invocation's real deadline), the instrument's price and tick, the outbox, and
 * the account's scope for event ids.
 */
import type { LifecycleEvent } from '../base/schemas/events.js';
import type { DirectHandler } from '../orders/gateway/in-process.js';
import type { PlanStore } from './store.js';

export type { DirectHandler };

export interface Instrument {
  /** The tick size (`ti`), e.g. "0.05". */
  tick: string;
  /** The lot size (`ls`): quantities are multiples of it. */
  lot?: number;
}

export interface PlanDeps {
  store: PlanStore;
  place: DirectHandler;
  placeOco: DirectHandler;
  modify: DirectHandler;
  cancel: DirectHandler;
  /** One page of the pending GTTs. */
  pending: DirectHandler;
  /** One page of the triggered history, with each fired GTT's order. */
  triggered: DirectHandler;
  /** The instrument's tick (SearchScrip); throws its named error when the broker cannot be read. */
  instrument: (exch: string, tsym: string, deadline: number) => Promise<Instrument>;
  /** The last traded price; throws its named error when it cannot be read. */
  lastPrice: (exch: string, tsym: string, deadline: number) => Promise<number>;
  /** Queues the events in the outbox (the EventForwarder publishes them and records them for GET /events). */
  publish: (events: LifecycleEvent[]) => Promise<void>;
  /** The deployment and account, for stable event ids. */
  scope: () => Promise<string>;
  /** A warning worth a log line and a metric (a price not read, a GTT cancelled as an orphan). */
  warn?: (message: string, fields: Record<string, unknown>) => void;
  now?: () => Date;
}

/**
 * The late window: how long after our client gave up on a broker write (the deadline of the invocation that sent
 * it) the broker may still carry it out. A plan's try is leased until that deadline plus this window; past it, a try
 * the broker does not show never reached it, and the step is tried again with a new key (docs/plans.md, "Tries").
 *
 * 15 s: brokers of this family are taken to process a request within their own gateway's timeout, about 10 s
 * (longer than our own broker timeout, 8 s by default: BROKER_TIMEOUT_MS), and 5 s more cover a request still
 * queued at that gateway when our side gave up. This is an assumption about the broker, not a documented guarantee:
 * the emulator's `late` delay fault (docs/emulator.md) models a broker acting after the client left, and the plans'
 * model-based test keeps every late action inside this window. The order journal's late bound is the same one: keep
 * this name when the two meet.
 */
export const LATE_WINDOW_MS = 15_000;
/** Runs in a row without a price before the trailing stop says so in an event. */
export const PRICE_MISSES_BEFORE_EVENT = 3;
/** Refused tries of one exit generation before the plan waits for the trader. */
export const MAX_EXIT_TRIES = 20;
/** Exit generations (a new exit after an exit order was rejected) before the plan waits for the trader. */
export const MAX_EXIT_GENERATIONS = 3;
