/**
 * The order path's last steps: the write's bounds, the send, and the completion of a write no journal record carries.
 *
 * - `writeBounds`: an order write's send starts within one broker timeout (two with a second read before sending)
 *   and every attempt of it ends by `sendsEndBy`, so the broker may act on it until then plus the late window and not
 *   after (docs/explanation/order-safety.md, "The late window"): what the journal and the kill switch wait for.
 * - `sendWrite`: the lease and the permit awaited (both asked for already), the check right before sending (a PATCH's
 *   second read, a modify's read: the stamp the order carries is recorded first, order-stamp.ts), then the broker
 *   once (Logout: everywhere), a read's second read folded in, and a success's lifecycle events built; the kill
 *   switch is read beside the completing write (landed-after-halt.ts).
 * - `completeUnkeyed`: a write without a journal record puts its events in an outbox item of their own, beside the
 *   kill switch's read, and undoes a write that landed after the switch.
 */
import type { Logger } from '@aws-lambda-powertools/logger';

import { callBroker } from '../../base/broker/call-broker.js';
import { type LogoutDeps, logoutEverywhere } from '../../base/broker/logout.js';
import type { SessionSource } from '../../base/broker/session.js';
import { GatewayBusyError } from '../../base/contract/errors.js';
import type { AnyOperation } from '../../base/contract/operation.js';
import type { GatewayConfig } from '../../base/runtime/config.js';
import type { Converted } from '../../base/schemas/conversion.js';
import type { LifecycleEvent } from '../../base/schemas/events.js';
import type { GatewayEvents } from '../../events/core/producer.js';
import type { OrderJournal } from '../journal.js';
import type { TradingControls } from '../safety/trading-controls.js';
import { brokerDeps, MIN_ATTEMPT_MS, type SessionReads } from './broker-deps.js';
import type { RequestFacts } from './context.js';
import { landedAfterHalt, type UndoLanded } from './landed-after-halt.js';
import { buildEvents, queueEvents } from './order-events.js';
import type { AskedLease, AskedPermit } from './order-holds.js';
import { recordCarriedStamp } from './order-stamp.js';

export interface WriteBounds {
  /** The send starts by then, or is GATEWAY_BUSY (nothing sent). */
  sendBy: number;
  /** Every attempt ends by then. */
  sendsEndBy: number;
  /** What the journal and the kill switch wait for (an attempt started just before `sendsEndBy` ends that much after). */
  writesEndBy: number;
}

export const writeBounds = (brokerTimeoutMs: number, deadline: number, secondRead: boolean): WriteBounds => {
  const sendBy = Date.now() + (secondRead ? 2 : 1) * brokerTimeoutMs;
  const sendsEndBy = Math.min(deadline - 1_000, sendBy + brokerTimeoutMs);
  return { sendBy, sendsEndBy, writesEndBy: sendsEndBy + MIN_ATTEMPT_MS };
};

/** One write as the order path has it once every check passed: what the send and completion steps share. */
export interface Write {
  operation: AnyOperation;
  config: GatewayConfig;
  /** The order sent (the rules passed, a market order priced). */
  input: unknown;
  converted?: Converted | undefined;
  deadline: number;
  bounds: WriteBounds;
  session: SessionReads;
  sessions: SessionSource;
  journal?: OrderJournal | undefined;
  controls?: TradingControls | undefined;
  producer?: GatewayEvents | undefined;
  logger: Logger;
  facts: RequestFacts;
}

/** What a send (or an adoption) yields: its result, the events of its success, the kill switch's check. */
export interface Sent {
  result: unknown;
  events: readonly LifecycleEvent[];
  landed?: Promise<UndoLanded | undefined>;
}

/** The result says what was done to a market order; a journal record keeps it with the rest. */
export const withConversion = (converted: Converted | undefined, result: unknown): unknown =>
  converted && typeof result === 'object' && result !== null ? { ...result, converted } : result;

/** The lifecycle events of a broker success (this request's send, or a write adopted from the broker's books). */
export const eventsOf = async (write: Write, result: unknown): Promise<readonly LifecycleEvent[]> =>
  write.operation.lifecycle && write.producer
    ? await buildEvents(write.operation, write.producer, write.input, result, write.session.session, write.logger)
    : [];

export interface SendHolds {
  lease?: AskedLease | undefined;
  permit?: AskedPermit | undefined;
  /** The check right before sending; resolves to the order as read then. */
  beforeSend?: (() => Promise<unknown>) | undefined;
  /** The write's stamp, sent in the order's remarks. */
  stamp?: string | undefined;
}

