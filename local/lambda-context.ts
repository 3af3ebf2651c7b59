/**
 * A Lambda `Context` for running handlers in-process (local API, tests, benchmarks). Its time left counts down from the
 * function's own timeout in the manifest (the InstrumentRefresh's 300 s, the MCP server's 25 s...), as deployed; a
 * function with none gets 15 s here, a little above the deployed 12 s, since the local stack shares its cores with
 * the emulator and the tests.
 */
import { randomUUID } from 'node:crypto';

import type { Context } from 'aws-lambda';

import { functionNamed } from '../functions/manifest/index.js';

/** The local stand-in's time for a function whose manifest entry sets none. */
export const LOCAL_DEFAULT_TIMEOUT_MS = 15_000;

/** The time a function named `functionName` has per invocation here: its manifest timeout, or the local default. */
export const localTimeoutMs = (functionName: string): number => {
  const seconds = functionNamed(functionName)?.bundle.timeoutSeconds;
  return seconds === undefined ? LOCAL_DEFAULT_TIMEOUT_MS : seconds * 1_000;
};

export const lambdaContext = (functionName: string, timeoutMs = localTimeoutMs(functionName)): Context => {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};
