/**
 * The lifecycle event of a broker success, for operations with a `lifecycle` entry (events/producer.ts), queued in
 * the transactional outbox (events/outbox.ts). The handler asks for the event the moment the broker answered
 * (`state.brokerSucceeded`), before the idempotency record is completed, so the record's completing write carries
 * it (`state.outboxQueued`); a call without a record to carry it puts an outbox item of its own after the handler.
 * Never for a dry run or an idempotent replay (the broker is not called; the first call queued it), and never an
 * error for the caller: the order is done; an event that could not be queued or published is logged, counted, and
 * left to the watcher, which publishes it on its next run.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { MiddlewareObj } from '@middy/core';

import type { AnyOperation } from '../contract/operation.js';
import type { GatewayEvents } from '../events/producer.js';
import { writeLog } from '../runtime/logger.js';
import type { LifecycleEvent } from '../schemas/events.js';
import type { GatewayContext, GatewayState } from './context.js';

/** At most this long for the event's own outbox write after the broker's success, and never past the Lambda's end. */
export const EVENT_PUBLISH_TIMEOUT_MS = 2_000;

export const lifecycleEvents = (
  operation: AnyOperation,
  events: () => GatewayEvents | undefined,
  logger: Logger,
): MiddlewareObj<unknown, unknown, Error, GatewayContext> => {
  const built = new WeakMap<GatewayState, LifecycleEvent[]>();
  /** Queues what no idempotency record carried, and records and logs what became of the event. */
  const settle = async (state: GatewayState | undefined, remainingMs: number) => {
    const list = state && built.get(state);
    // Nothing built (a failure before the broker, a bad configuration): nothing to settle, and no producer built.
    if (!state || !list?.length) return;
    const producer = events();
    if (!producer) return;
    const event = list[0]!;
    const said = { detailType: event.detailType, eventId: event.detail.eventId };
    if (state.outboxQueued) {
      state.event = { status: 'queued', ...said };
      return;
    }
    const outcome = await producer.queue(list, Math.min(EVENT_PUBLISH_TIMEOUT_MS, remainingMs - 1_000));
    state.event = { status: outcome.status, ...said };
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
  };
  return {
    name: 'lifecycleEvents',
    before: (request) => {
      const state = request.context.gateway;
      if (!operation.lifecycle || state.request?.options.dryRun) return;
      state.brokerSucceeded = async (result: unknown) => {
        const producer = events();
        if (!producer || built.has(state)) return [];
        const session = state.session;
        const account = session ? () => session() : () => Promise.reject(new Error('no session'));
        const event = await producer.build(operation, state.input, result, account);
        const list = event ? [event] : [];
        built.set(state, list);
        if (!event) {
          writeLog(logger, 'error', 'lifecycle event not built (the watcher publishes the change on its next run)', {
            operation: operation.name,
          });
        }
        return list;
      };
    },
    after: (request) => settle(request.context.gateway, request.context.getRemainingTimeInMillis()),
    // The broker acted even if completing the idempotency record failed afterwards: the event is still queued.
    onError: (request) =>
      settle(request.context.gateway as GatewayState | undefined, request.context.getRemainingTimeInMillis()),
  };
};
