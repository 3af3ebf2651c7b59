/**
 * The shared stack every operation Lambda runs: one Middy pipeline, bound to one entry of the operation table.
 *
 *   functionShell (injectLambdaContext, logMetrics, errorContract) -> accessLog -> operationMetrics -> httpResponse
 *     -> auditLog -> handler: the order path (order-path.ts)
 *
 * The middlewares observe; the order path acts: parseRequest -> orderSafety -> brokerSession -> orderLease ->
 * exchangeRules -> executor, each step given the typed values the steps before it returned (a PATCH:
 * parseRequest -> brokerSession -> orderLease -> orderPatch -> orderSafety -> exchangeRules -> executor). The path
 * writes the request's record (context.ts) that the middlewares read when it ends.
 *
 * The executor: it takes a permit from the account's order-rate governor before every broker write
 * of an `order` entry (orders/safety/trading-controls.ts; the kill switch's state is read with it), inside the idempotent
 * step, and hands a success's lifecycle events to the outbox itself (order-events.ts): in the idempotency record's
 * completing write, or in an outbox item of their own.
 *
 * Middy runs `after`/`onError` hooks in reverse order: auditLog sees the raw result before httpResponse wraps it,
 * operationMetrics counts what the executor did (the event's fate included), accessLog logs a failure before
 * errorContract renders it, and Powertools' logMetrics writes the metrics last.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';

import { SessionSource } from '../../base/broker/session.js';
import { type AnyOperation, usesTradingControls } from '../../base/contract/operation.js';
import { functionShell } from '../../base/middleware/function-shell.js';
import { type GatewayConfig, type GatewaySettings, parseGatewayConfig } from '../../base/runtime/config.js';
import { logger as defaultLogger } from '../../base/runtime/logger.js';
import { metricNamespace } from '../../base/runtime/metrics.js';
import { SERVICE_NAME } from '../../base/schemas/names.js';
import type { EventsConfig, GatewayEvents } from '../events/producer.js';
import type { InstrumentCopy } from '../instruments/copy.js';
import type { OrderJournal } from '../journal.js';
import { DynamoOrderLeases, type OrderLeases } from '../lease.js';
import type { TradingControls } from '../safety/trading-controls.js';
import { accessLog } from './access-log.js';
import { auditLog } from './audit-log.js';
import type { GatewayContext } from './context.js';
import { httpResponse } from './http-response.js';
import { operationMetrics } from './operation-metrics.js';
import { OrderCopy } from './order-copy.js';
import { changesAnOrder } from './order-lease.js';
import { orderPath, type PathParts } from './order-path.js';

/** Builds the idempotency executor of one operation (see core/idempotency.ts: `dynamoIdempotency`). */
export type IdempotencyFactory = (
  operation: AnyOperation,
  config: GatewayConfig & { idempotencyTableName: string },
) => OrderJournal;

/** Builds the trading controls (orders/safety/trading-controls.ts: `dynamoTradingControls`): the governor and the kill switch. */
export type TradingControlsFactory = (config: GatewayConfig & { controlTableName: string }) => TradingControls;

/** Builds the leases of one change per order (orders/lease.ts) on the control table: `dynamoLeases`. */
export type LeasesFactory = (config: GatewayConfig & { controlTableName: string }) => OrderLeases;

/** Builds the watcher's copy of the pending orders (order-copy.ts) on the events table: `dynamoOrderCopy`. */
export type CopyFactory = (config: GatewayConfig & { eventsTableName: string }) => OrderCopy;

/** Builds the account's copy of the instruments' rules (orders/instruments/copy.ts: `dynamoInstrumentCopy`). */
export type InstrumentCopyFactory = (config: GatewayConfig & { instrumentsTableName: string }) => InstrumentCopy;

/** Builds the lifecycle-event producer (orders/events/producer.ts: `createGatewayEvents`) when the deployment has a bus. */
export type EventsFactory = (config: EventsConfig) => GatewayEvents;

export interface GatewayOptions {
  /** Configuration by environment-variable name; the process's environment is read on first use when absent. */
  config?: GatewaySettings;
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /**
   * Given only by the entry points of operations that take idempotency keys, so the other functions' bundles
   * carry no DynamoDB client (about 40 ms less cold start).
   */
  idempotency?: IdempotencyFactory;
  /**
   * Start the session secret read when the handler is built (the Lambda init), so it overlaps the rest of the
   * cold start instead of opening the first invocation. Given by the entry points; a bad configuration is still
   * reported by the first invocation.
   */
  prefetchSession?: boolean;
  /**
   * Given only by the entry points of operations with a `lifecycle` entry (place, modify, cancel), so the other
   * bundles carry no EventBridge client. Publishes only when the configuration names a bus (`eventBusName`).
   */
  events?: EventsFactory;
  /**
   * Given by the entry points of the order operations (kind `order`), so the read functions' bundles carry no
   * DynamoDB client. With CONTROL_TABLE_NAME set, every broker write of such an operation takes a permit first.
   */
  controls?: TradingControlsFactory;
  /**
   * The leases of modify, PATCH and cancel (one change per order at a time) with CONTROL_TABLE_NAME set.
   * `createGatewayHandler` always has them; the generated entries pass them to `createGatewayStack` exactly where the
   * operation changes an order, so the read functions' bundles carry no DynamoDB client.
   */
  leases?: LeasesFactory;
  /**
   * The watcher's copy of the pending orders (order-copy.ts) that one order by id answers from while it is fresh,
   * with EVENTS_TABLE_NAME set. `createGatewayHandler` always has it; the generated entries pass it only to the
   * operations that read from it, so the other read functions' bundles carry no DynamoDB client.
   */
  copy?: CopyFactory;
  /**
   * Given by the entry points of the operations that place or modify orders (`guardedOrders`): with
   * INSTRUMENTS_TABLE_NAME set, the exchange's rules are read from the account's copy before the broker.
   */
  instruments?: InstrumentCopyFactory;
  /**
   * Called in-process by another function (plans, signals, the kill switch's sweep): a failure is the typed
   * GatewayError itself, not the named error with a JSON message that Step Functions reads.
   */
  inProcess?: boolean;
  /** Powertools Metrics instance (tests); by default one per handler in the `GttGateway` namespace. */
  metrics?: Metrics;
}

