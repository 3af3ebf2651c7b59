/**
 * Maps every failure to the one error contract. Over HTTP: `{ error: {...} }` with the code's status. On a direct
 * invocation: the GatewayError is rethrown, its `name` being the code in PascalCase (e.g. `SessionExpired`) and
 * its message the JSON error body, so Step Functions can match `Error` and parse `Cause`.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

import { type GatewayError, InternalError, toGatewayError } from '../contract/errors.js';
import { sourceOf } from '../contract/gateway-request.js';
import { redactError } from '../contract/redact.js';
import { retryAfterSeconds } from '../safety/trading-controls.js';

export const httpErrorResponse = (error: GatewayError): APIGatewayProxyStructuredResultV2 => ({
  statusCode: error.status,
  headers: {
    'content-type': 'application/json',
    ...(error.code === 'RATE_LIMITED' ? { 'retry-after': String(retryAfterSeconds(error.details)) } : {}),
  },
  body: JSON.stringify({ error: error.toBody() }),
});

/** The Error a direct invocation fails with: name = PascalCase code, message = the JSON error body. */
export const directInvocationError = (error: GatewayError): Error => {
  const thrown = new Error(JSON.stringify({ error: error.toBody() }));
  thrown.name = error.name;
  return thrown;
};

/**
 * `typed`: the handler is called in-process by another function of the set (plans, signals, the kill switch): a
 * direct invocation's failure stays the typed GatewayError (redacted), never a JSON body in a message to parse back.
 */
export const errorContract = <TContext extends Context = Context>(
  options: { typed?: boolean } = {},
): MiddlewareObj<unknown, unknown, Error, TContext> => ({
  name: 'errorContract',
  onError: (request) => {
    // The last net before the caller: no known secret and nothing token-shaped in any error reply.
    let error = redactError(toGatewayError(request.error));
    const http = sourceOf(request.event) === 'http';
    try {
      if (http) request.response = httpErrorResponse(error);
      else request.error = options.typed ? error : directInvocationError(error);
    } catch (renderError) {
      // An error whose body cannot be rendered (a bug in what it carries) still leaves inside the contract.
      error = new InternalError('Unexpected error in the gateway; see the function logs for the request id.', {
        cause: renderError,
      });
      if (http) request.response = httpErrorResponse(error);
      else request.error = directInvocationError(error);
    }
  },
});
