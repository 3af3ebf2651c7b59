/**
 * The shell every Lambda of the function set runs in, whatever triggers it: Powertools' logger with the invocation's
 * Lambda context (function name, request id, cold start) on every line, Powertools' metrics written once at the end
 * of the invocation, the one error contract told the function's trigger (error-contract.ts), and (for the functions
 * with no log line of their own per failure) one line per failure naming its error code. The gateway's stack and the
 * routed functions add their own middlewares after these; the other functions wrap their handler in it directly.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { MiddlewareObj } from '@middy/core';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';

import { writeLog } from '../runtime/logger.js';
import { contractError, errorContract, type ErrorContractOptions } from './error-contract.js';

export interface ShellOptions extends ErrorContractOptions {
  logger: Logger;
  /** Written at the end of every invocation (absent: the function publishes no metrics). */
  metrics?: Metrics;
  /** Log each failure once (`function failed`, with its error code) before it leaves the function. */
  logFailures?: boolean;
}

/** One line per failed invocation of a queue or a schedule, as the error contract then renders it. */
export const failureLog = (logger: Logger): MiddlewareObj => ({
  name: 'failureLog',
  onError: (request) => {
    const failure = contractError(request.error, 'schedule');
    writeLog(logger, 'error', 'function failed', { failure: { code: failure.code, message: failure.message } });
  },
});

export const functionShell = <TEvent = unknown, TResult = unknown, TContext extends Context = Context>(
  options: ShellOptions,
) =>
  middy<TEvent, TResult, Error, TContext>()
    .use(injectLambdaContext(options.logger, { resetKeys: true }))
    .use(options.metrics ? [logMetrics(options.metrics)] : [])
    .use(errorContract<TContext>(options) as MiddlewareObj<TEvent, TResult, Error, TContext>)
    .use(options.logFailures ? [failureLog(options.logger) as MiddlewareObj<TEvent, TResult, Error, TContext>] : []);

/**
 * A function's handler in the shell, callable without a Lambda context too (tests and the local runner call the
 * scheduled functions that way; Lambda always passes one).
 */
export const shellHandler = <TEvent, TResult>(
  options: ShellOptions,
  fn: (event: TEvent, context: Context) => Promise<TResult>,
) => {
  const wrapped = functionShell<TEvent, TResult>(options).handler(fn);
  // An invocation without a context gets an empty one: no function name or request id on its log lines.
  return (event?: TEvent, context?: Context): Promise<TResult> => wrapped(event as TEvent, context ?? ({} as Context));
};