/** A Lambda handler for either entry shape: resolves with the HTTP response or the result, or throws a named error. */
export type GatewayHandler = (event: unknown, context: Context) => Promise<unknown>;

/** Per-container state, built on first use so a bad configuration is a clean CONFIGURATION_ERROR reply. */
const lazyRuntime = (operation: AnyOperation, options: GatewayOptions) => {
  let runtime: PathParts | undefined;
  return (): PathParts => {
    if (!runtime) {
      const config = parseGatewayConfig(options.config ?? options.env);
      runtime = {
        config,
        sessions: new SessionSource({
          secretId: config.brokerSecretId,
          maxAgeSeconds: config.secretMaxAgeSeconds,
          endpoint: config.secretsManagerEndpoint,
        }),
        ...(operation.idempotency && config.idempotencyTableName && options.idempotency
          ? {
              idempotency: options.idempotency(operation, {
                ...config,
                idempotencyTableName: config.idempotencyTableName,
              }),
            }
          : {}),
        ...(operation.lifecycle && config.eventBusName && options.events
          ? { events: options.events({ ...config, eventBusName: config.eventBusName }) }
          : {}),
        // Order writes take permits; Logout tells every container the session ended (the same item).
        ...(usesTradingControls(operation) && config.controlTableName && options.controls
          ? { controls: options.controls({ ...config, controlTableName: config.controlTableName }) }
          : {}),
        ...(operation.guardedOrders && config.instrumentsTableName && options.instruments
          ? { instruments: options.instruments({ ...config, instrumentsTableName: config.instrumentsTableName }) }
          : {}),
        ...(changesAnOrder(operation) && config.controlTableName && options.leases
          ? { leases: options.leases({ ...config, controlTableName: config.controlTableName }) }
          : {}),
        ...(operation.fromCopy && config.eventsTableName && options.copy
          ? { copy: options.copy({ ...config, eventsTableName: config.eventsTableName }) }
          : {}),
      };
    }
    return runtime;
  };
};

/** The leases on the control table, as deployed. */
export const dynamoLeases: LeasesFactory = (config) =>
  new DynamoOrderLeases({
    tableName: config.controlTableName,
    lateWindowMs: config.orderLateWindowMs,
    endpoint: config.dynamodbEndpoint,
  });

/** The watcher's copy on the events table, as deployed. */
export const dynamoOrderCopy: CopyFactory = (config) =>
  new OrderCopy({
    tableName: config.eventsTableName,
    controlTableName: config.controlTableName,
    endpoint: config.dynamodbEndpoint,
  });

/**
 * The shared stack with the leases of one change per order and the watcher's copy (the in-process callers, the
 * local runner, tests).
 */
export const createGatewayHandler = (operation: AnyOperation, options: GatewayOptions = {}): GatewayHandler =>
  createGatewayStack(operation, {
    ...options,
    leases: options.leases ?? dynamoLeases,
    copy: options.copy ?? dynamoOrderCopy,
  });

/**
 * The shared stack with exactly the factories given (the generated entries, functions/handlers/): what is not given
 * is neither built nor bundled.
 */
export const createGatewayStack = (operation: AnyOperation, options: GatewayOptions = {}): GatewayHandler => {
  const runtime = lazyRuntime(operation, options);
  if (options.prefetchSession) {
    try {
      runtime().sessions.prefetch();
    } catch {
      // A configuration error: the first invocation reports it in the error contract.
    }
  }
  const logger = options.logger ?? defaultLogger;
  const metrics =
    options.metrics ??
    new Metrics({
      namespace: metricNamespace(),
      serviceName: SERVICE_NAME,
      defaultDimensions: { Operation: operation.name },
    });

  const audit = auditLog(operation, logger);
  const path = orderPath(operation, runtime, logger);
  // The shell every function runs in (logger context, metrics, the error contract), then the observers of the
  // request's record; the handler is the order path (order-path.ts): its steps hand each other typed values.
  const handler = functionShell<unknown, unknown, GatewayContext>({
    logger,
    metrics,
    trigger: 'api',
    typed: options.inProcess === true,
  })
    .use(accessLog(operation, logger))
    .use(operationMetrics(operation, metrics))
    .use(httpResponse(operation))
    .use(audit ? [audit] : [])
    .handler((event, context) => path(event, context, context.gateway));
  // Callers pass a plain Lambda context; accessLog opens the request's record (`gateway`) before anything reads it.
  return handler as unknown as GatewayHandler;
};
