/**
 * Idempotent order actions with Powertools for AWS Lambda's idempotency utility and its DynamoDB persistence layer.
 *
 * The record key is the caller's key (per operation); the record also keeps a hash of the validated input, so the
 * same key with another body is refused. A success is stored and replayed. An outcome-unknown failure (timeout or
 * lost reply after sending) is stored too, so a retry with the same key gets the same "check the pending list"
 * answer instead of a blind second order. Failures where the broker certainly did not act free the key.
 */
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context } from 'aws-lambda';

import {
  type ErrorBody,
  errorFromBody,
  GatewayError,
  IdempotencyInProgressError,
  IdempotencyKeyReusedError,
  InternalError,
  toGatewayError,
} from '../contract/errors.js';
import { redactDeep } from '../contract/redact.js';
import type { LifecycleEvent } from '../schemas/events.js';
import { dynamoDbClient } from './dynamodb-client.js';

type JSONValue = string | number | boolean | null | JSONValue[] | { [key: string]: JSONValue };
/** `outbox`: the lifecycle events of the success, for the EventForwarder (events/outbox.ts); never replayed. */
type StoredOutcome = { kind: 'ok'; result: JSONValue; outbox?: JSONValue } | { kind: 'unknown'; error: ErrorBody };
type Replayable = StoredOutcome & { replayed?: boolean };

export interface IdempotencyStoreOptions {
  tableName: string;
  ttlSeconds: number;
  /** Local runs and tests only (dynalite). */
  endpoint?: string;
}

export interface IdempotentRun<T> {
  result: T;
  replayed: boolean;
}

interface Call {
  key: string;
  input: unknown;
}

/** The call's result and the lifecycle events of its success, which the record's completing write carries. */
interface Executed {
  result: unknown;
  events?: readonly LifecycleEvent[] | undefined;
}

interface Progress {
  /** The broker call completed (its result, or an outcome-unknown failure, is what gets stored). */
  executed: boolean;
  /** What the call itself threw, as opposed to the idempotency store. */
  failure?: unknown;
}

export class IdempotentExecutor {
  private readonly config: IdempotencyConfig;
  private readonly idempotent: (
    call: Call,
    execute: () => Promise<Executed>,
    progress: Progress,
  ) => Promise<Replayable>;

  constructor(operation: string, store: DynamoDBPersistenceLayer, ttlSeconds: number) {
    this.config = new IdempotencyConfig({
      eventKeyJmesPath: 'key',
      payloadValidationJmesPath: 'input',
      expiresAfterSeconds: ttlSeconds,
      // Called only when a stored response is returned instead of running the function.
      responseHook: (response) => ({ ...(response as Record<string, JSONValue>), replayed: true }),
    });
    this.idempotent = makeIdempotent(
      async (_call: Call, execute: () => Promise<Executed>, progress: Progress): Promise<Replayable> => {
        try {
          const { result, events } = await execute();
          progress.executed = true;
          return {
            kind: 'ok',
            result: result as JSONValue,
            ...(events?.length ? { outbox: redactDeep([...events]) as unknown as JSONValue } : {}),
          };
        } catch (error) {
          if (error instanceof GatewayError && error.outcome === 'unknown') {
            progress.executed = true;
            return { kind: 'unknown', error: error.toBody() };
          }
          // Thrown by the call itself, not by the store: it must not be reported as a store failure.
          progress.failure = error;
          throw error;
        }
      },
      // A stable prefix per operation: keys of place and modify never collide, and renaming a function keeps them.
      { persistenceStore: store, config: this.config, keyPrefix: `gtt-gateway.${operation}`, dataIndexArgument: 0 },
    );
  }

