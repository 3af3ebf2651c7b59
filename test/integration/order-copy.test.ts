/**
 * GET /gtt-orders/{alId} from the GttWatcher's copy of the pending list (functions/orders/gateway/order-copy.ts), on the
 * local stack: the emulator, the real watcher, dynalite. The copy answers only while fresh and only for orders it
 * holds, saying how old it is; otherwise, and on `?fresh=true`, the broker's list is read, which the emulator's
 * request log counts. A PATCH never answers from it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { MAX_COPY_AGE_MS, OrderCopy } from '../../functions/orders/gateway/order-copy.js';
import { LOCAL_EVENTS_TABLE } from '../../local/dynamodb.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { jdata } from '../contract/jdata-client.js';
import { emulatorControl } from '../support/emulator-control.js';
import { placeOutside } from '../support/outside-orders.js';
import { wireGtt } from '../support/wire-order.js';

let stack: LocalStack;
type Order = { al_id: string; d: string; source: string; asOf?: string; error?: { code: string } };

beforeAll(async () => {
  stack = await startLocalStack();
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(async () => {
  await emulatorControl(stack.emulator.url).clearRequests();
});

const get = async (alId: string, query = '') => {
  const res = await fetch(`${stack.api.url}/gtt-orders/${alId}${query}`);
  return { status: res.status, etag: res.headers.get('etag'), body: (await res.json()) as Order };
};
/** GetPendingGTTOrder requests the broker got since the last clear. */
const listReads = async () =>
  (await emulatorControl(stack.emulator.url).requests()).filter((r) => r.operation === 'GetPendingGTTOrder').length;
const modifyOutside = async (alId: string, d: string) =>
  expect(
    (
      await jdata(
        stack.emulator.url,
        'ModifyGTTOrder',
        wireGtt({ al_id: alId, tsym: 'TCS-EQ', qty: '3', prc: '4000', d }, stack.emulator),
        stack.emulator.token,
      )
    ).body,
  ).toMatchObject({ stat: 'OI replaced' });

