/**
 * The operation table's entries invoked in-process by another function (plans, signals): each on the shared stack
 * (createGatewayHandler) with the deployment's real idempotency store, order-rate governor and kill switch, and
 * lifecycle events, so nothing a caller of the API would meet is skipped; and the deps of the broker reads of their
 * own (SearchScrip, GetQuotes) with a timeout that ends before the invocation's deadline.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';

import type { BrokerCallDeps } from '../../base/broker/call-broker.js';
import { SessionSource } from '../../base/broker/session.js';
import type { AnyOperation } from '../../base/contract/operation.js';
import { type GatewayConfig, type GatewaySettings, parseGatewayConfig } from '../../base/runtime/config.js';
import { functionMetrics } from '../../base/runtime/metrics.js';
import { createGatewayEvents } from '../events/producer.js';
import { dynamoInstrumentCopy } from '../instruments/copy.js';
import { dynamoIdempotency } from '../journal-factory.js';
import { dynamoTradingControls } from '../safety/trading-controls.js';
import { createGatewayHandler } from './gateway-handler.js';

/**
 * A table entry's handler, invoked directly (its named error on failure), with the epoch ms by which the invocation
 * must end: the broker call's own timeout ends before it, and the idempotency record's in-progress lock with it.
 */
export type DirectHandler = (input: Record<string, unknown>, deadline: number) => Promise<unknown>;

/**
 * A direct-invocation context with the invocation's own deadline: the broker call's timeout ends before it, and an
 * idempotency record left in progress by an invocation killed at its deadline is free when the invocation is gone.
 */
export const deadlineContext = (functionName: string, deadline: number): Context =>
  ({
    functionName,
    awsRequestId: functionName.toLowerCase(),
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  }) as unknown as Context;

export interface InProcessGateway {
  config: GatewayConfig;
  metrics: Metrics;
  sessions: SessionSource;
  /** The entry's handler on the shared stack, built once per call of `direct` (build it once per container). */
  direct: (operation: AnyOperation) => DirectHandler;
  /** The deps of a broker read of one's own, its timeout ending a second before the deadline. */
  reads: (deadline: number) => BrokerCallDeps;
}

/** The wiring for a function named `name` (its metrics' `Function` dimension, its contexts' name). */
export const inProcessGateway = (settings: GatewaySettings, logger: Logger, name: string): InProcessGateway => {
  const config = parseGatewayConfig(settings);
  const metrics = functionMetrics(name);
  const shared = {
    config: settings,
    logger,
    metrics,
    idempotency: dynamoIdempotency,
    controls: dynamoTradingControls,
    instruments: dynamoInstrumentCopy,
    events: createGatewayEvents,
    inProcess: true,
  } as const;
  const sessions = new SessionSource({
    secretId: config.brokerSecretId,
    maxAgeSeconds: config.secretMaxAgeSeconds,
    endpoint: config.secretsManagerEndpoint,
  });
  return {
    config,
    metrics,
    sessions,
    direct: (operation) => {
      const handler = createGatewayHandler(operation, shared);
      return (input, deadline) => handler(input, deadlineContext(name, deadline));
    },
    reads: (deadline) => ({
      baseUrl: config.brokerBaseUrl,
      auth: config.brokerAuth,
      timeoutMs: () => Math.max(100, Math.min(config.brokerTimeoutMs, deadline - Date.now() - 1_000)),
      session: () => sessions.current(),
      refreshSession: () => sessions.refresh(),
    }),
  };
};
