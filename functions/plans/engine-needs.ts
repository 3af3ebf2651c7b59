/**
 * What the plan engine needs of a deployment (engine-wiring.ts wires them): the plan store, the operation table's entries
 * invoked in-process (each with the invocation's real deadline), the instrument's price and tick, the outbox, and
 * the account's scope for event ids. Its limits are in limits.ts.
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
