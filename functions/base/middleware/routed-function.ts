/**
 * The shell of a manifest function with routes of its own (plans, the kill switch, the events history): Powertools'
 * logger and metrics and the one error contract for both ways in (base/middleware/function-shell.ts: an HTTP reply with
 * the contract's body and status, or a named error for a direct caller), its own line per failure, and the request
 * rules (routed-request.ts). The
 * function itself is `run(request, context)`: what to do for one route, given a request that passed every rule.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

import { fromDirectInvocation } from '../contract/errors.js';
import { isHttpApiEvent } from '../contract/gateway-request.js';
import type { FunctionSurface } from '../definition/types.js';
import { writeLog } from '../runtime/logger.js';
import { functionShell } from './function-shell.js';
import { readRoutedRequest, type RoutedRequest } from './routed-request.js';

/**
 * What a route answers: its body, and a status other than the route's `successStatus` when it must (a replay). The
 * MCP route answers its transport's own reply: `raw` (the HTTP body as is, empty for a 202) and its `headers`.
 */
export interface RoutedReply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  raw?: string;
}

/** `event`: the raw event, for what a route reads of its envelope (the API's own domain name). */
export type RoutedRun = (request: RoutedRequest, context: Context, event: unknown) => Promise<RoutedReply>;

/** The function's own line per failure (`<name> call failed`, with its code), before the error contract renders it. */
export const routedFailureLog = (entry: FunctionSurface, logger: Logger): MiddlewareObj => ({
  name: 'routedFailureLog',
  onError: (request) => {
    // A failure of the operation table's own entries (run in-process) arrives as their direct-invocation error.
    const failure = fromDirectInvocation(request.error);
    writeLog(logger, failure.status >= 500 ? 'error' : 'warn', `${entry.name} call failed`, {
      code: failure.code,
      message: failure.message,
    });
  },
});

/** An HTTP reply; its `content-type` is JSON unless the reply says otherwise, and absent when it has no body. */
const httpReply = (reply: RoutedReply, status: number): APIGatewayProxyStructuredResultV2 => {
  const body = reply.raw ?? JSON.stringify(reply.body);
  return {
    statusCode: reply.status ?? status,
    headers: { ...(body === '' ? {} : { 'content-type': 'application/json' }), ...reply.headers },
    body,
  };
};

export interface RoutedFunctionOptions {
  logger: Logger;
  /**
   * What an HTTP request is answered before the request rules read it, if anything (the MCP server's 405 for a
   * method of its path other than POST, which reaches it through its `anyMethod` route).
   */
  answerFirst?: (event: APIGatewayProxyEventV2) => (RoutedReply & { status: number }) | undefined;
}

export const createRoutedFunction = (entry: FunctionSurface, run: RoutedRun, options: RoutedFunctionOptions) =>
  functionShell<unknown, unknown>({ logger: options.logger, trigger: 'api' })
    .use(routedFailureLog(entry, options.logger))
    .handler(async (event: unknown, context: Context) => {
      const early = isHttpApiEvent(event) ? options.answerFirst?.(event) : undefined;
      if (early) return httpReply(early, early.status);
      const request = readRoutedRequest(entry, event);
      const reply = await run(request, context, event);
      return isHttpApiEvent(event) ? httpReply(reply, request.route.successStatus) : reply.body;
    });
