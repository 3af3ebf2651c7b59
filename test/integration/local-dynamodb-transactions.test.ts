/**
 * The local DynamoDB's TransactWriteItems (local/dynamodb-transactions.ts, which dynalite lacks), through the AWS
 * SDK as the functions call it: all or nothing, DynamoDB's cancellation reasons, ALL_OLD on a failed condition,
 * ClientRequestToken, and the validation DynamoDB does.
 */
import {
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  type TransactWriteItem,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LOCAL_EVENTS_TABLE, type LocalDynamo, startLocalDynamo } from '../../local/dynamodb.js';
import { useLocalAwsEnvironment } from '../../local/run-local.js';

let dynamo: LocalDynamo;
let client: DynamoDBClient;
const T = LOCAL_EVENTS_TABLE;
const key = (sk: string) => ({ pk: { S: 'tx' }, sk: { S: sk } });

beforeAll(async () => {
  useLocalAwsEnvironment();
  dynamo = await startLocalDynamo({ extraTables: [{ name: T, key: 'pk', sortKey: 'sk' }] });
  client = new DynamoDBClient({ endpoint: dynamo.url });
});
afterAll(async () => {
  client?.destroy();
  await dynamo?.close();
});

const get = async (sk: string) =>
  (await client.send(new GetItemCommand({ TableName: T, Key: key(sk), ConsistentRead: true }))).Item;
const transact = (items: TransactWriteItem[], token?: string) =>
  client.send(new TransactWriteItemsCommand({ TransactItems: items, ...(token ? { ClientRequestToken: token } : {}) }));
const failure = async (items: TransactWriteItem[]) => {
  try {
    await transact(items);
  } catch (error) {
    return error as Error & { CancellationReasons?: { Code?: string; Item?: unknown }[] };
  }
  throw new Error('the transaction went through');
};

describe('local TransactWriteItems', () => {
  it('writes every item when every condition holds', async () => {
    await client.send(new PutItemCommand({ TableName: T, Item: { ...key('a-check'), v: { S: '1' } } }));
    await client.send(new PutItemCommand({ TableName: T, Item: key('a-gone') }));
    await transact([
      {
        ConditionCheck: {
          TableName: T,
          Key: key('a-check'),
          ConditionExpression: 'v = :v',
          ExpressionAttributeValues: { ':v': { S: '1' } },
        },
      },
      {
        Put: {
          TableName: T,
          Item: { ...key('a-put'), n: { N: '1' } },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: T,
          Key: key('a-count'),
          UpdateExpression: 'ADD n :one',
          ExpressionAttributeValues: { ':one': { N: '1' } },
        },
      },
      { Delete: { TableName: T, Key: key('a-gone') } },
    ]);
    expect(await get('a-put')).toMatchObject({ n: { N: '1' } });
    expect(await get('a-count')).toMatchObject({ n: { N: '1' } });
    expect(await get('a-check')).toMatchObject({ v: { S: '1' } });
    expect(await get('a-gone')).toBeUndefined();
  });

  it('writes nothing when one condition fails, and says which, with the item when ALL_OLD is asked', async () => {
    await client.send(new PutItemCommand({ TableName: T, Item: { ...key('b-taken'), who: { S: 'first' } } }));
    await client.send(new PutItemCommand({ TableName: T, Item: { ...key('b-kept'), v: { S: 'old' } } }));
    const error = await failure([
      { Put: { TableName: T, Item: { ...key('b-kept'), v: { S: 'new' } } } },
      {
        Update: {
          TableName: T,
          Key: key('b-count'),
          UpdateExpression: 'ADD n :one',
          ExpressionAttributeValues: { ':one': { N: '1' } },
        },
      },
      {
        Put: {
          TableName: T,
          Item: { ...key('b-taken'), who: { S: 'second' } },
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      // A check on an item that does not exist leaves none behind.
      { ConditionCheck: { TableName: T, Key: key('b-absent'), ConditionExpression: 'attribute_not_exists(pk)' } },
    ]);
    expect(error.name).toBe('TransactionCanceledException');
    expect(error.CancellationReasons?.map((r) => r.Code)).toEqual(['None', 'None', 'ConditionalCheckFailed', 'None']);
    expect(error.CancellationReasons?.[2]?.Item).toMatchObject({ who: { S: 'first' } });
    expect(await get('b-kept')).toMatchObject({ v: { S: 'old' } });
    expect(await get('b-count')).toBeUndefined();
    expect(await get('b-taken')).toMatchObject({ who: { S: 'first' } });
    expect(await get('b-absent')).toBeUndefined();
  });

  it('the same ClientRequestToken again answers the first success without writing again; with another request, a mismatch', async () => {
    const add: TransactWriteItem[] = [
      {
        Update: {
          TableName: T,
          Key: key('c-count'),
          UpdateExpression: 'ADD n :one',
          ExpressionAttributeValues: { ':one': { N: '1' } },
        },
      },
    ];
    await transact(add, 'token-c');
    await transact(add, 'token-c');
    expect(await get('c-count')).toMatchObject({ n: { N: '1' } });
    await expect(transact([{ Delete: { TableName: T, Key: key('c-count') } }], 'token-c')).rejects.toThrow(
      /ClientRequestToken/,
    );
  });

  it('refuses two operations on one item, as DynamoDB does', async () => {
    await expect(
      transact([
        { Put: { TableName: T, Item: { ...key('d'), v: { S: '1' } } } },
        { Delete: { TableName: T, Key: key('d') } },
      ]),
    ).rejects.toThrow(/multiple operations on one item/);
    expect(await get('d')).toBeUndefined();
  });
});
