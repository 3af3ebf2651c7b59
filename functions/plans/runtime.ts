/**
 * A PlanEngine wired to one deployment: the operation table's entries in-process on the shared stack (idempotency,
 * governor, events), the events table for the plans and their events' markers, the bus, the broker for prices.
 * Built by the Plans function (the routes) and the watcher (the steps), from the same environment.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';

import { SessionSource } from '../broker/session.js';
import { ConfigurationError } from '../contract/errors.js';
import type { AnyOperation } from '../contract/operation.js';
import { createGatewayEvents } from '../events/producer.js';
import { createEventPublisher } from '../events/publisher.js';
import { EventsTable } from '../events/store.js';
import { scopeOf } from '../events/views.js';
import { createGatewayHandler } from '../gateway.js';
import { cancelGttOrder, getTriggeredGttOrders, modifyGttOrder, placeGttOrder, placeOcoOrder } from '../operations.js';
import { type GatewaySettings, parseGatewayConfig } from '../runtime/config.js';
import { writeLog } from '../runtime/logger.js';
import { functionMetrics } from '../runtime/metrics.js';
import { dynamoIdempotency } from '../safety/idempotency.js';
import { dynamoTradingControls } from '../safety/trading-controls.js';
import { type DirectHandler, PlanEngine } from './engine.js';
import { lastPrice } from './quotes.js';
import { PlanStore } from './store.js';

/** A direct-invocation context that leaves each call the time it needs (the caller's own timeout still applies). */
const context = (): Context =>
  ({ functionName: 'Plans', awsRequestId: 'plan', getRemainingTimeInMillis: () => 30_000 }) as unknown as Context;

export const createPlanEngine = (settings: GatewaySettings, logger: Logger): PlanEngine => {
  const config = parseGatewayConfig(settings);
  if (!config.EVENTS_TABLE_NAME || !config.EVENT_BUS_NAME)
    throw new ConfigurationError('Plans need the events table and the bus (EVENTS_TABLE_NAME, EVENT_BUS_NAME).');
  const shared = {
    config: settings,
    logger,
    metrics: functionMetrics('Plans'),
    idempotency: dynamoIdempotency,
    controls: dynamoTradingControls,
    events: createGatewayEvents,
  } as const;
  const direct = (operation: AnyOperation): DirectHandler => {
    const handler = createGatewayHandler(operation, shared);
    return (input) => handler(input, context());
  };
  const sessions = new SessionSource({
    secretId: config.BROKER_SECRET_ID,
    maxAgeSeconds: config.SECRET_MAX_AGE_SECONDS,
    endpoint: config.SECRETS_MANAGER_ENDPOINT,
  });
  const table = new EventsTable({ tableName: config.EVENTS_TABLE_NAME, endpoint: config.DYNAMODB_ENDPOINT });
  const bus = createEventPublisher({ busName: config.EVENT_BUS_NAME, endpoint: config.EVENTBRIDGE_ENDPOINT });
  const busName = config.EVENT_BUS_NAME;
  return new PlanEngine({
    store: new PlanStore({ tableName: config.EVENTS_TABLE_NAME, endpoint: config.DYNAMODB_ENDPOINT }),
    place: direct(placeGttOrder),
    placeOco: direct(placeOcoOrder),
    modify: direct(modifyGttOrder),
    cancel: direct(cancelGttOrder),
    triggered: direct(getTriggeredGttOrders),
    lastPrice: (exch, tsym) =>
      lastPrice(exch, tsym, {
        baseUrl: config.BROKER_BASE_URL,
        auth: config.BROKER_AUTH,
        timeoutMs: () => config.BROKER_TIMEOUT_MS,
        session: () => sessions.current(),
        refreshSession: () => sessions.refresh(),
      }),
    publish: async (events) => {
      const sent = await bus.publish(events);
      if (sent.failed.length) writeLog(logger, 'error', 'plan event not published', { failed: sent.failed });
      const accepted = events.filter((e) => sent.published.includes(e.detail.eventId));
      if (accepted.length) await table.markPublished(accepted).catch(() => undefined);
    },
    scope: async () => {
      const s = scopeOf(busName, await sessions.current());
      return [s.deployment, s.uid, s.actid].join('\u0001');
    },
  });
};
