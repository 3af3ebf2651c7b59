/**
 * The lifecycle event of an order function's broker success (place, modify, cancel), queued in the transactional
 * outbox (events/core/outbox.ts) rather than published on the request path: what the deployed order functions bind
 * (functions/handlers/, generated from the manifest), so their bundles carry no EventBridge client and none of the
 * direct path's modules (events/core/producer.ts adds that path for setups without an outbox).
 *
 * With an Idempotency-Key the event rides in the record's completing write (no call of its own); without one,
 * `queue` puts one outbox item. Either way the EventForwarder publishes it from the table's stream and writes its
 * `published#` marker, so the watcher does not publish the same change again. If the outbox cannot be written (or
 * there is none), the watcher's next run publishes the change (with the same eventId): the order functions may not
 * publish on the bus themselves. Queuing never fails the order: the order is placed whatever happens here.
 */
import type { AnyOperation } from '../../base/contract/operation.js';
import type { Converted } from '../../base/schemas/conversion.js';
import type { EventDetail, LifecycleEvent } from '../../base/schemas/events.js';
import { OutboxTable } from './outbox.js';
import { contentHash, type OrderEventIds, orderEventIds, scopeOf } from './views.js';

export interface EventsConfig {
  eventBusName: string;
  eventsTableName?: string | undefined;
  /** The outbox: the idempotency table, whose stream the EventForwarder reads. */
  idempotencyTableName?: string | undefined;
  /** Local runs and tests only. */
  eventbridgeEndpoint?: string | undefined;
  dynamodbEndpoint?: string | undefined;
}

export interface GatewayEvents {
  /**
   * The event of one broker success (undefined when the result names no order); never throws. A cancel's event
   * carries the al_id only: the forwarder adds the order as it was last known off the request path.
   */
  build(
    operation: AnyOperation,
    input: unknown,
    result: unknown,
    /** The broker account the call acted for (the session secret's uid and actid): part of every order event id. */
    account: () => Promise<{ uid: string; actid: string }>,
    now?: Date,
  ): Promise<LifecycleEvent | undefined>;
  /** Queues events that no idempotency record carries, within `timeoutMs`; says what happened, never throws. */
  queue(events: readonly LifecycleEvent[], timeoutMs: number): Promise<QueueOutcome>;
}

/**
 * `queued`: in the outbox (the forwarder publishes it); `published`: the outbox could not be written and the event
 * went straight to the bus; `failed`: neither (the watcher publishes it on its next run).
 */
export type QueueOutcome =
  { status: 'queued' | 'published'; reason?: string; markerError?: string } | { status: 'failed'; reason: string };

export const describeError = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

export const buildGatewayEvent = (
  operation: AnyOperation,
  input: unknown,
  result: unknown,
  now: Date,
  ids: OrderEventIds,
): LifecycleEvent | undefined => {
  const lifecycle = operation.lifecycle;
  const alId = typeof result === 'object' && result !== null && 'al_id' in result ? String(result.al_id) : undefined;
  if (!lifecycle || !alId) return undefined;
  const common = { observedAt: now.toISOString(), origin: 'gateway' as const };
  if (lifecycle.detailType === 'GTT Cancelled') {
    const detail: EventDetail<'GTT Cancelled'> = { al_id: alId, eventId: ids.ended(alId), ...common };
    return { detailType: 'GTT Cancelled', detail };
  }
  const view = lifecycle.order!(input, alId);
  const eventId = lifecycle.detailType === 'GTT Placed' ? ids.placed(alId) : ids.modified(alId, contentHash(view));
  // A market order sent as a protected limit order says so (the result's `converted`); the view is what was sent.
  const converted = (result as { converted?: Converted }).converted;
  return {
    detailType: lifecycle.detailType,
    detail: { ...view, ...(converted ? { converted } : {}), eventId, ...common },
  };
};

/** `build` and the outbox half of `queue`; without an outbox table, nothing is queued (`failed`: the watcher publishes). */
export const createOutboxEvents = (config: EventsConfig): GatewayEvents => {
  const outbox = config.idempotencyTableName
    ? new OutboxTable({ tableName: config.idempotencyTableName, endpoint: config.dynamodbEndpoint })
    : undefined;
  return {
    async build(operation, input, result, account, now = new Date()) {
      try {
        return buildGatewayEvent(
          operation,
          input,
          result,
          now,
          orderEventIds(scopeOf(config.eventBusName, await account())),
        );
      } catch {
        return undefined;
      }
    },
    async queue(events, timeoutMs) {
      if (!events.length) return { status: 'queued' };
      if (!outbox) return { status: 'failed', reason: 'no outbox table (IDEMPOTENCY_TABLE_NAME) configured' };
      try {
        await outbox.put(events, Date.now(), AbortSignal.timeout(Math.max(100, timeoutMs)));
        return { status: 'queued' };
      } catch (error) {
        // The function may not publish on the bus itself (least privilege): the watcher's next run publishes it.
        return { status: 'failed', reason: describeError(error) };
      }
    },
  };
};
