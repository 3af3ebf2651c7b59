/**
 * One pending order by id from the GttWatcher's copy of the pending list, when the copy may stand for the broker's
 * word: the broker of this family has no one-order read (GetPendingGTTOrder takes `uid` only and answers every
 * pending order), so without the copy GetGTTOrder reads the whole list for one record.
 *
 * The copy (events/core/watcher-items.ts: `watcher-copy` / `<al_id>`, and the lease's `copyAt`) holds each pending order's
 * record as the watcher's last run listed it. It answers, with `source: "watcher"` and `asOf` (when the broker listed
 * it), only when all of these hold, read in one consistent BatchGetItem:
 * - the watcher's last run read the list less than MAX_COPY_AGE_MS ago (`copyAt`), and found the session alive;
 * - the copy holds the order (an order placed since that run, or one missing from the list, is not in it);
 * - no change to the order through the gateway (a modify, PATCH or cancel) is in flight or ended after that run's
 *   list read: the order's lease item (orders/lease.ts, control table) says when its last change ended, read in the
 *   same call. So a trader's own change is never hidden by the copy: the next read is the broker's.
 * Otherwise the broker's list is read as before (`source: "broker"`), and so it is when the copy cannot be read at
 * all: the copy only ever saves a list read, never fails one.
 *
 * What the copy cannot know: a change made since `asOf` at the broker itself (a modify or cancel outside the
 * gateway, a trigger), until the watcher's next run. So a PATCH never reads it (its own read and the read right before sending
 * are the broker's), and a caller that needs the broker's word asks `?fresh=true`.
 */

import { BatchGetItemCommand, dynamoDbClient } from '../../base/aws/dynamo.js';
import type { GttOrder } from '../../base/schemas/reply.js';
import { COPY_PK, copyItemKey, LEASE_SK, recordOfCopy, toLease, watcherKey } from '../../events/core/watcher-items.js';
import { leaseKey } from '../lease.js';

/** One watcher period (a minute) and half of another: a copy older than this means the watcher is late or off. */
export const MAX_COPY_AGE_MS = 90_000;

export interface OrderCopyOptions {
  tableName: string;
  /** The control table of the orders' leases: without it, a change through the gateway is not seen until a run. */
  controlTableName?: string | undefined;
  endpoint?: string | undefined;
  maxAgeMs?: number;
  now?: () => number;
}

/** Why the broker's list was read instead (the access log says it). */
export type CopyMiss =
  'no-copy' | 'stale' | 'session-dead' | 'not-in-copy' | 'changed-since' | 'unreadable' | 'fresh-asked';

export type CopyRead = { order: GttOrder & { source: 'watcher'; asOf: string } } | { miss: CopyMiss };

export class OrderCopy {
  private readonly now: () => number;
  private readonly maxAgeMs: number;

  constructor(private readonly options: OrderCopyOptions) {
    this.now = options.now ?? Date.now;
    this.maxAgeMs = options.maxAgeMs ?? MAX_COPY_AGE_MS;
  }

  /** `account`: the session's uid, whose leases (orders/lease.ts) say what changed through the gateway. */
  async read(alId: string, account?: string): Promise<CopyRead> {
    const { tableName, controlTableName } = this.options;
    const leases = controlTableName && account !== undefined ? controlTableName : undefined;
    let items;
    let change;
    try {
      const reply = await dynamoDbClient(this.options.endpoint).send(
        new BatchGetItemCommand({
          RequestItems: {
            [tableName]: { Keys: [watcherKey(LEASE_SK), copyItemKey(alId)], ConsistentRead: true },
            ...(leases ? { [leases]: { Keys: [leaseKey(account!, alId)], ConsistentRead: true } } : {}),
          },
        }),
      );
      // Three small items never exceed a batch's limits; an unprocessed key is a miss, not a retry.
      if (Object.keys(reply.UnprocessedKeys ?? {}).length > 0) return { miss: 'unreadable' };
      items = reply.Responses?.[tableName] ?? [];
      change = leases ? reply.Responses?.[leases]?.[0] : undefined;
    } catch {
      return { miss: 'unreadable' };
    }
    const leaseItem = items.find((i) => i.pk?.S !== COPY_PK);
    const lease = leaseItem ? toLease(leaseItem) : undefined;
    if (lease?.copyAt === undefined) return { miss: 'no-copy' };
    if (lease.session === 'dead') return { miss: 'session-dead' };
    if (this.now() - lease.copyAt > this.maxAgeMs) return { miss: 'stale' };
    // A change through the gateway still in flight (or of unknown outcome), or ended after the run's list read.
    if (change && (change.endedAt?.N === undefined || Number(change.endedAt.N) >= lease.copyAt))
      return { miss: 'changed-since' };
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

/**
 * One order by id from the watcher's copy while fresh (GetGTTOrder), unless the caller asks the broker (`fresh`):
 * the order, or undefined with why the broker is read instead in `facts.copy`.
 */
export const readFromCopy = async (
  copy: OrderCopy,
  input: unknown,
  session: { session: () => Promise<{ uid: string }> },
  facts: { copy?: 'hit' | CopyMiss; brokerStat?: string },
): Promise<unknown> => {
  const wanted = input as { al_id?: string; fresh?: boolean };
  if (wanted.al_id === undefined) return undefined;
  const read = wanted.fresh
    ? ({ miss: 'fresh-asked' } as const)
    : await copy.read(wanted.al_id, (await session.session()).uid);
  if ('miss' in read) {
    facts.copy = read.miss;
    return undefined;
  }
  facts.copy = 'hit';
  facts.brokerStat = 'Ok';
  return read.order;
};
