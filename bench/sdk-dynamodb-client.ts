/**
 * The AWS SDK v3 DynamoDB client as the functions built it before their own (functions/base/aws/dynamo.ts): one per
 * endpoint, the command handlers cached, the SDK's unread log step removed. Row (a) of bench/dynamo-clients.ts.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

import { clientTarget } from '../functions/base/aws/endpoint.js';

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
