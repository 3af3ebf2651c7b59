/**
 * A PlanEngine wired to one deployment: the operation table's entries in-process on the shared stack (idempotency,
 * governor, events), the events table for the plans and their events' markers, the bus, the broker for prices.
 * Built by the Plans function (the routes) and the watcher (the steps), from the same environment.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';

import { SessionSource } from '../broker/session.js';
import { ConfigurationError } from '../contract/errors.js';
import type { AnyOperation } from '../contract/operation.js';
import { OutboxTable } from '../events/outbox.js';
import { createGatewayEvents } from '../events/producer.js';
import { scopeOf } from '../events/views.js';
import { createGatewayHandler } from '../gateway/gateway-handler.js';
import {
  cancelGttOrder,
  getPendingGttOrders,
  getTriggeredGttOrders,
  modifyGttOrder,
  placeGttOrder,
  placeOcoOrder,
} from '../operations.js';
import { type GatewaySettings, parseGatewayConfig } from '../runtime/config.js';
import { envName } from '../runtime/env.js';
import { writeLog } from '../runtime/logger.js';
import { functionMetrics } from '../runtime/metrics.js';
import { dynamoIdempotency } from '../safety/idempotency.js';
import { dynamoTradingControls } from '../safety/trading-controls.js';
import { type DirectHandler, PlanEngine } from './engine.js';
import { instrument, lastPrice } from './quotes.js';
import { PlanStore } from './store.js';

/**
 * A direct-invocation context with the invocation's own deadline: the broker call's timeout ends before it, and an
 * idempotency record left in progress by an invocation killed at its deadline is free when the invocation is gone.
 */
const context = (deadline: number): Context =>
  ({
    functionName: 'Plans',
    awsRequestId: 'plan',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  }) as unknown as Context;

export const createPlanEngine = (settings: GatewaySettings, logger: Logger): PlanEngine => {
  const config = parseGatewayConfig(settings);
  if (!config.eventsTableName || !config.eventBusName || !config.idempotencyTableName)
    throw new ConfigurationError(
      `Plans need the events table, the bus and the idempotency table, which holds their outbox (${(['eventsTableName', 'eventBusName', 'idempotencyTableName'] as const).map(envName).join(', ')}).`,
    );
  const metrics = functionMetrics('Plans');
  const shared = {
    config: settings,
    logger,
    metrics,
    idempotency: dynamoIdempotency,
    controls: dynamoTradingControls,
    events: createGatewayEvents,
  } as const;
  const direct = (operation: AnyOperation): DirectHandler => {
    const handler = createGatewayHandler(operation, shared);
    return (input, deadline) => handler(input, context(deadline));
  };
  const sessions = new SessionSource({
    secretId: config.brokerSecretId,
    maxAgeSeconds: config.secretMaxAgeSeconds,
    endpoint: config.secretsManagerEndpoint,
  });
  const outbox = new OutboxTable({ tableName: config.idempotencyTableName, endpoint: config.dynamodbEndpoint });
  const busName = config.eventBusName;
  const reads = (deadline: number) => ({
    baseUrl: config.brokerBaseUrl,
    auth: config.brokerAuth,
    timeoutMs: () => Math.max(100, Math.min(config.brokerTimeoutMs, deadline - Date.now() - 1_000)),
    session: () => sessions.current(),
    refreshSession: () => sessions.refresh(),
  });
  return new PlanEngine({
    store: new PlanStore({ tableName: config.eventsTableName, endpoint: config.dynamodbEndpoint }),
    place: direct(placeGttOrder),
    placeOco: direct(placeOcoOrder),
    modify: direct(modifyGttOrder),
    cancel: direct(cancelGttOrder),
    pending: direct(getPendingGttOrders),
    triggered: direct(getTriggeredGttOrders),
    instrument: (exch, tsym, deadline) => instrument(exch, tsym, reads(deadline)),
    lastPrice: (exch, tsym, deadline) => lastPrice(exch, tsym, reads(deadline)),
    // The plan's events go through the same outbox as the order events: the EventForwarder publishes them at least
    // once and records them for GET /events.
    publish: (events) => outbox.put(events),
    warn: (message, fields) => {
      writeLog(logger, 'warn', message, fields);
      if (typeof fields.metric === 'string') metrics.addMetric(fields.metric, MetricUnit.Count, 1);
    },
    scope: async () => {
      const s = scopeOf(busName, await sessions.current());
      return [s.deployment, s.uid, s.actid].join('\u0001');
    },
  });
};