describe('one order by id', () => {
  it('before the watcher has run: the broker, then the copy once a run listed it', async () => {
    const alId = await placeOutside(stack.emulator);
    const before = await get(alId);
    expect(before.body).toMatchObject({ al_id: alId, source: 'broker' });
    expect(before.body.asOf).toBeUndefined();
    expect(await listReads()).toBe(1);

    const startedAt = Date.now();
    await stack.watch();
    await emulatorControl(stack.emulator.url).clearRequests();
    const copied = await get(alId);
    expect(copied.status).toBe(200);
    expect(copied.body).toMatchObject({ al_id: alId, source: 'watcher' });
    // How old it is: when the run read the list.
    const asOf = Date.parse(copied.body.asOf ?? '');
    expect(asOf).toBeGreaterThanOrEqual(startedAt - 1_000);
    expect(asOf).toBeLessThanOrEqual(Date.now());
    expect(await listReads()).toBe(0);
    // The same record and the same version (ETag) as the broker's answer.
    const fresh = await get(alId, '?fresh=true');
    expect(fresh.body.source).toBe('broker');
    expect(await listReads()).toBe(1);
    expect(copied.etag).toBe(fresh.etag);
    const { source: _a, asOf: _b, ...copiedRecord } = copied.body;
    const { source: _c, ...brokerRecord } = fresh.body;
    expect(copiedRecord).toEqual(brokerRecord);
  });

  it('a change since the last run is not in the copy: its asOf says so, fresh=true and the next run see it', async () => {
    const alId = await placeOutside(stack.emulator, { d: '3990' });
    await stack.watch();
    await modifyOutside(alId, '3980');
    const stale = await get(alId);
    expect(stale.body).toMatchObject({ source: 'watcher', d: '3990' });
    expect(stale.etag).not.toBe((await get(alId, '?fresh=true')).etag);
    expect((await get(alId, '?fresh=true')).body).toMatchObject({ source: 'broker', d: '3980' });
    await stack.watch();
    expect((await get(alId)).body).toMatchObject({ source: 'watcher', d: '3980' });
  });

  it("the trader's own change through the gateway is never hidden by the copy", async () => {
    const alId = await placeOutside(stack.emulator, { d: '3990' });
    await stack.watch();
    expect((await get(alId)).body).toMatchObject({ source: 'watcher', d: '3990' });
    const send = (method: string, body?: unknown) =>
      fetch(`${stack.api.url}/gtt-orders/${alId}`, {
        method,
        headers: { 'content-type': 'application/json', 'idempotency-key': `copy-${method}-${alId}` },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    expect((await send('PATCH', { d: '3980' })).status).toBe(200);
    // The change ended after the run's list read: the broker answers, with the new trigger.
    expect((await get(alId)).body).toMatchObject({ source: 'broker', d: '3980' });
    await stack.watch();
    expect((await get(alId)).body).toMatchObject({ source: 'watcher', d: '3980' });
    // A cancel through the gateway: not found at once, not the copy's pending order.
    expect((await send('DELETE')).status).toBe(200);
    const after = await get(alId);
    expect(after.status).toBe(404);
    expect(after.body.error?.code).toBe('ORDER_NOT_FOUND');
  });

  it('an order placed since the last run, and one gone from the list, are read at the broker', async () => {
    await stack.watch();
    const placed = await placeOutside(stack.emulator);
    expect((await get(placed)).body).toMatchObject({ al_id: placed, source: 'broker' });

    const gone = await placeOutside(stack.emulator);
    await stack.watch();
    expect((await get(gone)).body.source).toBe('watcher');
    const cancel = await jdata(
      stack.emulator.url,
      'CancelGTTOrder',
      { uid: stack.emulator.uid, al_id: gone },
      stack.emulator.token,
    );
    expect(cancel.body).toMatchObject({ stat: 'OI deleted' });
    // The run finds it missing: the copy forgets it at once, so the broker's word (not found) is what answers.
    await stack.watch();
    await emulatorControl(stack.emulator.url).clearRequests();
    const after = await get(gone);
    expect(after.status).toBe(404);
    expect(after.body.error?.code).toBe('ORDER_NOT_FOUND');
    expect(await listReads()).toBe(1);
  });

  it('a PATCH reads the broker, never the copy', async () => {
    const alId = await placeOutside(stack.emulator, { d: '3990' });
    await stack.watch();
    await emulatorControl(stack.emulator.url).clearRequests();
    const res = await fetch(`${stack.api.url}/gtt-orders/${alId}?dryRun=true`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ qty: 4 }),
    });
    expect(res.status).toBe(200);
    // Its read and the read right before sending: both at the broker.
    expect(await listReads()).toBe(2);
  });

  it('a copy older than a watcher period and a half, or of a dead session, is not used', async () => {
    const alId = await placeOutside(stack.emulator);
    await stack.watch();
    const copyAt = (now: number) =>
      new OrderCopy({ tableName: LOCAL_EVENTS_TABLE, endpoint: stack.dynamo.url, now: () => now });
    expect(await copyAt(Date.now()).read(alId)).toMatchObject({ order: { al_id: alId, source: 'watcher' } });
    expect(await copyAt(Date.now() + MAX_COPY_AGE_MS + 1_000).read(alId)).toEqual({ miss: 'stale' });
    expect(await copyAt(Date.now()).read('99999999999999')).toEqual({ miss: 'not-in-copy' });
    // Unreadable (no such table): a miss, and the broker answers.
    expect(await new OrderCopy({ tableName: 'no-such-table', endpoint: stack.dynamo.url }).read(alId)).toEqual({
      miss: 'unreadable',
    });

    // The session dies (the last test here): the run that finds it says so, and the copy is not used until a run
    // lists again.
    await emulatorControl(stack.emulator.url).expire(stack.emulator.token);
    expect((await stack.watch()).status).toBe('session-dead');
    expect(await copyAt(Date.now()).read(alId)).toEqual({ miss: 'session-dead' });
  });
});
