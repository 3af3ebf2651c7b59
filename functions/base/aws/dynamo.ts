/**
 * The DynamoDB client of the function set: DynamoDB's JSON 1.0 protocol (`POST /`, `X-Amz-Target:
 * DynamoDB_20120810.<Op>`, `Content-Type: application/x-amz-json-1.0`) through the gateway's AWS client
 * (json-client.ts: SigV4, a keep-alive `node:http(s)` agent held per container, the SDK's retries). Chosen by measurement against the AWS SDK v3 client,
 * @aws-lite/client and aws4fetch (bench/dynamo-clients.ts, docs/explanation/benchmarks.md): about a third of the SDK's CPU per
 * warm call and of its cold start, 2 KB of bundle against 190 KB.
 *
 * It keeps the SDK's shapes so the call sites read as before: command classes with the SDK's names holding the
 * SDK's input types (`import type` only: no SDK code at run time), `send(command, { abortSignal })`, and errors named
 * after the exception (`ConditionalCheckFailedException`, `TransactionCanceledException`...) carrying the reply's
 * fields (`Item`, `CancellationReasons`) and `$metadata.httpStatusCode`. Attribute values go on the wire as given:
 * the gateway stores no binary (`B`/`BS`, which the protocol would want in base64).
 *
 * Where and as whom, as before (endpoint.ts): locally the endpoint URL and its user info's credentials; deployed
 * `https://dynamodb.<AWS_REGION>.amazonaws.com` with the role's credentials from the environment, read per call.
 * Retries follow the SDK's standard mode as @smithy/core (3.x, `Retry.v2026`) configures it for DynamoDB (retry.ts).
 */
import type {
  BatchGetItemInput,
  BatchGetItemOutput,
  BatchWriteItemInput,
  BatchWriteItemOutput,
  CancellationReason,
  DeleteItemInput,
  DeleteItemOutput,
  GetItemInput,
  GetItemOutput,
  PutItemInput,
  PutItemOutput,
  QueryInput,
  QueryOutput,
  TransactWriteItemsInput,
  TransactWriteItemsOutput,
  UpdateItemInput,
  UpdateItemOutput,
} from '@aws-sdk/client-dynamodb';

import {
  AwsError,
  AwsJsonClient,
  type AwsJsonService,
  type AwsMetadata,
  errorOf,
  type SendOptions,
} from './json-client.js';
import { DYNAMODB_RETRY } from './retry.js';

/** One DynamoDB operation and its input; `O` is what its reply holds. */
export abstract class DynamoCommand<I, O> {
  abstract readonly operation: string;
  /** The reply's type (never set: it types `send`). */
  declare readonly output?: O;
  constructor(readonly input: I) {}
}

export class GetItemCommand extends DynamoCommand<GetItemInput, GetItemOutput> {
  readonly operation = 'GetItem';
}
export class PutItemCommand extends DynamoCommand<PutItemInput, PutItemOutput> {
  readonly operation = 'PutItem';
}
export class UpdateItemCommand extends DynamoCommand<UpdateItemInput, UpdateItemOutput> {
  readonly operation = 'UpdateItem';
}
export class DeleteItemCommand extends DynamoCommand<DeleteItemInput, DeleteItemOutput> {
  readonly operation = 'DeleteItem';
}
export class QueryCommand extends DynamoCommand<QueryInput, QueryOutput> {
  readonly operation = 'Query';
}
export class BatchGetItemCommand extends DynamoCommand<BatchGetItemInput, BatchGetItemOutput> {
  readonly operation = 'BatchGetItem';
}
export class BatchWriteItemCommand extends DynamoCommand<BatchWriteItemInput, BatchWriteItemOutput> {
  readonly operation = 'BatchWriteItem';
}
export class TransactWriteItemsCommand extends DynamoCommand<TransactWriteItemsInput, TransactWriteItemsOutput> {
  readonly operation = 'TransactWriteItems';
}

export { AwsError as DynamoError, type AwsMetadata as DynamoMetadata, errorOf, type SendOptions };

export interface DynamoClientOptions {
  /** Attempts per call (the SDK's DynamoDB default: 4). */
  maxAttempts?: number;
  /** The jitter's source (tests make the backoff short with it). */
  random?: () => number;
}

const DYNAMODB: AwsJsonService = {
  signingName: 'dynamodb',
  hostPrefix: 'dynamodb',
  targetPrefix: 'DynamoDB_20120810',
  jsonVersion: '1.0',
  title: 'DynamoDB',
};

export class DynamoClient {
  private readonly client: AwsJsonClient;

  constructor(endpoint?: string, options: DynamoClientOptions = {}) {
    this.client = new AwsJsonClient(DYNAMODB, endpoint, {
      retry: { ...DYNAMODB_RETRY, ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }) },
      ...(options.random ? { random: options.random } : {}),
    });
  }

  /** Sends the command, retrying what the SDK's standard mode retries; the reply, or the error of the last try. */
  send<O>(command: DynamoCommand<unknown, O>, options: SendOptions = {}): Promise<O & { $metadata: AwsMetadata }> {
    return this.client.call<O>(command.operation, command.input, options);
  }
}

const clients = new Map<string, DynamoClient>();

/**
 * One client per container and endpoint, shared by every table's code: its keep-alive connection is warm for the
 * next call, whichever store makes it.
 */
export const dynamoDbClient = (endpoint?: string): DynamoClient => {
  const key = endpoint ?? '';
  let client = clients.get(key);
  if (!client) {
    client = new DynamoClient(endpoint);
    clients.set(key, client);
  }
  return client;
};

/** A conditional write that lost (the item is not as the condition said): an answer, not a failure. */
export const isConditionFailure = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/** The reasons of a cancelled transaction, one per item; undefined for any other failure. */
export const cancellationReasons = (error: unknown): CancellationReason[] | undefined =>
  error instanceof Error && error.name === 'TransactionCanceledException'
    ? ((error as { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? [])
    : undefined;
