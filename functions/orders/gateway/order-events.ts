/**
 * The lifecycle event of a broker success, for operations with a `lifecycle` entry (events/core/producer.ts), handed to
 * the transactional outbox (events/core/outbox.ts) by the order path: built the moment the broker answered, so the
 * idempotency record's completing write carries it; a call without a record puts an outbox item of its own
 * (`queueEvents`). Never for a dry run or an idempotent replay (the broker is not called; the first call queued
 * it), and never an error for the caller: the order is done; an event that could not be built, queued or
 * published is logged, counted, and left to the watcher, which publishes it on its next run.
 */
import type { Logger } from '@aws-lambda-powertools/logger';

import type { AnyOperation } from '../../base/contract/operation.js';
import { writeLog } from '../../base/runtime/logger.js';
import type { LifecycleEvent } from '../../base/schemas/events.js';
import type { GatewayEvents } from '../../events/core/producer.js';

/** At most this long for the event's own outbox write after the broker's success, and never past the Lambda's end. */
export const EVENT_PUBLISH_TIMEOUT_MS = 2_000;

/** What became of the success's event: in the outbox, published directly (no outbox table), or neither. */
export interface EventFate {
  status: 'queued' | 'published' | 'failed';
  detailType: string;
  eventId?: string;
}

const named = (event: LifecycleEvent) => ({ detailType: event.detailType, eventId: event.detail.eventId });

/** The events of one broker success (none when the result names no order: logged, the watcher sees the change). */
export const buildEvents = async (
  operation: AnyOperation,
  producer: GatewayEvents,
  input: unknown,
  result: unknown,
  account: () => Promise<{ uid: string; actid: string }>,
  logger: Logger,
): Promise<LifecycleEvent[]> => {
  const event = await producer.build(operation, input, result, account);
  if (event) return [event];
  writeLog(logger, 'error', 'lifecycle event not built (the watcher publishes the change on its next run)', {
    operation: operation.name,
  });
  return [];
};

/** The fate of events the idempotency record's completing write carries: queued, with no write of their own. */
export const carriedEvents = (events: readonly LifecycleEvent[]): EventFate | undefined =>
  events[0] && { status: 'queued', ...named(events[0]) };

/** Puts events no idempotency record carries in an outbox item of their own; says (and logs) what became of them. */
export const queueEvents = async (
  operation: AnyOperation,
  producer: GatewayEvents,
  events: readonly LifecycleEvent[],
  remainingMs: number,
  logger: Logger,
): Promise<EventFate | undefined> => {
  if (!events[0]) return undefined;
  const said = named(events[0]);
  const outcome = await producer.queue(events, Math.min(EVENT_PUBLISH_TIMEOUT_MS, remainingMs - 1_000));
  if (outcome.status === 'failed') {
    writeLog(
      logger,
      'error',
      'lifecycle event neither queued nor published (the watcher publishes it on its next run)',
      {
        operation: operation.name,
        ...said,
        reason: outcome.reason,
      },
    );
  } else if (outcome.status === 'published' && outcome.markerError) {
    writeLog(logger, 'warn', 'lifecycle event published, its marker not written (same eventId if repeated)', {
      operation: operation.name,
      ...said,
      reason: outcome.markerError,
    });
  }
  return { status: outcome.status, ...said };
};
