/**
 * One pending order by id from the GttWatcher's copy of the pending list, when the copy may stand for the broker's
 * word: the broker of this family has no one-order read (GetPendingGTTOrder takes `uid` only and answers every
 * pending order), so without the copy GetGTTOrder reads the whole list for one record.
 *
 * The copy (events/watcher-items.ts: `watcher-copy` / `<al_id>`, and the lease's `copyAt`) holds each pending order's
 * record as the watcher's last run listed it. It answers, with `source: "watcher"` and `asOf` (when the broker listed
 * it), only when all of these hold, read in one consistent BatchGetItem:
 * - the watcher's last run read the list less than MAX_COPY_AGE_MS ago (`copyAt`), and found the session alive;
 * - the copy holds the order (an order placed since that run, or one missing from the list, is not in it).
 * Otherwise the broker's list is read as before (`source: "broker"`), and so it is when the copy cannot be read at
 * all: the copy only ever saves a list read, never fails one.
 *
 * What the copy cannot know: a change made since `asOf`, through the gateway or at the broker (a modify, a cancel,
 * a trigger), until the watcher's next run. So a PATCH never reads it (its own read and the read right before sending
 * are the broker's), and a caller that needs the broker's word asks `?fresh=true`.
 */
import { BatchGetItemCommand } from '@aws-sdk/client-dynamodb';

import { COPY_PK, copyItemKey, LEASE_SK, recordOfCopy, toLease, watcherKey } from '../events/watcher-items.js';
import { dynamoDbClient } from '../safety/dynamodb-client.js';
import type { GttOrder } from '../schemas/reply.js';

/** One watcher period (a minute) and half of another: a copy older than this means the watcher is late or off. */
export const MAX_COPY_AGE_MS = 90_000;

export interface OrderCopyOptions {
  tableName: string;
  endpoint?: string | undefined;
  maxAgeMs?: number;
  now?: () => number;
}

/** Why the broker's list was read instead (the access log says it). */
export type CopyMiss = 'no-copy' | 'stale' | 'session-dead' | 'not-in-copy' | 'unreadable' | 'fresh-asked';

export type CopyRead = { order: GttOrder & { source: 'watcher'; asOf: string } } | { miss: CopyMiss };

export class OrderCopy {
  private readonly now: () => number;
  private readonly maxAgeMs: number;

  constructor(private readonly options: OrderCopyOptions) {
    this.now = options.now ?? Date.now;
    this.maxAgeMs = options.maxAgeMs ?? MAX_COPY_AGE_MS;
  }

  async read(alId: string): Promise<CopyRead> {
    const { tableName } = this.options;
    let items;
    try {
      const reply = await dynamoDbClient(this.options.endpoint).send(
        new BatchGetItemCommand({
          RequestItems: {
            [tableName]: { Keys: [watcherKey(LEASE_SK), copyItemKey(alId)], ConsistentRead: true },
          },
        }),
      );
      // Two small items never exceed a batch's limits; an unprocessed key is a miss, not a retry.
      items = reply.Responses?.[tableName] ?? [];
    } catch {
      return { miss: 'unreadable' };
    }
    const leaseItem = items.find((i) => i.pk?.S !== COPY_PK);
    const lease = leaseItem ? toLease(leaseItem) : undefined;
    if (lease?.copyAt === undefined) return { miss: 'no-copy' };
    if (lease.session === 'dead') return { miss: 'session-dead' };
    if (this.now() - lease.copyAt > this.maxAgeMs) return { miss: 'stale' };
    let record: GttOrder | undefined;
    try {
      record = recordOfCopy(items.find((i) => i.pk?.S === COPY_PK));
    } catch {
      return { miss: 'unreadable' };
    }
    if (!record || record.al_id !== alId) return { miss: 'not-in-copy' };
    return { order: { ...record, source: 'watcher', asOf: new Date(lease.copyAt).toISOString() } };
  }
}
