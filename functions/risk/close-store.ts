/**
 * The plan of each `POST /positions/close` (close.ts), kept under its idempotency key before its order is sent: the
 * side, quantity and protected price decided on the positions read then. A retry with the key sends that same order
 * again (the order core's journal answers the one already placed, or settles a lost reply from the order book), never
 * one decided afresh on a position the first order already changed. One item per key in the idempotency table, beside
 * the journal's entries, kept as long as they are.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import { dynamoDbClient, isConditionFailure, PutItemCommand } from '../base/aws/dynamo.js';
import { readRecord, type Table, unavailable } from '../orders/gone.js';
import { md5 } from '../orders/journal-entry.js';

export interface ClosePlan {
  /** The hash of the request (exchange, symbol, product, quantity asked) the key stands for. */
  request: string;
  exch: string;
  tsym: string;
  prd: string;
  trantype: 'B' | 'S';
  qty: number;
  prc: string;
  netQty: number;
  lastPrice: number;
}

export interface ClosePlans {
  get(key: string): Promise<ClosePlan | undefined>;
  /** Keeps `plan` for the key unless one is kept already: the plan that stands (this one or the first). */
  claim(key: string, plan: ClosePlan): Promise<ClosePlan>;
}

const PREFIX = 'close#';
const id = (key: string): Record<string, AttributeValue> => ({ id: { S: `${PREFIX}${md5(JSON.stringify(key))}` } });
const planOf = (item: Record<string, AttributeValue> | undefined): ClosePlan | undefined =>
  item?.plan?.S ? (JSON.parse(item.plan.S) as ClosePlan) : undefined;

/** The plans in the idempotency table (its `idempotencyTable` grant). */
export const dynamoClosePlans = (table: Table & { ttlSeconds: number }): ClosePlans => ({
  get: async (key) => planOf(await readRecord(table, id(key))),
  claim: async (key, plan) => {
    try {
      await dynamoDbClient(table.endpoint).send(
        new PutItemCommand({
          TableName: table.tableName,
          Item: {
            ...id(key),
            status: { S: 'CLOSE_PLAN' },
            plan: { S: JSON.stringify(plan) },
            expiration: { N: String(Math.floor(Date.now() / 1000) + table.ttlSeconds) },
          },
          ConditionExpression: 'attribute_not_exists(id)',
        }),
      );
      return plan;
    } catch (error) {
      if (!isConditionFailure(error)) throw unavailable(error);
      const first = planOf(await readRecord(table, id(key)));
      if (!first) throw unavailable(error);
      return first;
    }
  },
});
