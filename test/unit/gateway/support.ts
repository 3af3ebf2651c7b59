/** A middleware around a one-line handler, as Middy's own tests wrap theirs: the request's record the observers read. */
import type { MiddlewareObj } from '@middy/core';
import middy from '@middy/core';

import { type GatewayContext, openRecord, type RequestRecord } from '../../../functions/orders/gateway/context.js';
import { lambdaContext } from '../../../local/lambda-context.js';

type Gateway = MiddlewareObj<unknown, unknown, Error, GatewayContext>;

/** Runs `middlewares` (outermost first) around `body`, with the record opened as accessLog would open it. */
export const run = async (
  middlewares: Gateway[],
  body: (context: GatewayContext) => unknown,
  event: unknown = {},
  state: Partial<RequestRecord> = {},
): Promise<{ result?: unknown; error?: unknown; context: GatewayContext }> => {
  const context = lambdaContext('Test') as GatewayContext;
  const seed: Gateway = {
    name: 'seed',
    before: (request) => {
      request.context.gateway ??= { ...openRecord('direct'), ...state };
    },
  };
  const handler = middy<unknown, unknown, Error, GatewayContext>()
    .use([seed, ...middlewares])
    .handler(async (_event, ctx) => body(ctx));
  try {
    return { result: await handler(event, context), context };
  } catch (error) {
    return { error, context };
  }
};
