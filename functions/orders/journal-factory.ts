/** The deployment's journal of broker writes for one operation, on its idempotency table (an IdempotencyFactory). */
import { OrderJournal } from './journal.js';

export const dynamoIdempotency = (
  operation: { name: string },
  config: {
    idempotencyTableName: string;
    idempotencyTtlSeconds: number;
    orderLateWindowMs: number;
    dynamodbEndpoint?: string | undefined;
  },
): OrderJournal =>
  new OrderJournal(operation.name, {
    tableName: config.idempotencyTableName,
    ttlSeconds: config.idempotencyTtlSeconds,
    lateWindowMs: config.orderLateWindowMs,
    endpoint: config.dynamodbEndpoint,
  });
