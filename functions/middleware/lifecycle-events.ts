/**
 * After a broker success of an operation with a `lifecycle` entry, publish its event (events/producer.ts). Never
 * for a dry run or an idempotent replay (the first call published it), and never an error for the caller: the
 * order is done; a failed publish is logged, counted, and left to the watcher, which publishes it on its next run.
 */
import type { MiddlewareObj } from '@middy/core';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { AnyOperation } from '../contract/operation.js';
import type { GatewayEvents } from '../events/producer.js';
import { writeLog } from '../runtime/logger.js';
import type { GatewayContext } from './context.js';

/** At most this long for the event (and its marker) after the broker's success, and never past the Lambda's end. */
export const EVENT_PUBLISH_TIMEOUT_MS = 2_000;

export const lifecycleEvents = (
  operation: AnyOperation,
  events: () => GatewayEvents | undefined,
  logger: Logger,
): MiddlewareObj<unknown, unknown, Error, GatewayContext> => ({
  name: 'lifecycleEvents',
  after: async (request) => {
    const state = request.context.gateway;
    if (!operation.lifecycle || state.request?.options.dryRun || state.replayed) return;
    const producer = events();
    if (!producer) return;
    const timeoutMs = Math.min(EVENT_PUBLISH_TIMEOUT_MS, request.context.getRemainingTimeInMillis() - 1_000);
    const outcome = await producer.publish(operation, state.input, request.response, timeoutMs);
    state.event = { status: outcome.status, detailType: outcome.detailType, ...(outcome.eventId ? { eventId: outcome.eventId } : {}) };
    if (outcome.status === 'failed') {
      writeLog(logger, 'error', 'lifecycle event not published (the watcher publishes it on its next run)', {
        operation: operation.name,
        detailType: outcome.detailType,
        eventId: outcome.eventId,
        reason: outcome.reason,
      });
    } else if (outcome.markerError) {
      writeLog(logger, 'warn', 'lifecycle event published, its marker not written (the watcher may publish it again, same eventId)', {
        operation: operation.name,
        eventId: outcome.eventId,
        reason: outcome.markerError,
      });
    }
  },
});
