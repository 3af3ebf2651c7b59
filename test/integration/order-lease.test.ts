/**
 * The lease of one change per order (functions/orders/lease.ts) on dynalite: a lease belongs to a change, its
 * operation and key; a retry of that change joins it without owning it, so it neither takes it from its holder nor
 * ends it, and takes it over only from the holder it saw, when the journal lets it send.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { OrderLeases } from '../../functions/orders/lease.js';
import { LOCAL_CONTROL_TABLE, type LocalDynamo, startLocalDynamo } from '../../local/dynamodb.js';
import { useLocalAwsEnvironment } from '../../local/run-local.js';

let dynamo: LocalDynamo;
let leases: OrderLeases;
let orders = 0;
const ACCOUNT = 'LEASE1';
const MODIFY = { operation: 'ModifyGTTOrder', key: 'k-1' };
const deadline = () => Date.now() + 60_000;

beforeAll(async () => {
  useLocalAwsEnvironment();
  dynamo = await startLocalDynamo({ extraTables: [{ name: LOCAL_CONTROL_TABLE, key: 'pk' }] });
  leases = new OrderLeases({ tableName: LOCAL_CONTROL_TABLE, lateWindowMs: 15_000, endpoint: dynamo.url });
});
afterAll(async () => {
  await dynamo?.close();
});

/** Whether another change (no key) would be refused ORDER_BUSY now; it gives the lease back if it got it. */
const busy = async (alId: string): Promise<boolean> => {
  try {
    await (await leases.acquire(ACCOUNT, alId, deadline())).release();
    return false;
  } catch (error) {
    expect(error).toMatchObject({ code: 'ORDER_BUSY', outcome: 'not_executed' });
    return true;
  }
};

describe('a lease belongs to its change', () => {
  it('a retry of the change joins: it owns nothing, and its release or keep leaves the lease with the holder', async () => {
    const alId = String(++orders);
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
    const alId = String(++orders);
    const holder = await leases.acquire(ACCOUNT, alId, deadline(), MODIFY);
    await expect(
      leases.acquire(ACCOUNT, alId, deadline(), { operation: 'CancelGTTOrder', key: MODIFY.key }),
    ).rejects.toMatchObject({ code: 'ORDER_BUSY' });
    await expect(leases.acquire(ACCOUNT, alId, deadline())).rejects.toMatchObject({ code: 'ORDER_BUSY' });
    await holder.release();
  });

  it('a retry that sends takes the lease from the holder it saw; the holder then gives back nothing', async () => {
    const alId = String(++orders);
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
    const alId = String(++orders);
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
});
