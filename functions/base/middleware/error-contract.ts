/**
 * Maps every failure of every function to the one error contract, told how the function was triggered:
 *
 * - `api` (HTTP API or a direct invocation, the event says which): over HTTP, `{ error: {...} }` with the code's
 *   status; on a direct invocation, a named error: `name` the code in PascalCase (e.g. `SessionExpired`), message
 *   the JSON error body, so Step Functions can match `Error` and parse `Cause`.
 * - `queue` (SQS, a DynamoDB stream): the handler reports the items it could not do as `batchItemFailures`; a failure
 *   of the whole batch leaves as the named error, so every item is delivered again and the Errors alarm counts it.
 * - `schedule` (EventBridge Scheduler): the named error, so the schedule's retries and the Errors alarm see it.
 *
 * A failure that is already a direct-invocation error (a table entry called in-process) is read back to its code.
 * An unexpected error is INTERNAL_ERROR: without its own text for an API caller; with it (redacted) for a queue or a
 * schedule, whose only reader is the operator.
 *
 * A function says its trigger, or reads it from the event (the signal worker: a queue batch or the sweep's schedule),
 * and throws: it renders no failure itself. The one exception is the OAuth callback, which answers a browser with an
 * HTML page. The notify formatter, invoked by an EventBridge rule, is a `schedule`; the local API uses the HTTP
 * rendering.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

import { capText } from '../contract/bounded.js';
import { fromDirectInvocation, GatewayError, InternalError, retryAfterSeconds } from '../contract/errors.js';
import { isHttpApiEvent } from '../contract/gateway-request.js';
import { redactError } from '../contract/redact.js';

/** How a function is invoked, which decides the shape its failures leave in. */
export type Trigger = 'api' | 'queue' | 'schedule';

export interface ErrorContractOptions {
  /** The function's trigger; a function invoked more than one way says which from the event. */
  trigger: Trigger | ((event: unknown) => Trigger);
  /** Headers an HTTP error reply carries besides the contract's (e.g. `cache-control`). */
  headers?: Record<string, string>;
}

export const httpErrorResponse = (
  error: GatewayError,
  headers: Record<string, string> = {},
): APIGatewayProxyStructuredResultV2 => ({
  statusCode: error.status,
  headers: {
    'content-type': 'application/json',
    ...(error.code === 'RATE_LIMITED' || error.code === 'GATEWAY_BUSY'
      ? { 'retry-after': String(retryAfterSeconds(error.details)) }
      : {}),
    ...headers,
  },
  body: JSON.stringify({ error: error.toBody() }),
});

/** The Error a direct invocation fails with: name = PascalCase code, message = the JSON error body. */
export const directInvocationError = (error: GatewayError): Error => {
  const thrown = new Error(JSON.stringify({ error: error.toBody() }));
  thrown.name = error.name;
  return thrown;
};

const triggerOf = (options: Pick<ErrorContractOptions, 'trigger'>, event: unknown): Trigger =>
  typeof options.trigger === 'function' ? options.trigger(event) : options.trigger;

/** What was thrown, as the contract's error for this trigger (redacted: the last net before the caller). */
export const contractError = (thrown: unknown, trigger: Trigger): GatewayError => {
  const error = fromDirectInvocation(thrown);
  if (trigger !== 'api' && error.code === 'INTERNAL_ERROR' && !(thrown instanceof GatewayError)) {
    let text: string;
    try {
      text = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
    } catch {
      text = `a thrown ${typeof thrown}`;
    }
    return redactError(new InternalError(`Unexpected error: ${capText(text, 1_000)}`, { cause: thrown }));
  }
  return redactError(error);
};

export const errorContract = <TContext extends Context = Context>(
  options: ErrorContractOptions,
): MiddlewareObj<unknown, unknown, Error, TContext> => ({
  name: 'errorContract',
  onError: (request) => {
    // The last net before the caller: no known secret and nothing token-shaped in any error reply.
    const trigger = triggerOf(options, request.event);
    let error = contractError(request.error, trigger);
    const http = trigger === 'api' && isHttpApiEvent(request.event);
    try {
      if (http) request.response = httpErrorResponse(error, options.headers);
      else request.error = directInvocationError(error);
    } catch (renderError) {
      // An error whose body cannot be rendered (a bug in what it carries) still leaves inside the contract.
      error = new InternalError('Unexpected error in the gateway; see the function logs for the request id.', {
        cause: renderError,
      });
      if (http) request.response = httpErrorResponse(error, options.headers);
      else request.error = directInvocationError(error);
    }
  },
});
