/**
 * The lifecycle event of a broker success, for operations with a `lifecycle` entry (events/producer.ts). The
 * publish starts the moment the broker answered (the handler calls `state.brokerSucceeded`), so it runs while the
 * idempotency record is saved, and the invocation waits for it before answering. Never for a dry run or an
 * idempotent replay (the broker is not called; the first call published it), and never an error for the caller:
 * the order is done; a failed publish is logged, counted, and left to the watcher, which publishes it on its next run.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { MiddlewareObj } from '@middy/core';

import type { AnyOperation } from '../contract/operation.js';
import type { GatewayEvents, PublishOutcome } from '../events/producer.js';
import { writeLog } from '../runtime/logger.js';
import type { GatewayContext, GatewayState } from './context.js';

/** At most this long for the event (and its marker) after the broker's success, and never past the Lambda's end. */
export const EVENT_PUBLISH_TIMEOUT_MS = 2_000;

export const lifecycleEvents = (
  operation: AnyOperation,
  events: () => GatewayEvents | undefined,
  logger: Logger,
): MiddlewareObj<unknown, unknown, Error, GatewayContext> => {
  const pending = new WeakMap<GatewayState, Promise<PublishOutcome>>();
  /** Waits for the publish this invocation started, if any, and records and logs what became of it. */
  const settle = async (state: GatewayState | undefined) => {
    const publishing = state && pending.get(state);
    if (!state || !publishing) return;
    const outcome = await publishing;
    state.event = {
      status: outcome.status,
      detailType: outcome.detailType,
      ...(outcome.eventId ? { eventId: outcome.eventId } : {}),
    };
    if (outcome.status === 'failed') {
      writeLog(logger, 'error', 'lifecycle event not published (the watcher publishes it on its next run)', {
        operation: operation.name,
        detailType: outcome.detailType,
        eventId: outcome.eventId,
        reason: outcome.reason,
      });
    } else if (outcome.markerError) {
      writeLog(
        logger,
        'warn',
        'lifecycle event published, its marker not written (the watcher may publish it again, same eventId)',
        {
          operation: operation.name,
          eventId: outcome.eventId,
          reason: outcome.markerError,
        },
      );
    }
  };
  return {
    name: 'lifecycleEvents',
    before: (request) => {
      const state = request.context.gateway;
      if (!operation.lifecycle || state.request?.options.dryRun) return;
      state.brokerSucceeded = (result: unknown) => {
        const producer = events();
        if (!producer || pending.has(state)) return;
        const timeoutMs = Math.min(EVENT_PUBLISH_TIMEOUT_MS, request.context.getRemainingTimeInMillis() - 1_000);
        const session = state.session;
        const account = session ? () => session() : () => Promise.reject(new Error('no session'));
        pending.set(state, producer.publish(operation, state.input, result, timeoutMs, account));
      };
    },
    after: (request) => settle(request.context.gateway),
    // The broker acted even if saving the idempotency record failed afterwards: the event still goes out.
    onError: (request) => settle(request.context.gateway as GatewayState | undefined),
  };
};
