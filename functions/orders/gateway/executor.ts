/**
 * How one validated request of a table entry is carried out, once the shared middlewares have read it: a dry run
 * (the exact request, nothing sent), an idempotent call (the record claimed first, a replay answered from it), or a
 * plain call. The call itself: a permit from the order-rate governor for order writes, then the broker (Logout done
 * everywhere), then the entry's second read if it has one. The handler of the shared stack is this, and only this.
 *
 * A broker success of an entry with a `lifecycle` entry yields its events (order-events.ts), which the executor hands
 * on itself: the idempotency record's completing write carries them, or (no key) an outbox item of their own.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';

import { callBroker } from '../../base/broker/call-broker.js';
import type { BrokerAuth } from '../../base/broker/jdata.js';
import { type LogoutDeps, logoutEverywhere } from '../../base/broker/logout.js';
import { stampedRemarks, stampOf } from '../../base/broker/order-stamps.js';
import type { BrokerSession, SessionSource } from '../../base/broker/session.js';
import { ConfigurationError, GatewayBusyError, GatewayError, TradingHaltedError } from '../../base/contract/errors.js';
import type { AnyOperation } from '../../base/contract/operation.js';
import { redactDeep } from '../../base/contract/redact.js';
import type { Converted } from '../../base/schemas/conversion.js';
import type { LifecycleEvent } from '../../base/schemas/events.js';
import { findWrite, settledByBooks } from '../books.js';
import type { GatewayEvents } from '../events/producer.js';
import type { OrderJournal } from '../journal.js';
import { dryRun } from '../safety/dry-run.js';
import type { CheckedRules } from '../safety/market-rules.js';
import type { TradingControls } from '../safety/trading-controls.js';
import { landedAfterHalt, type UndoLanded } from './landed-after-halt.js';
import { buildEvents, carriedEvents, type EventFate, queueEvents } from './order-events.js';
import { recordCarriedStamp } from './order-stamp.js';

/** The shortest broker attempt: a shorter timeout would only turn a reply on its way into an unknown outcome. */
const MIN_ATTEMPT_MS = 100;

/** What the executor needs of the deployment's configuration. */
export interface ExecutorConfig {
  brokerBaseUrl: string;
  brokerAuth: BrokerAuth;
  brokerTimeoutMs: number;
  controlTableName?: string | undefined;
  algoId?: string | undefined;
  /** How long after a send the broker may still act on it (ORDER_LATE_WINDOW_MS). */
  orderLateWindowMs: number;
}

export interface ExecutionRequest {
  operation: AnyOperation;
  config: ExecutorConfig;
  input: unknown;
  /** What an idempotency key stands for, when not `input` (a PATCH: the caller's changes, not the merged order). */
  idempotencyInput?: unknown;
  /**
   * A modify, PATCH or cancel: its order's lease, asked for already (order-lease.ts); held before the send (a retry
   * of the change that holds it, joined, takes it over only now: the journal let it send).
   */
  lease?: (() => Promise<void>) | undefined;
  /** Gives the lease back once the broker answered (kept for the late window on an unknown outcome). */
  endLease?: ((error?: unknown) => Promise<void>) | undefined;
  /**
   * Checks right before sending (a PATCH's order read again, a modify's read: order-stamp.ts), after a replay would
   * have answered; also on a dry run. Resolves to the order as read then, whose stamp is recorded before the send.
   */
  beforeSend?: (() => Promise<unknown>) | undefined;
  /** What order safety did to the input's market orders: the result (and its event) say it as `converted`. */
  converted?: Converted | undefined;
  options: { idempotencyKey?: string | undefined; dryRun?: boolean | undefined };
  session: () => Promise<BrokerSession>;
  refreshSession: () => Promise<BrokerSession>;
  /** The container's session source: Logout's view (the token held, the secret read fresh, the logged-out mark), and when it last read the secret. */
  sessions: LogoutDeps['sessions'] & Pick<SessionSource, 'readAt'>;
  /** The journal of broker writes (the idempotency record and the write's journal entry are one item). */
  idempotency?: OrderJournal | undefined;
  controls?: TradingControls | undefined;
  context: Context;
  /** The lifecycle-event producer: given for entries with a `lifecycle` entry when the deployment has a bus. */
  events?: GatewayEvents | undefined;
  /** For what became of an event that could not be built or queued (never an error for the caller). */
  logger: Logger;
  /** The exchange's rules checked on the order (functions/orders/gateway/exchange-rules.ts), listed by a dry run. */
  exchangeRules?: CheckedRules | undefined;
}

