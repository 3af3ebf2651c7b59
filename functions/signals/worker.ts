/**
 * The signal worker (functions/signals/definitions.ts SIGNAL_WORKER), started two ways:
 *
 * - by the signal queue: one SQS message per invocation (batch size 1, partial batch failures reported), each
 *   `{signalId, strategyId}` (base/schemas/signals.ts SignalMessage);
 * - by its schedule, every minute, with `{"sweep": true}`: the sweep (sweep.ts) of the signals still pending two
 *   minutes after they were received (their message never reached the queue), each through the same work.
 *
 * Anything else is refused (VALIDATION_FAILED naming what was wrong); nothing is done. Delivery is at least once and
 * a sweep may meet a signal the queue also delivers, so each run of the work:
 *
 * 1. loads the signal; one already completed is not acted on again (its pending marker dropped; a completion an
 *    earlier version left with its event beside it, `pendingEvent`, has that event handed to the outbox now);
 * 2. loads its strategy; a strategy deleted since the signal was received refuses it; otherwise the signal is acted
 *    on with the strategy recorded on it: the version the webhook received it under (a signal recorded before there
 *    was one: the strategy as it is now, recorded first, store.ts `recordStrategy`), so a strategy edited between two
 *    deliveries does not change what the signal does (docs/reference/signals.md, "One alert, one order");
 * 3. asks the SignalActor (actor-wiring.ts) to act with it (its orders carry idempotency keys derived from the signal id, so a
 *    second delivery that got this far replays them rather than placing again);
 * 4. records the outcome (received -> acted | refused, conditional: of two runs only one completes it), the outbox
 *    item of its event (Signal Acted or Signal Refused) and the removal of its pending marker, in one transaction.
 *
 * A failure (DynamoDB, the outbox) fails the message: SQS delivers it again, and after the queue's maxReceiveCount
 * it goes to the dead-letter queue; the sweep tries it again meanwhile.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';

import { ConfigurationError, InternalError } from '../base/contract/errors.js';
import { validateInput } from '../base/contract/validate-input.js';
import { shellHandler } from '../base/middleware/function-shell.js';
import { deployedEnv, type GatewaySettings, parseGatewayConfig } from '../base/runtime/config.js';
import { envName } from '../base/runtime/env.js';
import { logger as defaultLogger, writeLog } from '../base/runtime/logger.js';
import type { SignalMessage, SignalRecord, Strategy } from '../base/schemas/signals.js';
import { isRecord, memo } from '../base/schemas/values.js';
import { OutboxTable } from '../events/core/outbox.js';
import { createSignalActor } from './actor-wiring.js';
import { signalEvent } from './events.js';
import type { ActOutcome, SignalActor } from './signal-actor.js';
import { SignalStore } from './store.js';
import { StrategyStore } from './strategy-store.js';
import { SWEEP_MAX_AGE_MS, type SweepResult, sweepSignals, type WorkOutcome } from './sweep.js';
import { SIGNAL_ID, STRATEGY_ID } from './tokens.js';

export type { SweepResult, WorkOutcome } from './sweep.js';

export interface SignalWorkerOptions {
  env?: Record<string, string | undefined>;
  /** Settings by name (the local runner's). */
  settings?: GatewaySettings;
  logger?: Logger;
  /** Tests and the local runner: an actor of their own (default: actor-wiring.ts's, from the same settings). */
  actor?: SignalActor;
  /** Tests: the clock the sweep reads the signals' ages by (default: Date.now). */
  now?: () => number;
}

const messageOf = (body: string): SignalMessage | undefined => {
  try {
    const value: unknown = JSON.parse(body);
    if (
      isRecord(value) &&
      typeof value.signalId === 'string' &&
      SIGNAL_ID.test(value.signalId) &&
      typeof value.strategyId === 'string' &&
      STRATEGY_ID.test(value.strategyId)
    )
      return { signalId: value.signalId, strategyId: value.strategyId };
  } catch {
    // not JSON: refused below
  }
  return undefined;
};

/** Keeps the strategy's fields the events name when the strategy itself is gone. */
const ghostStrategy = (signal: SignalRecord): Strategy =>
  ({ strategyId: signal.strategyId, name: '(deleted)', source: 'generic', mode: 'live' }) as Strategy;

const partsOf = (options: SignalWorkerOptions, logger: Logger) =>
  memo(() => {
    const settings = options.settings ?? ((options.env ?? deployedEnv()) as Record<string, string>);
    const config = parseGatewayConfig(settings);
    if (!config.eventsTableName || !config.idempotencyTableName)
      throw new ConfigurationError(
        `The signal worker needs the events table and the idempotency table, which holds the outbox (${envName('eventsTableName')}, ${envName('idempotencyTableName')}).`,
      );
    const table = { tableName: config.eventsTableName, endpoint: config.dynamodbEndpoint };
    return {
      signals: new SignalStore({ ...table, outboxTableName: config.idempotencyTableName }),
      strategies: new StrategyStore(table),
      outbox: new OutboxTable({ tableName: config.idempotencyTableName, endpoint: config.dynamodbEndpoint }),
      actor: options.actor ?? createSignalActor(settings, logger),
    };
  });

