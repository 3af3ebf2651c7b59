/**
 * The contract of the leases of one change per order (`OrderLeases`, functions/orders/lease.ts; docs/explanation/order-safety.md,
 * "One change per order at a time"), one suite run against the DynamoDB leases on dynalite and against the memory
 * double the order core's unit tests use (test/support/memory-leases.ts). A second change of an order while one holds
 * its lease is ORDER_BUSY; a lease belongs to a change (its operation and key): a retry of that change joins it without
 * owning it, so it neither takes it from its holder nor ends it, and takes it over only from the holder it saw, when
 * the journal lets it send. A lease lasts until its holder's deadline plus the late window, or the late window after an
 * unknown outcome. A fake clock drives those times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DynamoOrderLeases, type OrderLeases } from '../../functions/orders/lease.js';
import { LOCAL_CONTROL_TABLE, type LocalDynamo, startLocalDynamo } from '../../local/dynamodb.js';
import { MemoryOrderLeases } from '../support/memory-leases.js';

const LATE_WINDOW_MS = 15_000;
const MODIFY = { operation: 'ModifyGTTOrder', key: 'k-1' };

/** Leases on one table (containers of one deployment), and leases whose table cannot be reached. */
interface LeaseWorld {
  leases(): OrderLeases;
  unreachable(): OrderLeases;
}
type MakeWorld = (now: () => number) => LeaseWorld;

/** Orders no other case uses (the DynamoDB cases share one table). */
let orders = 0;

