/** Wraps a successful result in an HTTP API response for HTTP callers; direct callers get the object itself. */
import type { MiddlewareObj } from '@middy/core';

import type { AnyOperation } from '../../base/contract/operation.js';
import type { GatewayContext } from './context.js';

export const httpResponse = (operation: AnyOperation): MiddlewareObj<unknown, unknown, Error, GatewayContext> => ({
  name: 'httpResponse',
  after: (request) => {
    if (request.context.gateway.source !== 'http') return;
    // A dry run created nothing, whatever the operation's own success status is.
    const dryRun = request.context.gateway.request?.options.dryRun === true;
    request.response = {
      statusCode: dryRun ? 200 : operation.successStatus,
      headers: {
        'content-type': 'application/json',
        // One order's version, for a PATCH's If-Match (order-patch.ts).
        ...(operation.etag && !dryRun ? { etag: `"${operation.etag(request.response)}"` } : {}),
      },
      body: JSON.stringify(request.response),
    };
  },
});
