/** What the shared middlewares hand to the handler through the Lambda context. */
import type { Context } from 'aws-lambda';

import type { GatewayRequest, RequestSource } from '../contract/gateway-request.js';
import type { LifecycleEvent } from '../schemas/events.js';
import type { BrokerSession } from '../schemas/session.js';

export interface GatewayState {
  startedAt: number;
  source: RequestSource;
  request?: GatewayRequest;
  /** The validated input (the operation schema's output), market orders already converted (order-safety.ts). */
  input?: unknown;
  /** The validated input as the caller asked, when the deployment rewrote it (a market order made a limit order). */
  requestedInput?: unknown;
  session?: () => Promise<BrokerSession>;
  refreshSession?: () => Promise<BrokerSession>;
  /** Set by the handler for the access log: the broker's `stat` and how many calls were sent. */
  brokerStat?: string;
  brokerAttempts?: number;
  /** Milliseconds spent in the broker call (all attempts). */
  brokerMs?: number;
  /**
   * Set by lifecycleEvents for operations that publish: the handler calls it with the broker's result and gets the
   * events to queue in the outbox (the idempotency record's completing write carries them).
   */
  brokerSucceeded?: (result: unknown) => Promise<LifecycleEvent[]>;
  /** The idempotency record's completing write carried this success's events (the outbox holds them). */
  outboxQueued?: boolean;
  /** What the lifecycle event of this success became: in the outbox, published directly, or neither. */
  event?: { status: 'queued' | 'published' | 'failed'; detailType: string; eventId?: string };
  /** DynamoDB calls the order-rate governor's permit took (order writes only). */
  governorCalls?: number;
  /** The result came from an idempotency record, not a new broker call. */
  replayed?: boolean;
}

export interface GatewayContext extends Context {
  gateway: GatewayState;
}
