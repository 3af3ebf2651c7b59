/**
 * The shared stack every Lambda runs: one Middy pipeline, bound to one entry of the operation table.
 *
 *   errorContract -> accessLog -> httpResponse -> parseRequest -> brokerSession -> handler (callBroker)
 *
 * Middy runs `onError` hooks in reverse order, so accessLog logs the failure before errorContract renders it.
 */
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { AnyOperation } from './operation.js';
import { callBroker } from './core/call-broker.js';
import { parseGatewayConfig, type GatewayConfig } from './core/config.js';
import { logger as defaultLogger } from './core/logger.js';
import { SessionSource } from './core/session.js';
import { accessLog } from './middleware/access-log.js';
import { brokerSession } from './middleware/broker-session.js';
import type { GatewayContext } from './middleware/context.js';
import { errorContract } from './middleware/error-contract.js';
import { httpResponse } from './middleware/http-response.js';
import { parseRequest } from './middleware/parse-request.js';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { InternalError } from './core/errors.js';

export interface GatewayOptions {
  /** Configuration; read from process.env on first use when absent. */
  config?: GatewayConfig;
  env?: Record<string, string | undefined>;
  logger?: Logger;
}

/** Per-container state, built on first use so a bad configuration is a clean CONFIGURATION_ERROR reply. */
const lazyRuntime = (options: GatewayOptions) => {
  let runtime: { config: GatewayConfig; sessions: SessionSource } | undefined;
  return () => {
    if (!runtime) {
      const config = options.config ?? parseGatewayConfig(options.env ?? process.env);
      runtime = {
        config,
        sessions: new SessionSource({
          secretId: config.BROKER_SECRET_ID,
          maxAgeSeconds: config.SECRET_MAX_AGE_SECONDS,
          endpoint: config.SECRETS_MANAGER_ENDPOINT,
        }),
      };
    }
    return runtime;
  };
};

/** A Lambda handler for either entry shape: resolves with the HTTP response or the result, or throws a named error. */
export type GatewayHandler = (event: unknown, context: Context) => Promise<unknown>;

export const createGatewayHandler = (operation: AnyOperation, options: GatewayOptions = {}): GatewayHandler => {
  const runtime = lazyRuntime(options);
  const logger = options.logger ?? defaultLogger;

  const handler = middy<unknown, unknown, Error, GatewayContext>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(errorContract())
    .use(accessLog(operation, logger))
    .use(httpResponse(operation))
    .use(parseRequest(operation))
    .use(brokerSession(() => runtime().sessions))
    .handler(async (_event, context) => {
      const state = context.gateway;
      if (!state.session || !state.refreshSession) throw new InternalError('Broker session middleware did not run');
      const { config } = runtime();
      const { result, attempts } = await callBroker(operation, state.input, {
        baseUrl: config.BROKER_BASE_URL,
        timeoutMs: config.BROKER_TIMEOUT_MS,
        session: state.session,
        refreshSession: state.refreshSession,
      });
      state.brokerAttempts = attempts;
      state.brokerStat = typeof result === 'object' && result !== null && 'stat' in result ? String(result.stat) : 'Ok';
      return result;
    });
  // Callers pass a plain Lambda context; accessLog adds the `gateway` state before anything reads it.
  return handler as unknown as GatewayHandler;
};
