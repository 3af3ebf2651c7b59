/**
 * Where a journaled write's stamp went when a change through the gateway replaced it (docs/explanation/order-safety.md, "A stamp
 * across changes"). A modify or PATCH sends its own remarks (its own stamp, or none), so the order no longer carries
 * the stamp of the write that made it or last changed it. Right before such a change is sent, the stamp the order
 * carries is recorded here: `moved#<stamp>` with the order's `al_id` and the stamps of the changes that saw it
 * (`seenBy`). One item per stamp in the journal's table, kept as long as the keys are.
 *
 * What the record proves: the write with that stamp reached the broker (the order carried it), whatever became of the
 * order after (changed again, fired, cancelled). So a write whose outcome is unknown and whose stamp the books no
 * longer show is adopted as that order instead of being sent again (books.ts). And a keyed change that finds its
 * order still carrying the very stamp it recorded before it was sent knows it never landed.
 *
 * A keyed change also records the stamp it saw, under its own (`saw#<its stamp>`, written beside the first): an
 * order that carried a stamp when the change was about to be sent and now carries none was changed by another
 * request (an unkeyed change leaves no stamp), not left as it was.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import { dynamoDbClient, PutItemCommand, UpdateItemCommand } from '../base/aws/dynamo.js';
import { readRecord, type Table, unavailable } from './gone.js';

/** A stamp seen on an order right before a change replaced it. */
export interface StampMove {
  /** The order that carried the stamp. */
  alId: string;
  /** The stamps of the keyed changes that saw it there before they were sent (an unkeyed change has none). */
  seenBy: readonly string[];
}

const movedKey = (stamp: string): Record<string, AttributeValue> => ({ id: { S: `moved#${stamp}` } });
const sawKey = (stamp: string): Record<string, AttributeValue> => ({ id: { S: `saw#${stamp}` } });

/** Records, before a change is sent, that order `alId` carries `stamp` (seen by the change whose stamp is `by`). */
export const recordMove = async (
  table: Table & { ttlSeconds: number },
  stamp: string,
  alId: string,
  by: string | undefined,
): Promise<void> => {
  const client = dynamoDbClient(table.endpoint);
  const expiration = { N: String(Math.floor(Date.now() / 1000) + table.ttlSeconds) };
  try {
    await Promise.all([
      client.send(
        new UpdateItemCommand({
          TableName: table.tableName,
          Key: movedKey(stamp),
          UpdateExpression: `SET al_id = :a, #s = :s, expiration = :e${by === undefined ? '' : ' ADD seenBy :b'}`,
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: {
            ':a': { S: alId },
            ':s': { S: 'MOVED' },
            ':e': expiration,
            ...(by === undefined ? {} : { ':b': { SS: [by] } }),
          },
        }),
      ),
      by === undefined
        ? undefined
        : client.send(
            new PutItemCommand({
              TableName: table.tableName,
              Item: { ...sawKey(by), status: { S: 'SAW' }, stamp: { S: stamp }, al_id: { S: alId }, expiration },
            }),
          ),
    ]);
  } catch (error) {
    throw unavailable(error);
  }
};

/** Where the stamp was seen before a change replaced it, if a change through the gateway did. */
export const findMove = async (table: Table, stamp: string): Promise<StampMove | undefined> => {
  const item = await readRecord(table, movedKey(stamp));
  const alId = item?.al_id?.S;
  return alId === undefined ? undefined : { alId, seenBy: item?.seenBy?.SS ?? [] };
};

/** The stamp the keyed change whose stamp is `by` saw on its order right before it was sent, if it saw one. */
export const findSeen = async (table: Table, by: string): Promise<string | undefined> =>
  (await readRecord(table, sawKey(by)))?.stamp?.S;
