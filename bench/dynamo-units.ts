/**
 * The DynamoDB calls a bench section makes, counted at the gateway's own client (functions/base/aws/dynamo.ts: its
 * `send` wrapped), with the write and read units DynamoDB on-demand would bill for each, from the item sizes
 * DynamoDB's rules give (writes: 1 unit per KB per item; strongly consistent Query: 1 unit per 4 KB of the page;
 * eventually consistent BatchGetItem: half a unit per item up to 4 KB).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import { type DynamoCommand, dynamoDbClient } from '../functions/base/aws/dynamo.js';

/** On-demand prices, us-east-1 (per million request units, since November 2024); ap-south-1 is within a few % of it. */
export const PRICE_PER_MILLION = { write: 0.625, read: 0.125 };
/** One cycle a minute, 09:00-15:59 India time on weekdays (the default schedule): 420 cycles a day, 22 days. */
export const CYCLES_PER_MONTH = 420 * 22;

type Item = Record<string, AttributeValue>;
const valueBytes = (v: AttributeValue): number =>
  v.S !== undefined
    ? Buffer.byteLength(v.S)
    : v.N !== undefined
      ? Math.ceil(v.N.length / 2) + 1
      : v.BOOL !== undefined
        ? 1
        : v.NULL
          ? 1
          : JSON.stringify(v).length;
const itemBytes = (item: Item) =>
  Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueBytes(value), 0);

export interface Counter {
  calls: Record<string, number>;
  bytesWritten: number;
  writeUnits: number;
  readUnits: number;
}
export const emptyCounter = (): Counter => ({ calls: {}, bytesWritten: 0, writeUnits: 0, readUnits: 0 });

/** Counts the calls of the (shared, per endpoint) DynamoDB client the watcher uses, and what they would cost. */
export const countCalls = (endpoint: string) => {
  let counter = emptyCounter();
  const client = dynamoDbClient(endpoint);
  const send = client.send.bind(client);
  // The gateway's own client (functions/base/aws/dynamo.ts): its one `send`, wrapped for this bench.
  client.send = (async (command: DynamoCommand<unknown, unknown>, options?: { abortSignal?: AbortSignal }) => {
    const result = await send(command, options);
    const name = `${command.operation}Command`;
    counter.calls[name] = (counter.calls[name] ?? 0) + 1;
    const input = command.input as Record<string, unknown>;
    const output = result as unknown as Record<string, unknown>;
    if (name === 'BatchWriteItemCommand') {
      for (const requests of Object.values(input.RequestItems as Record<string, { PutRequest?: { Item: Item } }[]>)) {
        for (const r of requests) {
          const bytes = r.PutRequest ? itemBytes(r.PutRequest.Item) : 0;
          counter.bytesWritten += bytes;
          counter.writeUnits += Math.max(1, Math.ceil(bytes / 1024));
        }
      }
    } else if (name === 'UpdateItemCommand' || name === 'PutItemCommand' || name === 'DeleteItemCommand') {
      const attributes = output.Attributes as Item | undefined;
      const bytes = attributes ? itemBytes(attributes) : 100;
      counter.bytesWritten += bytes;
      counter.writeUnits += Math.max(1, Math.ceil(bytes / 1024));
    } else if (name === 'QueryCommand') {
      const bytes = ((output.Items as Item[] | undefined) ?? []).reduce((sum, item) => sum + itemBytes(item), 0);
      counter.readUnits += Math.max(1, Math.ceil(bytes / 4096)) * (input.ConsistentRead ? 1 : 0.5);
    } else if (name === 'BatchGetItemCommand') {
      const keys = Object.values(input.RequestItems as Record<string, { Keys: unknown[] }>).reduce(
        (sum, r) => sum + r.Keys.length,
        0,
      );
      counter.readUnits += keys * 0.5;
    } else if (name === 'GetItemCommand') {
      counter.readUnits += input.ConsistentRead ? 1 : 0.5;
    }
    return result;
  }) as typeof client.send;
  return {
    take: (): Counter => {
      const taken = counter;
      counter = emptyCounter();
      return taken;
    },
    remove: () => {
      client.send = send;
    },
  };
};
