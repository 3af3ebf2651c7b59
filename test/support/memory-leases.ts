/**
 * The leases of one change per order in memory, for tests of the order core without a database: the rules of the
 * DynamoDB leases (functions/orders/lease.ts, its module comment) on a map, each call reading and writing with no await
 * in between, so its conditions hold as DynamoDB's do. A lease is taken when there is none or it has lapsed (`until`
 * before now); a retry of the change that holds it joins without owning it, and takes it over (`own`) only from the
 * holder it saw; giving it back or keeping it for the late window acts only while its taker still holds it.
 * test/contract/lease-contract.test.ts runs the same cases against it and against the DynamoDB leases on dynalite.
 *
 * What the DynamoDB item also keeps for the watcher's copy (when a change began and ended, orders/gateway/order-copy.ts
 * reads it from the table) is no part of the `OrderLeases` interface, so it is kept here only as `changedAt`/`endedAt`.
 */
import { randomUUID } from 'node:crypto';

import { InternalError } from '../../functions/base/contract/errors.js';
import { changeOf, type Lease, type LeasedChange, orderBusy, type OrderLeases } from '../../functions/orders/lease.js';

interface LeaseItem {
  owner: string;
  /** Until when it is held (ms); before now, it has lapsed. */
  until: number;
  /** The change it belongs to (`<operation>#<key>`), when it has a key. */
  ikey?: string | undefined;
  changedAt: number;
  endedAt?: number | undefined;
}

export interface MemoryLeaseOptions {
  /** How long after a holder's deadline its write may still land (the lease is held until then). */
  lateWindowMs: number;
  /** The clock (ms): a test's fake one. */
  now?: () => number;
  /** The leases it shares with other containers' (the control table); new unless given. */
  table?: Map<string, LeaseItem>;
}

export class MemoryOrderLeases implements OrderLeases {
  readonly table: Map<string, LeaseItem>;
  /** While true a lease is refused as an unreachable table refuses it (INTERNAL_ERROR, not executed). */
  unavailable = false;
  private readonly now: () => number;

  constructor(private readonly options: MemoryLeaseOptions) {
    this.table = options.table ?? new Map();
    this.now = options.now ?? Date.now;
  }

  async acquire(account: string, alId: string, deadline: number, change?: LeasedChange): Promise<Lease> {
    if (this.unavailable)
      throw new InternalError('The control table is unavailable (order lease); nothing was sent to the broker.', {
        cause: new Error('the memory leases are set unavailable'),
        outcome: 'not_executed',
      });
    const key = `${account}#${alId}`;
    const owner = randomUUID();
    const now = this.now();
    const until = deadline + this.options.lateWindowMs;
    const ikey = change ? changeOf(change) : undefined;
    let holder: string | undefined = owner;
    let seen: string | undefined;
    const old = this.table.get(key);
    // Never over a held lease, not even one of the same change: its holder keeps it.
    if (old === undefined || old.until < now) this.table.set(key, { owner, until, changedAt: now, ikey });
    else if (ikey !== undefined && old.ikey === ikey) {
      // A retry of the change that holds it: joined, owning nothing.
      holder = undefined;
      seen = old.owner;
    } else throw orderBusy(alId, old.until, now);
    /** The item while `holder` still holds it (not taken over after it lapsed). */
    const mine = () => {
      const item = this.table.get(key);
      return holder !== undefined && item?.owner === holder ? item : undefined;
    };
    return {
      get owned() {
        return holder !== undefined;
      },
      own: async () => {
        if (holder !== undefined) return;
        const at = this.now();
        const item = this.table.get(key);
        // Only from the holder it saw: a change that took the lease since keeps it.
        if (!item || item.owner !== seen || item.ikey !== ikey) throw orderBusy(alId, item?.until ?? at + 1_000, at);
        this.table.set(key, { owner, until, changedAt: at, ikey });
        holder = owner;
      },
      release: async () => {
        const item = mine();
        if (!item) return;
        const at = this.now();
        item.until = at - 1;
        item.endedAt = at;
      },
      keepForLateWindow: async () => {
        const item = mine();
        if (item) item.until = this.now() + this.options.lateWindowMs;
      },
    };
  }
}