/** One message: what became of it. Throws to have it delivered again. */
const workWith =
  (parts: ReturnType<typeof partsOf>, logger: Logger) =>
  async (message: SignalMessage, deadline: number): Promise<WorkOutcome> => {
    const { signals, strategies, outbox, actor } = parts();
    const stored = await signals.get(message.signalId);
    if (!stored) {
      writeLog(logger, 'warn', 'signal not found (expired?)', { signalId: message.signalId });
      return 'unknown-signal';
    }
    if (stored.signal.state !== 'received') {
      if (stored.pendingEvent) {
        await outbox.put([stored.pendingEvent]);
        await signals.clearPendingEvent(message.signalId);
      }
      await signals.unmark(stored.signal);
      return 'already-done';
    }
    const current = (await strategies.get(stored.signal.strategyId))?.strategy;
    // Every delivery acts with the strategy recorded on the signal (the one it was received under), never as edited
    // since: each alert's key stands for one order, whatever the action says now.
    const strategy = current && (stored.actedWith ?? (await signals.recordStrategy(message.signalId, current)));
    if (current && !strategy) return 'already-done';
    const outcome: ActOutcome = strategy
      ? await actor(stored.signal, strategy, deadline)
      : { state: 'refused', reason: 'Its strategy was deleted after the signal was received.' };
    const done: SignalRecord & { state: 'acted' | 'refused' } =
      outcome.state === 'acted'
        ? { ...stored.signal, state: 'acted', results: outcome.results }
        : {
            ...stored.signal,
            state: 'refused',
            reason: outcome.reason,
            ...(outcome.results ? { results: outcome.results } : {}),
          };
    const event = signalEvent(
      done.state === 'acted' ? 'Signal Acted' : 'Signal Refused',
      done,
      strategy ?? ghostStrategy(done),
      outcome.state === 'refused' && outcome.code ? { code: outcome.code } : {},
    );
    // One write: the signal completed, its event in the outbox, its marker gone (store.ts).
    if (!(await signals.complete(done, event))) return 'already-done';
    logger.info(`signal ${done.state}`, {
      signalId: done.signalId,
      strategyId: done.strategyId,
      ...(done.reason ? { reason: done.reason } : {}),
      ...(done.results ? { results: done.results.length } : {}),
    });
    return done.state;
  };

/** The work on one signal, as a queue message or the sweep asks for it: what became of it; throws for "not now". */
export const createSignalWork = (options: SignalWorkerOptions = {}) => {
  const logger = options.logger ?? defaultLogger;
  return workWith(partsOf(options, logger), logger);
};

const isSqsEvent = (event: unknown): event is SQSEvent => isRecord(event) && Array.isArray(event.Records);

/** The schedule's payload, and nothing else. */
const sweepRequest = z.strictObject({ sweep: z.literal(true, { error: 'must be true (the sweep)' }) });

/**
 * The Lambda: SQS batches (size 1), failed messages reported back for redelivery; or the schedule's sweep, which
 * fails when it gave up on a signal (the Errors alarm tells the operator).
 */
export const createSignalWorker = (options: SignalWorkerOptions = {}) => {
  const logger = options.logger ?? defaultLogger;
  const parts = partsOf(options, logger);
  const work = workWith(parts, logger);

  const consume = async (event: SQSEvent, deadline: number): Promise<SQSBatchResponse> => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      const message = messageOf(record.body);
      if (!message) {
        // Not a message of the webhook's: delivering it again cannot help.
        writeLog(logger, 'error', 'signal message unreadable; dropped', { messageId: record.messageId });
        continue;
      }
      try {
        await work(message, deadline);
      } catch (error) {
        writeLog(logger, 'error', 'signal not completed; it will be delivered again', {
          signalId: message.signalId,
          error,
        });
        failures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures: failures };
  };

  const sweep = async (event: unknown, deadline: number): Promise<SweepResult> => {
    validateInput(sweepRequest, event ?? {});
    const result = await sweepSignals(
      { signals: parts().signals, work, logger, now: options.now ?? Date.now },
      deadline,
    );
    const { more, abandoned, ...done } = result;
    // A line only when there was something to sweep (the schedule runs every minute).
    if (more || abandoned.length || Object.values(done).some((ids) => ids.length))
      logger.info('signals swept', { ...result });
    if (abandoned.length)
      throw new InternalError(
        `The sweep gave up on ${abandoned.length} signal(s) pending longer than ${SWEEP_MAX_AGE_MS / 60_000} minutes (${abandoned.join(', ')}): they stay received and are no longer acted on (docs/reference/signals.md).`,
      );
    return result;
  };

  // A queue batch reports its failed messages; a failure of the schedule's sweep leaves as the named error.
  const trigger = (event: unknown) => (isSqsEvent(event) ? ('queue' as const) : ('schedule' as const));
  return shellHandler<unknown, SQSBatchResponse | SweepResult>(
    { logger, trigger },
    async (event: unknown, context: Context) => {
      const deadline = Date.now() + (context.getRemainingTimeInMillis?.() ?? 30_000);
      return isSqsEvent(event) ? consume(event, deadline) : sweep(event, deadline);
    },
  );
};
