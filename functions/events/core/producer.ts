/**
 * The gateway's producer: right after the broker accepted a place, modify or cancel, the lifecycle event of that
 * success, queued in the transactional outbox (events/core/outbox-events.ts) rather than published on the request path.
 *
 * This is the outbox producer plus the path of a setup without an outbox table (a local experiment): there the event
 * is published directly (PutEvents, then the marker). The in-process callers (plans, signals, the kill switch), the
 * local runner and the tests bind this one; the deployed order functions bind `createOutboxEvents` alone, since they
 * always have the outbox and may not publish on the bus. Queuing never fails the order.
 */
import { createEventPublisher, type EventPublisher } from '../../base/aws/publisher.js';
import { memo } from '../../base/schemas/values.js';
import { completedEnds } from './forwarder.js';
import { createOutboxEvents, describeError, type EventsConfig, type GatewayEvents } from './outbox-events.js';
import { EventsTable } from './store.js';

export {
  buildGatewayEvent,
  createOutboxEvents,
  type EventsConfig,
  type GatewayEvents,
  type QueueOutcome,
} from './outbox-events.js';

export const createGatewayEvents = (config: EventsConfig, publisher?: EventPublisher): GatewayEvents => {
  const viaOutbox = createOutboxEvents(config);
  if (config.idempotencyTableName) return viaOutbox;
  const bus = memo(
    () => publisher ?? createEventPublisher({ busName: config.eventBusName, endpoint: config.eventbridgeEndpoint }),
  );
  const table = config.eventsTableName
    ? new EventsTable({ tableName: config.eventsTableName, endpoint: config.dynamodbEndpoint })
    : undefined;
  return {
    build: viaOutbox.build,
    async queue(events, timeoutMs) {
      if (!events.length) return { status: 'queued' };
      const started = Date.now();
      const left = () => Math.max(100, timeoutMs - (Date.now() - started));
      // No outbox (a setup without an idempotency table, e.g. a local experiment): straight to the bus, then the marker;
      // a cancel described as the forwarder would (the order as it was last known).
      const complete = table ? await completedEnds(events, table).catch(() => [...events]) : [...events];
      const sent = await bus().publish(complete, left());
      const failed = sent.failed[0];
      if (failed) return { status: 'failed', reason: failed.reason };
      try {
        await table?.markPublished(complete, Date.now(), AbortSignal.timeout(left()));
        return { status: 'published' };
      } catch (error) {
        // Published, but the watcher may publish it again: consumers deduplicate on the eventId.
        return { status: 'published', markerError: describeError(error) };
      }
    },
  };
};