/** The call's result, and the lifecycle events of its broker success, already handed to the outbox. */
export interface Execution {
  result: unknown;
  /** None for a dry run, a replay, a read or an entry without a `lifecycle` entry. */
  events: readonly LifecycleEvent[];
}

/** What happened, for the access log and the metrics: written as it happens, so a failure still tells it. */
export interface ExecutionFacts {
  replayed?: boolean;
  brokerAttempts?: number;
  brokerMs?: number;
  governorCalls?: number;
  /** What became of the success's lifecycle event: in the outbox, published directly, or neither. */
  event?: EventFate;
}

/** Carries out one request; `facts` (the shared stack's state) learns what happened, success or not. */
export const execute = async (request: ExecutionRequest, facts: ExecutionFacts): Promise<Execution> => {
  const { operation, config, input, options, idempotency, controls, context, events: producer, logger } = request;
  // The result says what was done to a market order; an idempotency record keeps it with the rest.
  const withConversion = (result: unknown): unknown =>
    request.converted && typeof result === 'object' && result !== null
      ? { ...result, converted: request.converted }
      : result;
  if (options.dryRun) {
    await request.beforeSend?.();
    const session = await request.session();
    return {
      result: withConversion(
        dryRun(
          operation,
          input,
          session,
          config.brokerBaseUrl,
          config.brokerAuth,
          config.algoId,
          request.exchangeRules,
        ),
      ),
      events: [],
    };
  }
  if (operation.kind === 'order' && config.controlTableName && !controls) {
    // Never send an order write around the governor.
    throw new ConfigurationError(
      `${operation.name} was built without the trading controls (order-rate governor, kill switch); nothing was sent.`,
    );
  }
  if (options.idempotencyKey !== undefined && !idempotency) {
    // Never ignore a key: the caller would believe a retry is safe.
    throw new ConfigurationError(
      `${operation.name} was built without idempotency support, so its key cannot be honoured; nothing was sent.`,
    );
  }

  // An order write's bounds, from its entry here: its send starts within one broker timeout (two with a PATCH's
  // second read) and every attempt of it ends by `sendsEndBy`, so the broker may act on it until then plus the late
  // window and not after (docs/order-safety.md, "The late window"): what the journal and the kill switch wait for.
  const enteredAt = Date.now();
  const sendBy = enteredAt + (request.beforeSend ? 2 : 1) * config.brokerTimeoutMs;
  const sendsEndBy = Math.min(enteredAt + context.getRemainingTimeInMillis() - 1_000, sendBy + config.brokerTimeoutMs);
  const bounded = operation.kind === 'order';
  // The lifecycle events of a broker success (this request's send, or a write adopted from the broker's books).
  const eventsOf = async (result: unknown): Promise<readonly LifecycleEvent[]> =>
    operation.lifecycle && producer
      ? await buildEvents(operation, producer, input, result, request.session, logger)
      : [];
  // What the journal and the kill switch wait for: every attempt ends by then (an attempt takes at least
  // MIN_ATTEMPT_MS, so one started just before `sendsEndBy` ends that much after it).
  const writesEndBy = sendsEndBy + MIN_ATTEMPT_MS;

  // Every broker write takes a permit from the account's governor. It is asked for at once, alongside the journal's
  // claim and the order's lease (one round trip, docs/order-safety.md "Round trips"), and awaited before the send: a
  // refusal frees the key (nothing was sent); a replay does not wait for it (its permit is spent unused). The same
  // conditional write records until when a place or modify may land (the kill switch's sweep waits for it) and
  // re-reads the secret when a logout came after this container read it (nothing is sent on an ended session).
  let permitAt = 0;
  // Whether the permit is wanted: true once the journal's claim is won (or there is no key), false when the journal
  // answered without sending (a replay, a key in flight); a permit lost to contention waits for it.
  let wanted: (yes: boolean) => void = () => undefined;
  const permitWanted = new Promise<boolean>((resolve) => (wanted = resolve));
  if (options.idempotencyKey === undefined || !idempotency) wanted(true);
  const permit =
    operation.kind === 'order' && controls
      ? (async () => {
          permitAt = Date.now();
          facts.governorCalls = (
            await controls.acquire((await request.session()).uid, operation.refusedWhileHalted === true, {
              landBy: writesEndBy + config.orderLateWindowMs,
              wanted: () => permitWanted,
              session: {
                readAt: () => request.sessions.readAt(),
                reread: async () => {
                  try {
                    await request.refreshSession();
                  } catch (error) {
                    // Logged out: nothing was sent, which the caller is told.
                    if (error instanceof GatewayError) error.outcome ??= 'not_executed';
                    throw error;
                  }
                },
              },
            })
          ).dynamoCalls;
        })()
      : undefined;
  // A permit or lease refused while a replay answers is no crash (the replay is the answer).
  permit?.catch(() => undefined);

  type Sent = Execution & { landed?: Promise<UndoLanded | undefined> };
  const send = async (stamp?: string): Promise<Sent> => {
    // The lease's refusal first (ORDER_BUSY says what to do), then the permit's: both asked for already.
    const [leased, permitted] = await Promise.allSettled([request.lease?.(), permit]);
    if (leased.status === 'rejected') throw leased.reason;
    if (permitted.status === 'rejected') throw permitted.reason;
    const seen = await request.beforeSend?.();
    if (bounded && Date.now() > sendBy)
      throw new GatewayBusyError(
        `${operation.name} could not be sent within its time (the gateway's own steps were slow); nothing was sent. ` +
          'Retry it after Retry-After seconds (the client and the CLI do).',
        { outcome: 'not_executed', details: { retryAfterSeconds: 1 } },
      );
    // The stamp the order carries leaves it with this change: where it went is recorded first (order-stamp.ts).
    await recordCarriedStamp(operation, idempotency, seen, stamp);
    const started = performance.now();
    try {
      const wire = {
        baseUrl: config.brokerBaseUrl,
        auth: config.brokerAuth,
        // A rotated-token retry must still end before the Lambda does, so our own timeout fires, not Lambda's; an
        // order write's attempts all end by its bound.
        timeoutMs: () =>
          Math.max(
            MIN_ATTEMPT_MS,
            Math.min(
              config.brokerTimeoutMs,
              context.getRemainingTimeInMillis() - 1_000,
              bounded ? sendsEndBy - Date.now() : Number.POSITIVE_INFINITY,
            ),
          ),
        ...(config.algoId ? { algoId: config.algoId } : {}),
      };
      const calls = {
        ...wire,
        ...(stamp ? { stamp } : {}),
        session: request.session,
        refreshSession: request.refreshSession,
      };
      // Logout ends the token in the secret (read fresh) and the one this container holds, and marks the secret
      // logged out: not just the token this container happened to cache.
      const { result: reply, attempts } =
        operation.broker === 'Logout'
          ? await logoutEverywhere(operation, input, {
              ...wire,
              sessions: request.sessions,
              ...(controls ? { sessionEnded: (uid: string) => controls.endSession(uid) } : {}),
            })
          : await callBroker(operation, input, calls);
      const result = withConversion(reply);
      facts.brokerAttempts = attempts;
      // The write has ended: its lease goes back alongside the record's completing write (the reply waits for both).
      void request.endLease?.();
      // Did the kill switch go on while it was on its way? Read alongside the record's completing write (or the
      // outbox item): a write that landed after the switch is undone then (landed-after-halt.ts).
      const landed =
        operation.refusedWhileHalted && controls && permitAt
          ? landedAfterHalt({
              operation,
              controls,
              permitAt,
              input,
              result,
              calls,
              session: request.session,
              producer,
              remainingMs: () => context.getRemainingTimeInMillis(),
              logger,
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
      return { result, events: await eventsOf(result), ...(landed ? { landed } : {}) };
    } catch (error) {
      // Not sent, or its outcome unknown: the lease is given back, or kept for the late window.
      void request.endLease?.(error);
      throw error;
    } finally {
      facts.brokerMs = Math.round((performance.now() - started) * 10) / 10;
    }
  };

  if (options.idempotencyKey !== undefined && idempotency) {
    const key = options.idempotencyKey;
    let events: readonly LifecycleEvent[] = [];
    // The write's stamp: sent in the order's remarks (a cancel's is only its name in the journal), so a write whose
    // outcome is unknown is found in the broker's books (orders/books.ts). None when the caller's tag leaves no room.
    const named = settledByBooks(operation) ? stampOf(operation.name, key) : undefined;
    const stamp = named && stampedRemarks((input as { tag?: string }).tag, named) !== undefined ? named : undefined;
    try {
      const run = await idempotency
        .run(key, request.idempotencyInput ?? input, {
          stamp,
          deadline: writesEndBy,
          send: async () => {
            wanted(true);
            const sent = await send(stamp);
            events = sent.events;
            return sent;
          },
          adopt: async () => {
            // Reads: the invocation's time, as any read's (the write's own bound is what the journal records).
            // Not in the lists, because the kill switch's sweep cancelled it since: it happened, and is undone.
            let goneChecked = false;
            const notGone = async () => {
              goneChecked = true;
              const gone = await idempotency.goneOrder(stamp!);
              if (gone)
                throw new TradingHaltedError(
                  `The first attempt with idempotency key "${key}" reached the broker (al_id ${gone}) and the kill switch's sweep cancelled it since; nothing was sent again. Send it with a new key to place it again.`,
                  { outcome: 'undone', details: { al_id: gone, cancelled: true } },
                );
            };
            const deps = {
              baseUrl: config.brokerBaseUrl,
              auth: config.brokerAuth,
              timeoutMs: () =>
                Math.max(MIN_ATTEMPT_MS, Math.min(config.brokerTimeoutMs, context.getRemainingTimeInMillis() - 1_000)),
              session: request.session,
              refreshSession: request.refreshSession,
            };
            // Not in the lists: swept by the kill switch (undone), or its stamp replaced by a later change (moves.ts).
            const found = await findWrite(operation, input, stamp!, deps, {
              moved: async (s) => {
                if (s === stamp) await notGone();
                return idempotency.findMove(s);
              },
              seen: (by) => idempotency.findSeen(by),
            });
            if (!found && !goneChecked) await notGone();
            if (!found) return undefined;
            // Settled: the lease its first attempt kept is taken over, to be given back with this reply (unless
            // another change took it since: then that one keeps it).
            await request.lease?.().catch(() => undefined);
            const result = withConversion(found);
            return { result, events: await eventsOf(result) };
          },
        })
        .finally(() => wanted(false));
      facts.replayed = run.replayed;
      events = run.events;
      // A replay is redacted again on its way out: a record stored before a token was known is no exception.
      const result = {
        ...(redactDeep(run.result) as object),
        idempotency: { key, replayed: run.replayed, ...(run.adopted ? { adopted: true } : {}) },
      };
      return { result, events };
    } finally {
      // Said even when completing the record failed after the broker's success: the watcher publishes that change.
      const fate = carriedEvents(events);
      if (fate) facts.event = fate;
    }
  }
  const { landed, ...sent } = await send();
  // The outbox item and the kill switch's read in one round trip; a write that landed after the switch is undone.
  const [queued, undo] = await Promise.all([
    producer && sent.events.length
      ? queueEvents(operation, producer, sent.events, context.getRemainingTimeInMillis(), logger)
      : undefined,
    landed,
  ]);
  if (queued) facts.event = queued;
  if (undo) await undo(queued?.status === 'queued' || queued?.status === 'published');
  return sent;
};
