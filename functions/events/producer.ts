/**
 * The gateway's producer: right after the broker accepted a place, modify or cancel, one lifecycle event on the bus,
 * then its `published#` marker in the events table so the watcher does not publish the same change again.
 *
 * Publishing never fails the order: the order is placed whatever EventBridge says. A publish that fails leaves no
 * marker, so the watcher's next run sees the change and publishes it (with the same eventId).
 */
import type { AnyOperation } from '../contract/operation.js';
import type { EventDetail, LifecycleEvent, OrderView } from '../schemas/events.js';
import { createEventPublisher, type EventPublisher } from './publisher.js';
import { EventsTable } from './store.js';
import { contentHash, type OrderEventIds, orderEventIds, scopeOf } from './views.js';

export interface EventsConfig {
  EVENT_BUS_NAME: string;
  EVENTS_TABLE_NAME?: string | undefined;
  /** Local runs and tests only. */
  EVENTBRIDGE_ENDPOINT?: string | undefined;
  DYNAMODB_ENDPOINT?: string | undefined;
}

export interface GatewayEvents {
  /**
   * Publishes the event of one broker success within `timeoutMs` (the order's reply waits for it); says what
   * happened, never throws.
   */
  publish(
    operation: AnyOperation,
    input: unknown,
    result: unknown,
    timeoutMs: number,
    /** The broker account the call acted for (the session secret's uid and actid): part of every order event id. */
    account: () => Promise<{ uid: string; actid: string }>,
    now?: Date,
  ): Promise<PublishOutcome>;
}

export type PublishOutcome =
  | { status: 'published'; eventId: string; detailType: string; markerError?: string }
  | { status: 'failed'; eventId?: string; detailType: string; reason: string };

const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

export const buildGatewayEvent = async (
  operation: AnyOperation,
  input: unknown,
  result: unknown,
  known: (alId: string) => Promise<OrderView | undefined>,
  now: Date,
  ids: OrderEventIds,
): Promise<LifecycleEvent | undefined> => {
  const lifecycle = operation.lifecycle;
  const alId = typeof result === 'object' && result !== null && 'al_id' in result ? String(result.al_id) : undefined;
  if (!lifecycle || !alId) return undefined;
  const common = { observedAt: now.toISOString(), origin: 'gateway' as const };
  if (lifecycle.detailType === 'GTT Cancelled') {
    const view = await known(alId).catch(() => undefined);
    const detail: EventDetail<'GTT Cancelled'> = { ...(view ?? {}), al_id: alId, eventId: ids.ended(alId), ...common };
    return { detailType: 'GTT Cancelled', detail };
  }
  const view = lifecycle.order!(input, alId);
  const eventId = lifecycle.detailType === 'GTT Placed' ? ids.placed(alId) : ids.modified(alId, contentHash(view));
  return { detailType: lifecycle.detailType, detail: { ...view, eventId, ...common } };
};

export const createGatewayEvents = (config: EventsConfig, publisher?: EventPublisher): GatewayEvents => {
  const bus =
    publisher ?? createEventPublisher({ busName: config.EVENT_BUS_NAME, endpoint: config.EVENTBRIDGE_ENDPOINT });
  const table = config.EVENTS_TABLE_NAME
    ? new EventsTable({ tableName: config.EVENTS_TABLE_NAME, endpoint: config.DYNAMODB_ENDPOINT })
    : undefined;
  return {
    async publish(operation, input, result, timeoutMs, account, now = new Date()) {
      const detailType = operation.lifecycle?.detailType ?? 'none';
      const started = Date.now();
      const signal = AbortSignal.timeout(Math.max(100, timeoutMs));
      const left = () => Math.max(100, timeoutMs - (Date.now() - started));
      let event: LifecycleEvent | undefined;
      try {
        const ids = orderEventIds(scopeOf(config.EVENT_BUS_NAME, await account()));
        event = await buildGatewayEvent(
          operation,
          input,
          result,
          (alId) => table?.knownOrder(alId, signal) ?? Promise.resolve(undefined),
          now,
          ids,
        );
      } catch (error) {
        return { status: 'failed', detailType, reason: describe(error) };
      }
      if (!event) return { status: 'failed', detailType, reason: 'the result has no al_id' };
      const eventId = event.detail.eventId;
      const sent = await bus.publish([event], left());
      if (!sent.published.includes(eventId)) {
        return { status: 'failed', eventId, detailType, reason: sent.failed[0]?.reason ?? 'not accepted' };
      }
      try {
        await table?.markPublished([eventId], Date.now(), AbortSignal.timeout(left()));
        return { status: 'published', eventId, detailType };
      } catch (error) {
        // Published, but the watcher may publish it again: consumers deduplicate on the eventId.
        return { status: 'published', eventId, detailType, markerError: describe(error) };
      }
    },
  };
};
