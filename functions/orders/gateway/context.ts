/**
 * The request's record: what the observing middlewares (access log, metrics, HTTP response, audit) read once the
 * request has ended, whether it succeeded or failed. The order path's steps never read it: each step returns a typed
 * value the next step is given (order-path.ts); the path writes here what the logs and metrics must tell, as it
 * happens, so a failure still tells how far the request got. Every optional field is "not reached (yet)".
 */
import type { GatewayRequest, RequestSource } from '../../base/contract/gateway-request.js';
import type { Converted } from '../../base/schemas/conversion.js';
import type { CopyMiss } from './order-copy.js';
import type { EventFate } from './order-events.js';

/** The order as the last step that reached it had it: validated, merged (a PATCH), checked and priced. */
export interface RecordedOrder {
  input: unknown;
  /** The validated input as the caller asked, when the deployment rewrote it (a market order made a limit order). */
  requested?: unknown;
  /** What was done to its market orders (the reply, the audit record and the event say it). */
  converted?: Converted;
}

/** What happened, for the access log and the metrics: written as it happens, so a failure still tells it. */
export interface RequestFacts {
  replayed?: boolean;
  brokerAttempts?: number;
  brokerMs?: number;
  governorCalls?: number;
  /** What became of the success's lifecycle event: in the outbox, published directly, or neither. */
  event?: EventFate;
  /** The broker's `stat` of a success. */
  brokerStat?: string;
  /** GetGTTOrder: answered from the watcher's copy (`hit`), or why the broker's list was read (order-copy.ts). */
  copy?: 'hit' | CopyMiss;
}

export interface RequestRecord {
  startedAt: number;
  source: RequestSource;
  /** The request as read, set before its validation (the audit record of a refused request shows what was asked). */
  request?: GatewayRequest;
  /** Absent until the input passed validation. */
  order?: RecordedOrder;
  facts: RequestFacts;
}

/**
 * An observer of the request (access log, metrics, the HTTP response, audit): told the record once the path ended.
 * `after` may return the result as the caller gets it (the HTTP response wraps it; undefined leaves it as it is).
 */
export interface RequestObserver {
  name: string;
  after?: (record: RequestRecord, result: unknown) => unknown;
  onError?: (record: RequestRecord, error: unknown) => void;
}

/** A new record, as the core opens it before the path's first step (gateway-handler.ts). */
export const openRecord = (source: RequestSource): RequestRecord => ({
  startedAt: performance.now(),
  source,
  facts: {},
});
