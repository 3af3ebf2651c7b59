/** Wraps a successful result in an HTTP API response for HTTP callers; direct callers get the object itself. */
import type { MiddlewareObj } from '@middy/core';
import type { AnyOperation } from '../operation.js';
import type { GatewayContext } from './context.js';

export const httpResponse = (operation: AnyOperation): MiddlewareObj<unknown, unknown, Error, GatewayContext> => ({
  name: 'httpResponse',
  after: (request) => {
    if (request.context.gateway.source !== 'http') return;
    request.response = {
      statusCode: operation.successStatus,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request.response),
    };
  },
});
