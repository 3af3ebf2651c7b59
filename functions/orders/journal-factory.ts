/** The deployment's journal of broker writes for one operation, on its idempotency table (a JournalFactory). */
import type { OrderJournal } from './journal.js';
import { DynamoOrderJournal } from './journal-dynamo.js';

export const dynamoJournal = (
  operation: { name: string },
  config: {
    idempotencyTableName: string;
    idempotencyTtlSeconds: number;
    orderLateWindowMs: number;
    dynamodbEndpoint?: string | undefined;
  },
): OrderJournal =>
  new DynamoOrderJournal(operation.name, {
    tableName: config.idempotencyTableName,
    ttlSeconds: config.idempotencyTtlSeconds,
    lateWindowMs: config.orderLateWindowMs,
    endpoint: config.dynamodbEndpoint,
  });
