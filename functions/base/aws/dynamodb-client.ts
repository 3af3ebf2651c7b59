/**
 * One DynamoDB client per container and endpoint, shared by the idempotency store and the events table: a client's
 * first call pays for its set-up (credentials, endpoint rules, connection), so two clients would pay twice on a
 * cold start. Built for warm calls too: the command handlers are cached and the SDK's unread log step is gone.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

import { clientTarget } from './endpoint.js';

const clients = new Map<string, DynamoDBClient>();

export const dynamoDbClient = (endpoint?: string): DynamoDBClient => {
  const key = endpoint ?? '';
  let client = clients.get(key);
  if (!client) {
    // The handler of each command is built once per client, not per call (the SDK's own cache, off by default).
    client = new DynamoDBClient({ ...clientTarget(endpoint), cacheMiddleware: true });
    // Nothing here reads the SDK's own log, yet its logger step copies every input and output through the
    // schema's sensitivity filter on each call, for a logger that discards it.
    client.middlewareStack.remove('loggerMiddleware');
    clients.set(key, client);
  }
  return client;
};

/** A conditional write that lost (the item is not as the condition said): an answer, not a failure. */
export const isConditionFailure = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';
