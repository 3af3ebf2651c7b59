/**
 * Signals read back (`GET /signals`, `GET /signals/{signalId}`): the records store.ts keeps 30 days, newest first.
 * A signal's id begins with the time it was made (tokens.ts), so one Query of the `signal` partition, backwards,
 * reads them by time; a strategy or state filter is applied by DynamoDB, and a page reads at most
 * MAX_QUERIES_PER_PAGE DynamoDB pages (the rest is the next page, whatever the filter skipped). The cursor is the last
 * signalId listed (base/schemas/paging.ts). A record never holds any part of a webhook token (webhook.ts masks it
 * before anything is stored), and is shown as stored, less its pending event.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import { type DynamoClient, dynamoDbClient, GetItemCommand, QueryCommand } from '../base/aws/dynamo.js';
import { decodeCursor, encodeCursor } from '../base/schemas/paging.js';
import type { SignalListInput, SignalRecord } from '../base/schemas/signals.js';
import { SIGNAL_PARTITIONS } from './store.js';

const PK = SIGNAL_PARTITIONS.signal;
const LIST = 'signals';
const MAX_QUERIES_PER_PAGE = 10;

const key = (signalId: string): Record<string, AttributeValue> => ({ pk: { S: PK }, sk: { S: signalId } });

export class SignalReader {
  private readonly client: DynamoClient;

  constructor(private readonly options: { tableName: string; endpoint?: string | undefined }) {
    this.client = dynamoDbClient(options.endpoint);
  }

  async get(signalId: string): Promise<SignalRecord | undefined> {
    const reply = await this.client.send(
      new GetItemCommand({ TableName: this.options.tableName, Key: key(signalId), ConsistentRead: true }),
    );
    const text = reply.Item?.signal?.S;
    return text ? (JSON.parse(text) as SignalRecord) : undefined;
  }

  /** One page, newest first. */
  async list(input: SignalListInput): Promise<{ signals: SignalRecord[]; nextCursor?: string }> {
    const position = input.cursor === undefined ? undefined : decodeCursor(input.cursor, LIST);
    if (typeof position === 'string') throw new Error(position); // the input schema refused it already
    const filters: string[] = [];
    const values: Record<string, AttributeValue> = { ':pk': { S: PK } };
    if (input.strategyId) {
      filters.push('strategyId = :strategyId');
      values[':strategyId'] = { S: input.strategyId };
    }
    if (input.state) {
      filters.push('#state = :state');
      values[':state'] = { S: input.state };
    }
    const signals: SignalRecord[] = [];
    let start = position ? key(position.after) : undefined;
    for (let n = 0; n < MAX_QUERIES_PER_PAGE && signals.length < input.limit; n++) {
      const reply = await this.client.send(
        new QueryCommand({
          TableName: this.options.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: values,
          ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
          ...(input.state ? { ExpressionAttributeNames: { '#state': 'state' } } : {}),
          ScanIndexForward: false,
          ConsistentRead: true,
          Limit: input.limit - signals.length,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of reply.Items ?? []) if (item.signal?.S) signals.push(JSON.parse(item.signal.S) as SignalRecord);
      start = reply.LastEvaluatedKey;
      if (!start) return { signals };
    }
    const after = start?.sk?.S;
    return { signals, ...(after ? { nextCursor: encodeCursor({ list: LIST, after, seen: 1 }) } : {}) };
  }
}
