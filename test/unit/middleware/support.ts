/** A middleware around a one-line handler, as Middy's own tests wrap theirs. */
import type { MiddlewareObj } from '@middy/core';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';

import { lambdaContext } from '../../../local/lambda-context.js';

/** Runs `middlewares` (outermost first) around `body`. */
export const run = async (
  middlewares: MiddlewareObj[],
  body: (context: Context) => unknown,
  event: unknown = {},
): Promise<{ result?: unknown; error?: unknown; context: Context }> => {
  const context = lambdaContext('Test');
  const handler = middy()
    .use(middlewares)
    .handler(async (_event: unknown, ctx: Context) => body(ctx));
  try {
    return { result: await handler(event, context), context };
  } catch (error) {
    return { error, context };
  }
};