export const sendWrite = async (write: Write, holds: SendHolds): Promise<Sent> => {
  const { operation, config, input, controls, facts } = write;
  // The lease's refusal first (ORDER_BUSY says what to do), then the permit's: both asked for already.
  const [leased, permitted] = await Promise.allSettled([holds.lease?.hold(), holds.permit?.granted]);
  if (leased.status === 'rejected') throw leased.reason;
  if (permitted.status === 'rejected') throw permitted.reason;
  const seen = await holds.beforeSend?.();
  const bounded = operation.kind === 'order';
  if (bounded && Date.now() > write.bounds.sendBy)
    throw new GatewayBusyError(
      `${operation.name} could not be sent within its time (the gateway's own steps were slow); nothing was sent. ` +
        'Retry it after Retry-After seconds (the client and the CLI do).',
      { outcome: 'not_executed', details: { retryAfterSeconds: 1 } },
    );
  // The stamp the order carries leaves it with this change: where it went is recorded first (order-stamp.ts).
  await recordCarriedStamp(operation, write.journal, seen, holds.stamp);
  const started = performance.now();
  // An order write's attempts all end by its bound; any call's before the invocation's deadline.
  const deps = brokerDeps(config, write.session, write.deadline, bounded ? write.bounds.sendsEndBy : undefined);
  const algo = config.algoId ? { algoId: config.algoId } : {};
  const calls = { ...deps, ...algo, ...(holds.stamp ? { stamp: holds.stamp } : {}) };
  try {
    // Logout ends the token in the secret (read fresh) and the one this container holds, and marks the secret
    // logged out: not just the token this container happened to cache.
    const logout: LogoutDeps = {
      baseUrl: deps.baseUrl,
      auth: deps.auth,
      timeoutMs: deps.timeoutMs,
      ...algo,
      sessions: write.sessions,
      ...(controls ? { sessionEnded: (uid: string) => controls.endSession(uid) } : {}),
    };
    const { result: reply, attempts } =
      operation.broker === 'Logout'
        ? await logoutEverywhere(operation, input, logout)
        : await callBroker(operation, input, calls);
    const result = withConversion(write.converted, reply);
    facts.brokerAttempts = attempts;
    // The write has ended: its lease goes back alongside the record's completing write (the reply waits for both).
    void holds.lease?.end();
    // Did the kill switch go on while it was on its way? Read alongside the record's completing write (or the
    // outbox item): a write that landed after the switch is undone then (landed-after-halt.ts).
    const landed =
      operation.refusedWhileHalted && !operation.haltExempt?.(input) && controls && holds.permit
        ? landedAfterHalt({
            operation,
            controls,
            permitAt: holds.permit.askedAt,
            input,
            result,
            calls,
            session: write.session.session,
            producer: write.producer,
            remainingMs: () => write.deadline - Date.now(),
            logger: write.logger,
          })
        : undefined;
    if (operation.alsoRead && operation.kind === 'read') {
      // A second read folded into the first (e.g. the orders fired GTTs placed); its failure is said, not thrown.
      const other = await callBroker(operation.alsoRead.operation, {}, calls).then(
        (read) => ((facts.brokerAttempts = (facts.brokerAttempts ?? 0) + read.attempts), read.result),
        () => undefined,
      );
      return { result: operation.alsoRead.fold(result, other), events: [] };
    }
    // The events of a call actually sent (not a replay, not a dry run), built before the record is completed.
    return { result, events: await eventsOf(write, result), ...(landed ? { landed } : {}) };
  } catch (error) {
    // Not sent, or its outcome unknown: the lease is given back, or kept for the late window.
    void holds.lease?.end(error);
    throw error;
  } finally {
    facts.brokerMs = Math.round((performance.now() - started) * 10) / 10;
  }
};

/** A write no journal record carries: its events in an outbox item of their own, beside the kill switch's read. */
export const completeUnkeyed = async (write: Write, sent: Sent): Promise<unknown> => {
  const { operation, producer, logger, facts } = write;
  const [queued, undo] = await Promise.all([
    producer && sent.events.length
      ? queueEvents(operation, producer, sent.events, write.deadline - Date.now(), logger)
      : undefined,
    sent.landed,
  ]);
  if (queued) facts.event = queued;
  if (undo) await undo(queued?.status === 'queued' || queued?.status === 'published');
  return sent.result;
};
