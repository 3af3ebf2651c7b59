/**
 * One DynamoDB client per container and endpoint, shared by the idempotency store and the events table: a client's
 * first call pays for its set-up (credentials, endpoint rules, connection), so two clients would pay twice on a
 * cold start.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

const clients = new Map<string, DynamoDBClient>();

export const dynamoDbClient = (endpoint?: string): DynamoDBClient => {
  const key = endpoint ?? '';
  let client = clients.get(key);
  if (!client) {
    client = new DynamoDBClient(endpoint ? { endpoint } : {});
    clients.set(key, client);
  }
  return client;
};

/** A conditional write that lost (the item is not as the condition said): an answer, not a failure. */
export const isConditionFailure = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';
