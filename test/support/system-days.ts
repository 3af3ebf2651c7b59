/**
 * The journal entries of the gateway's own keys of a day, forgotten where the system model starts a new day or a new
 * broker (system-model.ts, system-risk.ts). A square-off's key (`risk-sq:<day>:<position>`) and autoCover's
 * (`cover-<day>-<position>-<netQty>`) carry the India day, so on a real new day they are unused; the model makes a new
 * day by removing the day's risk state, and a new broker by resetting the emulator, within one real day. Left in the
 * idempotency table, the old entries would answer the new day's square-off or cover with an order of a day (or a
 * broker) that is gone, and invariants 13, 20 and 21 would see a replay where the gateway would place an order.
 */
import { BatchWriteItemCommand, DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';

import { LOCAL_IDEMPOTENCY_TABLE } from '../../local/dynamodb.js';
import type { World } from './system-world.js';

/** Journal ids are `gtt-gateway.<operation>#<md5 of the key>` (functions/orders/journal-dynamo.ts). */
const SQUARE_OFF = 'gtt-gateway.PlaceOrder#';

/** Removes every idempotency item whose id starts with one of `prefixes`; answers how many. */
export const forgetJournal = async (w: World, prefixes: readonly string[]): Promise<number> => {
  const dynamo = new DynamoDBClient({ endpoint: w.stack.dynamo.url });
  try {
    const ids: string[] = [];
    let start: Record<string, never> | undefined;
    do {
      const page = await dynamo.send(
        new ScanCommand({
          TableName: LOCAL_IDEMPOTENCY_TABLE,
          ProjectionExpression: 'id',
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of page.Items ?? []) {
        const id = item.id?.S;
        if (id !== undefined && prefixes.some((p) => id.startsWith(p))) ids.push(id);
      }
      start = page.LastEvaluatedKey as Record<string, never> | undefined;
    } while (start);
    for (let i = 0; i < ids.length; i += 25)
      await dynamo.send(
        new BatchWriteItemCommand({
          RequestItems: {
            [LOCAL_IDEMPOTENCY_TABLE]: ids
              .slice(i, i + 25)
              .map((id) => ({ DeleteRequest: { Key: { id: { S: id } } } })),
          },
        }),
      );
    return ids.length;
  } finally {
    dynamo.destroy();
  }
};

/** A new India day for the square-off: its keys of the day before are unused (PlaceOrder is the square-off's only). */
export const newSquareOffDay = (w: World): Promise<number> => forgetJournal(w, [SQUARE_OFF]);

/** A new broker (the emulator reset): no square-off or OCO place (autoCover's) journaled names one of its orders. */
export const newBroker = (w: World): Promise<number> => forgetJournal(w, [SQUARE_OFF, 'gtt-gateway.PlaceOCOOrder#']);
