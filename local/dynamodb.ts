/**
 * A real DynamoDB-compatible endpoint on 127.0.0.1 (dynalite, in memory) holding the idempotency table, for
 * `npm start` and the tests. The tables have the layouts the CDK stack deploys (idempotency: partition key `id`;
 * OAuth state: partition key `state`).
 */
import type { AddressInfo } from 'node:net';

import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';

export const LOCAL_IDEMPOTENCY_TABLE = 'gtt-gateway-idempotency';

export interface LocalDynamo {
  url: string;
  tableName: string;
  close(): Promise<void>;
}

export const LOCAL_OAUTH_STATE_TABLE = 'gtt-gateway-oauth-state';
/** Published-event markers and the watcher's state (partition key `pk`, sort key `sk`). */
export const LOCAL_EVENTS_TABLE = 'gtt-gateway-events';
/** The trading controls: the order-rate governor and the kill switch (partition key `pk`). */
export const LOCAL_CONTROL_TABLE = 'gtt-gateway-controls';

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
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tableName = options.tableName ?? LOCAL_IDEMPOTENCY_TABLE;
  const client = new DynamoDBClient({ endpoint: url });
  try {
    const tables: { name: string; key: string; sortKey?: string }[] = [
      { name: tableName, key: 'id' },
      ...(options.extraTables ?? []),
    ];
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
    tableName,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
