/**
 * What the plan engine needs of a deployment (engine-wiring.ts wires them): the plan store, the operation table's entries
 * invoked in-process (each with the invocation's real deadline), the instrument's price and tick, the outbox, and
 * the account's scope for event ids. Its limits are in limits.ts.
 */
import type { PriceBand } from '../base/broker/market.js';
import type { LifecycleEvent } from '../base/schemas/events.js';
import type { DirectHandler } from '../orders/gateway/in-process.js';
import type { OptionChains } from '../orders/instruments/option-pick.js';
import type { PlanStore } from './store.js';

export type { DirectHandler };

export interface Instrument {
  /** The tick size (`ti`), e.g. "0.05". */
  tick: string;
  /** The lot size (`ls`): quantities are multiples of it. */
  lot?: number;
  /** The instrument's token (its freeze quantity is read by it). */
  token?: string;
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
  /** The plain PlaceOrder (plain-order-operation.ts): an option plan's entry, journaled and stamped. */
  placeOrder: DirectHandler;
  /** The day's OrderBook (GetOrderBook): what became of an option plan's entry. */
  orderBook: DirectHandler;
  /** The day's option chains (the instruments' copy): an option plan's contract is chosen from them. */
  chains: OptionChains;
  /**
   * Today's price band of a contract (GetQuotes `lc`/`uc`, kept for the day), or undefined where the broker gives
   * none: a protected limit is kept inside it, as the exchange refuses a limit beyond its circuit.
   */
  band: (exch: string, token: string, deadline: number) => Promise<PriceBand | undefined>;
  /** The exchange's freeze quantity of a contract (GetSecurityInfo), or undefined where the broker gives none. */
  freeze: (exch: string, token: string, deadline: number) => Promise<number | undefined>;
  /** Minutes before the close on an expiry day from which no new option entry is made (OPTION_ENTRY_CUTOFF_MINUTES). */
  expiryCutoffMinutes: number;
  /** The market-order protection band: `auto` or a percentage (MARKET_PROTECTION_PERCENT): an option entry's limit. */
  protectionPercent: string;
  /** Queues the events in the outbox (the EventForwarder publishes them and records them for GET /events). */
  publish: (events: LifecycleEvent[]) => Promise<void>;
  /** The deployment and account, for stable event ids. */
  scope: () => Promise<string>;
  /** A warning worth a log line and a metric (a price not read, a GTT cancelled as an orphan). */
  warn?: (message: string, fields: Record<string, unknown>) => void;
  now?: () => Date;
}
