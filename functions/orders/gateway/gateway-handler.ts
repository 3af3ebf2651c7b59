/**
 * The order core, and the Lambda stack around it.
 *
 * `orderCore` is what every way in calls, with the epoch ms by which it must end: it opens the request's record, runs
 * the order path (order-path.ts) and tells the observers (audit, the HTTP response, metrics, the access log) how it
 * ended. The Lambda handler (`createGatewayStack`) is the shell every function runs in (logger context, metrics
 * written once, the one error contract: functions/base/middleware/function-shell.ts) around the core, its deadline
 * from the Lambda context; the in-process callers (plans, signals, the kill switch: in-process.ts) call the core
 * itself, with their own deadline.
 *
 * The observers are told in this order: auditLog sees the raw result, httpResponse wraps it for HTTP callers,
 * operationMetrics counts what the path did (the event's fate included), and accessLog writes the line, before the
 * shell's error contract renders a failure.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';

import { sourceOf } from '../../base/contract/gateway-request.js';
import type { AnyOperation } from '../../base/contract/operation.js';
import { functionShell } from '../../base/middleware/function-shell.js';
import { type GatewaySettings, parseGatewayConfig } from '../../base/runtime/config.js';
import { logger as defaultLogger } from '../../base/runtime/logger.js';
import { metricNamespace } from '../../base/runtime/metrics.js';
import { SERVICE_NAME } from '../../base/schemas/names.js';
import { accessLog } from './access-log.js';
import { auditLog } from './audit-log.js';
import { deadlineOf } from './broker-deps.js';
import {
  buildCollaborators,
  type CollaboratorFactories,
  type Collaborators,
  dynamoLeases,
  dynamoOrderCopy,
} from './collaborators.js';
import { openRecord, type RequestObserver } from './context.js';
import { httpResponse } from './http-response.js';
import type { CancelCore } from './oco-readback.js';
import { operationMetrics } from './operation-metrics.js';
import { orderPath } from './order-path.js';

export interface GatewayOptions extends CollaboratorFactories {
  /** Configuration by environment-variable name; the process's environment is read on first use when absent. */
  config?: GatewaySettings;
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /**
   * Start the session secret read when the handler is built (the Lambda init), so it overlaps the rest of the
   * cold start instead of opening the first invocation. Given by the entry points; a bad configuration is still
   * reported by the first invocation.
   */
  prefetchSession?: boolean;
  /** Powertools Metrics instance (tests); by default one per handler in the `GttGateway` namespace. */
  metrics?: Metrics;
}

/** A Lambda handler for either entry shape: resolves with the HTTP response or the result, or throws a named error. */
export type GatewayHandler = (event: unknown, context: Context) => Promise<unknown>;

/** One request of a table entry, by any way in: ends by `deadline` (epoch ms); throws the typed error on failure. */
export type OrderCore = (event: unknown, deadline: number) => Promise<unknown>;

/** The container's collaborators, built on first use so a bad configuration is a clean CONFIGURATION_ERROR reply. */
export const lazyCollaborators = (operation: AnyOperation, options: GatewayOptions): (() => Collaborators) => {
  let built: Collaborators | undefined;
  return () => (built ??= buildCollaborators(operation, parseGatewayConfig(options.config ?? options.env), options));
};

export const orderCore = (
  operation: AnyOperation,
  parts: () => Collaborators,
  logger: Logger,
  metrics: Metrics,
): OrderCore => {
  const path = orderPath(operation, parts, logger, readBackCancel(operation, parts, logger));
  const observers: RequestObserver[] = [
    ...[auditLog(operation, logger) ?? []].flat(),
    httpResponse(operation),
    operationMetrics(metrics),
    accessLog(operation, logger),
  ];
  return async (event, deadline) => {
    const record = openRecord(sourceOf(event));
    try {
      let result = await path(event, deadline, record);
      for (const observer of observers) result = observer.after?.(record, result) ?? result;
      return result;
    } catch (error) {
      for (const observer of observers) observer.onError?.(record, error);
      throw error;
    }
  };
};

/**
 * The cancel an entry that reads its order back runs through the order core (oco-readback.ts): the cancel entry's
 * own core on the collaborators built beside the entry's, its metrics its own (published once it ended).
 */
const readBackCancel = (
  operation: AnyOperation,
  parts: () => Collaborators,
  logger: Logger,
): CancelCore | undefined => {
  const cancel = operation.readBack?.cancel;
  if (!cancel) return undefined;
  const metrics = operationMetricsOf(cancel);
  const core = orderCore(cancel, () => parts().readBack!, logger, metrics);
  return async (event, deadline) => {
    try {
      return await core(event, deadline);
    } finally {
      if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
    }
  };
};

/** The operation's metrics: one instance per handler, dimension `Operation`. */
export const operationMetricsOf = (operation: AnyOperation): Metrics =>
  new Metrics({
    namespace: metricNamespace(),
    serviceName: SERVICE_NAME,
    defaultDimensions: { Operation: operation.name },
  });

/**
 * The stack with the leases of one change per order and the watcher's copy as well as what is given (the local
 * runner, tests).
 */
export const createGatewayHandler = (operation: AnyOperation, options: GatewayOptions = {}): GatewayHandler =>
  createGatewayStack(operation, {
    ...options,
    leases: options.leases ?? dynamoLeases,
    copy: options.copy ?? dynamoOrderCopy,
  });

/**
 * The Lambda stack with exactly the factories given (the generated entries, functions/handlers/, give what
 * `needsOf` names): what is not given is neither built nor bundled. `parts`: collaborators shared with routes served
 * beside the operation in the same function (quote-stack.ts).
 */
export const createGatewayStack = (
  operation: AnyOperation,
  options: GatewayOptions = {},
  parts: () => Collaborators = lazyCollaborators(operation, options),
): GatewayHandler => {
  if (options.prefetchSession) {
    try {
      parts().sessions.prefetch();
    } catch {
      // A configuration error: the first invocation reports it in the error contract.
    }
  }
  const logger = options.logger ?? defaultLogger;
  const metrics = options.metrics ?? operationMetricsOf(operation);
  const core = orderCore(operation, parts, logger, metrics);
  return functionShell({ logger, metrics, trigger: 'api' }).handler((event, context) =>
    core(event, deadlineOf(context)),
  ) as GatewayHandler;
};
