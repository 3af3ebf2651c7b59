/**
 * A real DynamoDB-compatible endpoint on 127.0.0.1 (dynalite, in memory) holding the idempotency table, for
 * `npm start` and the tests. The tables have the layouts the CDK stack deploys (idempotency: partition key `id`;
 * OAuth state: partition key `state`).
 */
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';

export const LOCAL_IDEMPOTENCY_TABLE = 'gtt-gateway-idempotency';

export interface LocalDynamo {
  url: string;
  tableName: string;
  close(): Promise<void>;
}

export const LOCAL_OAUTH_STATE_TABLE = 'gtt-gateway-oauth-state';
/** Published-event markers and the watcher's snapshot (partition key `pk`). */
export const LOCAL_EVENTS_TABLE = 'gtt-gateway-events';
/** The trading controls: the order-rate governor and the kill switch (partition key `pk`). */
export const LOCAL_CONTROL_TABLE = 'gtt-gateway-controls';

export interface LocalDynamoOptions {
  port?: number;
  /** The idempotency table's name (partition key `id`). */
  tableName?: string;
  /** More tables, each with a string partition key (e.g. the OAuth `state` table). */
  extraTables?: { name: string; key: string }[];
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
    for (const table of [{ name: tableName, key: 'id' }, ...(options.extraTables ?? [])]) {
      await client.send(
        new CreateTableCommand({
          TableName: table.name,
          AttributeDefinitions: [{ AttributeName: table.key, AttributeType: 'S' }],
          KeySchema: [{ AttributeName: table.key, KeyType: 'HASH' }],
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
