/** Wraps a successful result in an HTTP API response for HTTP callers; direct callers get the object itself. */
import type { AnyOperation } from '../../base/contract/operation.js';
import type { RequestObserver } from './context.js';

export const httpResponse = (operation: AnyOperation): RequestObserver => ({
  name: 'httpResponse',
  after: (record, result) => {
    if (record.source !== 'http') return result;
    // A dry run created nothing, whatever the operation's own success status is.
    const dryRun = record.request?.options.dryRun === true;
    return {
      statusCode: dryRun ? 200 : operation.successStatus,
      headers: {
        'content-type': 'application/json',
        // One order's version, for a PATCH's If-Match (base/broker/order-version.ts).
        ...(operation.etag && !dryRun ? { etag: `"${operation.etag(result)}"` } : {}),
      },
      body: JSON.stringify(result),
    };
  },
});
