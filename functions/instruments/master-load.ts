/**
 * The master's rows written as today's instruments in the account's copy (copy.ts), for the scheduled refresh only:
 * a file of its own so the order functions' bundles carry no BatchWriteItem.
 */
import type { AttributeValue, WriteRequest } from '@aws-sdk/client-dynamodb';

import { BatchWriteItemCommand } from '../base/aws/dynamo.js';
import { expiresAt, type InstrumentCopy, keyOf } from '../orders/instruments/copy.js';
import type { MasterRow } from './master.js';

const BATCH = 25;
const BATCHES_IN_FLIGHT = 8;

/**
 * Writes the master's rows as today's instruments (their market left for refresh.ts or the order path), 25 to a
 * BatchWriteItem, a few in flight; what DynamoDB leaves unprocessed is sent again, at most `attempts` times.
 */
export const loadMaster = async (
  copy: InstrumentCopy,
  rows: readonly MasterRow[],
  day: string,
  now = Date.now(),
  attempts = 5,
): Promise<number> =>
  writeItems(
    copy,
    rows.map((row) => ({
      ...keyOf(row.exch, row.tsym),
      token: { S: row.token },
      tick: { S: row.tick },
      lot: { N: String(row.lot) },
      precision: { N: String(row.precision) },
      day: { S: day },
      from: { S: 'symbol master' },
      expiresAt: expiresAt(now),
    })),
    attempts,
  );

/** Puts `items` in the copy's table, 25 to a BatchWriteItem, a few in flight, the unprocessed sent again. */
export const writeItems = async (
  copy: InstrumentCopy,
  items: readonly Record<string, AttributeValue>[],
  attempts = 5,
): Promise<number> => {
  const requests: WriteRequest[] = items.map((Item) => ({ PutRequest: { Item } }));
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += BATCH) batches.push(requests.slice(i, i + BATCH));
  let written = 0;
  const writeBatch = async (batch: WriteRequest[]) => {
    let left = batch;
    for (let attempt = 1; left.length > 0; attempt += 1) {
      if (attempt > attempts) throw new Error(`the copy took only part of the master (${left.length} items left)`);
      const reply = await copy.client.send(
        new BatchWriteItemCommand({ RequestItems: { [copy.options.tableName]: left } }),
      );
      const unprocessed = reply.UnprocessedItems?.[copy.options.tableName] ?? [];
      written += left.length - unprocessed.length;
      left = unprocessed;
      if (left.length > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    }
  };
  for (let i = 0; i < batches.length; i += BATCHES_IN_FLIGHT)
    await Promise.all(batches.slice(i, i + BATCHES_IN_FLIGHT).map(writeBatch));
  return written;
};
