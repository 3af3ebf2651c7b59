/**
 * A real DynamoDB-compatible endpoint on 127.0.0.1 (dynalite, in memory, behind local/dynamodb-streams.ts for the
 * streams and condition-failure values dynalite lacks) holding the idempotency table, for `npm start` and the
 * tests. The tables have the layouts the CDK stack deploys (idempotency: partition key `id`; OAuth state: partition
 * key `state`).
 */
import type { AddressInfo } from 'node:net';

import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';

import { type DynamoProxy, startDynamoProxy } from './dynamodb-streams.js';

export const LOCAL_IDEMPOTENCY_TABLE = 'gtt-gateway-idempotency';

export interface LocalDynamo {
  /** The proxy in front of dynalite (streams, ALL_OLD on a failed condition, a call log): what clients use. */
  url: string;
  /** dynalite itself, without the proxy's hop (the benchmark's warm rows, which time the gateway's own work). */
  directUrl: string;
  tableName: string;
  streams: Pick<DynamoProxy, 'subscribe' | 'idle' | 'calls' | 'guard'>;
  /** Each table's partition key (what `dynamodb:LeadingKeys` reads). */
  partitionKeyOf(table: string): string;
  close(): Promise<void>;
}

export const LOCAL_OAUTH_STATE_TABLE = 'gtt-gateway-oauth-state';
/** Published-event markers and the watcher's state (partition key `pk`, sort key `sk`). */
export const LOCAL_EVENTS_TABLE = 'gtt-gateway-events';
/** The trading controls: the order-rate governor and the kill switch (partition key `pk`). */
export const LOCAL_CONTROL_TABLE = 'gtt-gateway-controls';
/** The instruments' copy (partition key `pk`): functions/orders/instruments/copy.ts. */
export const LOCAL_INSTRUMENTS_TABLE = 'gtt-gateway-instruments';

export interface LocalDynamoOptions {
  port?: number;
  /** The idempotency table's name (partition key `id`). */
  tableName?: string;
  /** More tables, each with a string partition key and maybe a string sort key (e.g. the OAuth `state` table). */
  extraTables?: { name: string; key: string; sortKey?: string }[];
}

export const startLocalDynamo = async (options: LocalDynamoOptions = {}): Promise<LocalDynamo> => {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const directUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const proxy = await startDynamoProxy(directUrl);
  const url = proxy.url;
  const tableName = options.tableName ?? LOCAL_IDEMPOTENCY_TABLE;
  const client = new DynamoDBClient({ endpoint: url });
  const tables: { name: string; key: string; sortKey?: string }[] = [
    { name: tableName, key: 'id' },
    ...(options.extraTables ?? []),
  ];
  try {
    for (const table of tables) {
      const keys = [table.key, ...(table.sortKey ? [table.sortKey] : [])];
      await client.send(
        new CreateTableCommand({
          TableName: table.name,
          AttributeDefinitions: keys.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
          KeySchema: keys.map((name, i) => ({ AttributeName: name, KeyType: i ? 'RANGE' : 'HASH' })),
          BillingMode: 'PAY_PER_REQUEST',
        }),
      );
    }
  } finally {
    client.destroy();
  }
  return {
    url,
    directUrl,
    tableName,
    streams: proxy,
    partitionKeyOf: (table) => tables.find((t) => t.name === table)?.key ?? 'pk',
    close: async () => {
      await proxy.idle();
      await proxy.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
