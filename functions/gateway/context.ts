/** The request context: what the shared middlewares and the executor share through the Lambda context. */
import type { Context } from 'aws-lambda';

import type { GatewayRequest, RequestSource } from '../contract/gateway-request.js';
import type { CheckedRules } from '../safety/market-rules.js';
import type { Converted } from '../schemas/conversion.js';
import type { BrokerSession } from '../schemas/session.js';
import type { CopyMiss } from './order-copy.js';
import type { EventFate } from './order-events.js';

export interface GatewayState {
  startedAt: number;
  source: RequestSource;
  request?: GatewayRequest;
  /** The validated input (the operation schema's output), market orders already converted (order-safety.ts). */
  input?: unknown;
  /** The validated input as the caller asked, when the deployment rewrote it (a market order made a limit order). */
  requestedInput?: unknown;
  /** A PATCH: the caller's changes (and If-Match), which an idempotency key stands for (order-patch.ts). */
  idempotencyInput?: unknown;
  /** A PATCH: the checks made right before sending (If-Match, the order read again), inside the idempotent step. */
  beforeSend?: () => Promise<void>;
  /** A modify, PATCH or cancel: its order's lease, asked for (order-lease.ts); resolves once held, rejects ORDER_BUSY. */
  lease?: Promise<void>;
  /** Gives the lease back (kept for the late window when `error` is an unknown outcome); the reply waits for it. */
  endLease?: (error?: unknown) => Promise<void>;
  /** What was done to its market orders (the reply, the audit record and the event say it). */
  converted?: Converted;
  session?: () => Promise<BrokerSession>;
  refreshSession?: () => Promise<BrokerSession>;
  /** Set by the handler for the access log: the broker's `stat` and how many calls were sent. */
  brokerStat?: string;
  brokerAttempts?: number;
  /** Milliseconds spent in the broker call (all attempts). */
  brokerMs?: number;
  /** Set by the executor: what the lifecycle event of this success became (in the outbox, published, or neither). */
  event?: EventFate;
  /** DynamoDB calls the order-rate governor's permit took (order writes only). */
  governorCalls?: number;
  /** The result came from an idempotency record, not a new broker call. */
  replayed?: boolean;
  /** The exchange's rules checked on the order (exchange-rules.ts), for the dry run's reply. */
  exchangeRules?: CheckedRules;
  /** GetGTTOrder: answered from the watcher's copy (`hit`), or why the broker's list was read (order-copy.ts). */
  copy?: 'hit' | CopyMiss;
}

export interface GatewayContext extends Context {
  gateway: GatewayState;
}
