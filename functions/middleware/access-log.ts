/** One structured log line per invocation: operation, source, latency, outcome. Never the token or the body. */
import type { MiddlewareObj } from '@middy/core';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { AnyOperation } from '../contract/operation.js';
import { sourceOf } from '../contract/gateway-request.js';
import { toGatewayError } from '../contract/errors.js';
import type { GatewayContext } from './context.js';

export const accessLog = (operation: AnyOperation, logger: Logger): MiddlewareObj<unknown, unknown, Error, GatewayContext> => ({
  name: 'accessLog',
  before: (request) => {
    request.context.gateway = { startedAt: performance.now(), source: sourceOf(request.event) };
  },
  after: (request) => {
    const state = request.context.gateway;
    logger.info('operation succeeded', {
      operation: operation.name,
      source: state.source,
      latencyMs: Math.round((performance.now() - state.startedAt) * 10) / 10,
      brokerStat: state.brokerStat,
      brokerAttempts: state.brokerAttempts,
    });
  },
  onError: (request) => {
    const state = request.context.gateway;
    const error = toGatewayError(request.error);
    const fields = {
      operation: operation.name,
      source: state?.source ?? sourceOf(request.event),
      latencyMs: state ? Math.round((performance.now() - state.startedAt) * 10) / 10 : undefined,
    };
    logger[error.status >= 500 ? 'error' : 'warn']('operation failed', {
      ...fields,
      code: error.code,
      status: error.status,
      outcome: error.outcome,
      brokerMessage: error.brokerMessage,
      // The cause of an INTERNAL_ERROR is what an operator needs; it never carries the token.
      ...(error.code === 'INTERNAL_ERROR' ? { cause: String(error.cause) } : {}),
    });
  },
});