const describeLeaseContract = (name: string, make: MakeWorld) =>
  describe(`OrderLeases contract: ${name}`, () => {
    let time = 0;
    const now = () => time;
    const ACCOUNT = 'LEASE1';
    let leases: OrderLeases;
    const setup = () => {
      time = 1_800_000_000_000 + orders * 1_000_000;
      const world = make(now);
      leases = world.leases();
      return { world, alId: `${++orders}` };
    };
    const deadline = (ms = 60_000) => time + ms;
    /** Whether another change (no key) would be refused ORDER_BUSY now; it gives the lease back if it got it. */
    const busy = async (alId: string, account = ACCOUNT): Promise<boolean> => {
      try {
        await (await leases.acquire(account, alId, deadline())).release();
        return false;
      } catch (error) {
        expect(error).toMatchObject({ code: 'ORDER_BUSY', outcome: 'not_executed' });
        return true;
      }
    };

    it("one change per order: another is ORDER_BUSY until the holder's time, nothing else blocked; given back, it is free", async () => {
      const { world, alId } = setup();
      const holder = await leases.acquire(ACCOUNT, alId, deadline(10_000));
      expect(holder.owned).toBe(true);
      await expect(world.leases().acquire(ACCOUNT, alId, deadline())).rejects.toMatchObject({
        code: 'ORDER_BUSY',
        outcome: 'not_executed',
        details: { al_id: alId, retryAfterSeconds: 10 + LATE_WINDOW_MS / 1_000 },
      });
      expect(await busy(`${alId}-other`)).toBe(false);
      expect(await busy(alId, 'OTHER')).toBe(false);
      await holder.release();
      expect(await busy(alId)).toBe(false);
    });

    it("a lease lapses after its holder's deadline and late window: a holder gone mid-write blocks no longer", async () => {
      const { alId } = setup();
      const gone = await leases.acquire(ACCOUNT, alId, deadline(2_000));
      time += 2_000 + LATE_WINDOW_MS;
      expect(await busy(alId)).toBe(true);
      time += 1;
      const next = await leases.acquire(ACCOUNT, alId, deadline());
      // The first holder's late release leaves the lease with the one that took it since.
      await gone.release();
      expect(await busy(alId)).toBe(true);
      await next.release();
      expect(await busy(alId)).toBe(false);
    });

    it("an unknown outcome keeps the lease the late window after now, past its holder's deadline", async () => {
      const { alId } = setup();
      const holder = await leases.acquire(ACCOUNT, alId, deadline(1_000));
      time += 5_000;
      await holder.keepForLateWindow();
      time += LATE_WINDOW_MS - 1;
      expect(await busy(alId)).toBe(true);
      time += 2;
      expect(await busy(alId)).toBe(false);
    });

    it('a retry of the change joins: it owns nothing, and its release or keep leaves the lease with the holder', async () => {
      const { alId } = setup();
      const holder = await leases.acquire(ACCOUNT, alId, deadline(), MODIFY);
      expect(holder.owned).toBe(true);
      const retry = await leases.acquire(ACCOUNT, alId, deadline(), MODIFY);
      expect(retry.owned).toBe(false);
      await retry.release();
      await retry.keepForLateWindow();
      expect(await busy(alId)).toBe(true);
      await holder.release();
      expect(await busy(alId)).toBe(false);
    });

    it('the same key on another operation, or no key, is another change: ORDER_BUSY', async () => {
      const { alId } = setup();
      const holder = await leases.acquire(ACCOUNT, alId, deadline(), MODIFY);
      await expect(
        leases.acquire(ACCOUNT, alId, deadline(), { operation: 'CancelGTTOrder', key: MODIFY.key }),
      ).rejects.toMatchObject({ code: 'ORDER_BUSY' });
      await expect(leases.acquire(ACCOUNT, alId, deadline())).rejects.toMatchObject({ code: 'ORDER_BUSY' });
      await holder.release();
    });

    it('a retry that sends takes the lease from the holder it saw; the holder then gives back nothing', async () => {
      const { alId } = setup();
      const holder = await leases.acquire(ACCOUNT, alId, deadline(), MODIFY);
      const retry = await leases.acquire(ACCOUNT, alId, deadline(), MODIFY);
      await retry.own();
      expect(retry.owned).toBe(true);
      await holder.release();
      expect(await busy(alId)).toBe(true);
      await retry.release();
      expect(await busy(alId)).toBe(false);
    });

    it('a retry whose holder gave the lease back and another change took it is ORDER_BUSY, and ends nothing', async () => {
      const { alId } = setup();
      const holder = await leases.acquire(ACCOUNT, alId, deadline(), MODIFY);
      const retry = await leases.acquire(ACCOUNT, alId, deadline(), MODIFY);
      await holder.release();
      const other = await leases.acquire(ACCOUNT, alId, deadline(), { operation: 'ModifyGTTOrder', key: 'k-2' });
      await expect(retry.own()).rejects.toMatchObject({ code: 'ORDER_BUSY', outcome: 'not_executed' });
      expect(retry.owned).toBe(false);
      await retry.release();
      expect(await busy(alId)).toBe(true);
      await other.release();
    });

    it('a retry takes over only from the holder it saw, even when the lease passed to a request of its own change', async () => {
      const { alId } = setup();
      const holder = await leases.acquire(ACCOUNT, alId, deadline(), MODIFY);
      const retry = await leases.acquire(ACCOUNT, alId, deadline(), MODIFY);
      await holder.release();
      const third = await leases.acquire(ACCOUNT, alId, deadline(), MODIFY);
      expect(third.owned).toBe(true);
      await expect(retry.own()).rejects.toMatchObject({ code: 'ORDER_BUSY', outcome: 'not_executed' });
      await third.release();
      expect(await busy(alId)).toBe(false);
    });

    it('an unreachable table refuses the lease: INTERNAL_ERROR, not executed', async () => {
      const { world, alId } = setup();
      await expect(world.unreachable().acquire(ACCOUNT, alId, deadline())).rejects.toMatchObject({
        code: 'INTERNAL_ERROR',
        outcome: 'not_executed',
      });
    });
  });

describe('on DynamoDB (dynalite)', () => {
  let dynamo: LocalDynamo;
  beforeAll(async () => {
    dynamo = await startLocalDynamo({ extraTables: [{ name: LOCAL_CONTROL_TABLE, key: 'pk' }] });
  });
  afterAll(() => dynamo?.close());
  const on = (tableName: string, now: () => number) =>
    new DynamoOrderLeases({ tableName, lateWindowMs: LATE_WINDOW_MS, endpoint: dynamo.url, now });
  describeLeaseContract('DynamoOrderLeases', (now) => ({
    leases: () => on(LOCAL_CONTROL_TABLE, now),
    unreachable: () => on('no-such-table', now),
  }));
});

describeLeaseContract('MemoryOrderLeases', (now) => {
  // One table, shared by every container's leases as the control table is.
  const { table } = new MemoryOrderLeases({ lateWindowMs: LATE_WINDOW_MS, now });
  return {
    leases: () => new MemoryOrderLeases({ lateWindowMs: LATE_WINDOW_MS, now, table }),
    unreachable: () =>
      Object.assign(new MemoryOrderLeases({ lateWindowMs: LATE_WINDOW_MS, now }), { unavailable: true }),
  };
});
