/**
 * A real DynamoDB-compatible endpoint on 127.0.0.1 (dynalite, in memory) holding the idempotency table, for
 * `npm start` and the tests. The table has the layout the CDK stack deploys (partition key `id`).
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

export const startLocalDynamo = async (options: { port?: number; tableName?: string } = {}): Promise<LocalDynamo> => {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tableName = options.tableName ?? LOCAL_IDEMPOTENCY_TABLE;
  const client = new DynamoDBClient({ endpoint: url });
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
  } finally {
    client.destroy();
  }
  return {
    url,
    tableName,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