  /**
   * Runs `execute` once per key. Its `events` (the success's lifecycle events) are stored as the record's `outbox`
   * in the same write that completes it (events/outbox.ts), and never returned: a replay answers the result only.
   */
  async run<T>(
    key: string,
    input: unknown,
    context: Context,
    execute: () => Promise<{ result: T; events?: readonly LifecycleEvent[] | undefined }>,
  ): Promise<IdempotentRun<T>> {
    // In-progress records expire with this invocation's remaining time, so a crashed call does not lock the key.
    this.config.registerLambdaContext(context);
    const progress: Progress = { executed: false };
    let stored: Replayable;
    try {
      stored = await this.idempotent({ key, input: canonicalNumbers(input) }, execute, progress);
    } catch (error) {
      if (progress.failure !== undefined && error === progress.failure) throw toGatewayError(error);
      throw mapIdempotencyError(error, key, progress.executed);
    }
    if (stored.kind === 'unknown') {
      const error = errorFromBody(stored.error);
      if (stored.replayed) {
        error.message = `Replay of idempotency key "${key}": the first attempt's outcome is unknown. ${error.message}`;
      }
      throw error;
    }
    return { result: stored.result as T, replayed: stored.replayed === true };
  }
}

/** The input's numeric fields (prices, triggers, quantities; a plan's leg prices and trail), whose spelling does not change the order. */
const NUMERIC_FIELDS = new Set(['prc', 'd', 'qty', 'trgprc', 'trigger', 'ltp', 'price', 'trailBy', 'step']);

/** `100.50`, `100.5` and `0100.5` are one price: the canonical spelling, for the same-body check of a key. */
const canonicalDecimal = (text: string): string => {
  const match = /^0*(\d*?)(?:\.(\d*?)0*)?$/.exec(text);
  if (!match) return text;
  const whole = match[1] === '' ? '0' : match[1]!;
  return match[2] ? `${whole}.${match[2]}` : whole;
};

/**
 * The validated input with every numeric field in its canonical spelling, at any depth (OCO legs): what the
 * idempotency record hashes, so a retry that spells `prc` as `100.0` after `100` is the same request.
 */
export const canonicalNumbers = (value: unknown, field?: string): unknown => {
  if (typeof value === 'string')
    return field !== undefined && NUMERIC_FIELDS.has(field) ? canonicalDecimal(value) : value;
  if (Array.isArray(value)) return value.map((item) => canonicalNumbers(item));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, canonicalNumbers(item, key)]));
  }
  return value;
};

const mapIdempotencyError = (error: unknown, key: string, executed: boolean): unknown => {
  if (error instanceof GatewayError) return error;
  const name = error instanceof Error ? error.name : '';
  if (name === 'IdempotencyValidationError') {
    return new IdempotencyKeyReusedError(
      `Idempotency key "${key}" was already used with a different request body; use a new key for a new order.`,
      { outcome: 'not_executed' },
    );
  }
  if (name === 'IdempotencyAlreadyInProgressError') {
    return new IdempotencyInProgressError(
      `A request with idempotency key "${key}" is still in flight; retry in a moment to get its result.`,
      { outcome: 'not_executed' },
    );
  }
  // The store failed. Before the broker call nothing happened; after it, the order exists but was not recorded.
  return new InternalError(
    executed
      ? `The broker call completed but its idempotency record for key "${key}" could not be saved; check the pending orders (GET /gtt-orders) before retrying.`
      : `The idempotency store is unavailable; nothing was sent to the broker.`,
    { cause: error, outcome: executed ? 'unknown' : 'not_executed' },
  );
};

export const createIdempotencyStore = (options: IdempotencyStoreOptions): DynamoDBPersistenceLayer =>
  new DynamoDBPersistenceLayer({
    tableName: options.tableName,
    awsSdkV3Client: dynamoDbClient(options.endpoint),
  });

/** The gateway's idempotency: Powertools on the deployment's DynamoDB table (an IdempotencyFactory). */
export const dynamoIdempotency = (
  operation: { name: string },
  config: { idempotencyTableName: string; idempotencyTtlSeconds: number; dynamodbEndpoint?: string | undefined },
): IdempotentExecutor =>
  new IdempotentExecutor(
    operation.name,
    createIdempotencyStore({
      tableName: config.idempotencyTableName,
      ttlSeconds: config.idempotencyTtlSeconds,
      endpoint: config.dynamodbEndpoint,
    }),
    config.idempotencyTtlSeconds,
  );
