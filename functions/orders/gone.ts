/**
 * The orders the gateway itself cancelled after a journaled write placed them (the kill switch's sweep): the broker's
 * lists no longer show a cancelled GTT, so only this record keeps a retry of the write's key from placing it again
 * (journal.ts settles an unknown outcome by the books first, then by this). One item per stamp in the journal's table,
 * kept as long as the keys are.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import { dynamoDbClient, GetItemCommand, PutItemCommand } from '../base/aws/dynamo.js';
import { InternalError } from '../base/contract/errors.js';

/** The journal's table, where the gateway's records of stamps live beside the keys (this file, moves.ts). */
export interface Table {
  tableName: string;
  endpoint?: string | undefined;
}

/** A record of stamps that cannot be read or written: nothing was sent. */
export const unavailable = (error: unknown): InternalError =>
  new InternalError('The idempotency store is unavailable; nothing was sent to the broker.', {
    cause: error,
    outcome: 'not_executed',
  });

/** One record of the journal's table, read consistently (`unavailable` when it cannot be). */
export const readRecord = async (
  table: Table,
  key: Record<string, AttributeValue>,
): Promise<Record<string, AttributeValue> | undefined> => {
  try {
    return (
      await dynamoDbClient(table.endpoint).send(
        new GetItemCommand({ TableName: table.tableName, Key: key, ConsistentRead: true }),
      )
    ).Item;
  } catch (error) {
    throw unavailable(error);
  }
};

/** The key (`id`) of a swept order's record is this prefix and the stamp. */
export const GONE_PREFIX = 'gone#';
const goneKey = (stamp: string): Record<string, AttributeValue> => ({ id: { S: `${GONE_PREFIX}${stamp}` } });

/** Records that the gateway cancelled the stamped order `alId`. */
export const recordGone = async (table: Table & { ttlSeconds: number }, stamp: string, alId: string): Promise<void> => {
  await dynamoDbClient(table.endpoint).send(
    new PutItemCommand({
      TableName: table.tableName,
      Item: {
        ...goneKey(stamp),
        status: { S: 'GONE' },
        al_id: { S: alId },
        expiration: { N: String(Math.floor(Date.now() / 1000) + table.ttlSeconds) },
      },
    }),
  );
};

/** The order the gateway cancelled for this stamp, if it did. */
export const findGone = async (table: Table, stamp: string): Promise<string | undefined> =>
  (await readRecord(table, goneKey(stamp)))?.al_id?.S;
