/**
 * What a permit costs in DynamoDB calls, counted by dynalite itself: a warm container remembers the account's
 * item, so its permit is one conditional write; a write lost to another container carries the current item back
 * (no read); a remembered halt is read again before it refuses anything; a permit asked for beside the journal claim
 * tries once, then waits for the claim before trying again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DynamoTradingControls } from '../../functions/orders/safety/trading-controls.js';
import { LOCAL_CONTROL_TABLE, type LocalDynamo, startLocalDynamo } from '../../local/dynamodb.js';

let dynamo: LocalDynamo;
let clock = 1_700_000_000_000;

const container = () =>
  new DynamoTradingControls({
    tableName: LOCAL_CONTROL_TABLE,
    endpoint: dynamo.url,
    limits: { perSecond: 8, perMinute: 1_000 },
    marginMs: 0,
    // Far apart in time, so no permit is refused by the rate itself: only the calls are counted here.
    now: () => (clock += 2_000),
  });

beforeAll(async () => {
  dynamo = await startLocalDynamo({ extraTables: [{ name: LOCAL_CONTROL_TABLE, key: 'pk' }] });
});
afterAll(() => dynamo.close());

describe('order-rate governor: DynamoDB calls per permit', () => {
  it('a new container reads once; after that each permit is one conditional write', async () => {
    const a = container();
    expect((await a.acquire('acct-1', true)).dynamoCalls).toBe(2);
    for (let i = 0; i < 5; i++) expect((await a.acquire('acct-1', true)).dynamoCalls).toBe(1);
  });

  it('a write lost to another container gets the current item with its failure, and wins the next try', async () => {
    const a = container();
    const b = container();
    await a.acquire('acct-2', false);
    await b.acquire('acct-2', false);
    // a's remembered version is stale now: one failed write that returns b's item, then one that succeeds.
    expect((await a.acquire('acct-2', false)).dynamoCalls).toBe(2);
    expect((await b.acquire('acct-2', false)).dynamoCalls).toBe(2);
  });

  it('the kill switch set elsewhere is seen by the next permit, and its release too', async () => {
    const a = container();
    const other = container();
    await a.acquire('acct-3', true);
    await other.setHalt('acct-3', true, 'test');
    await expect(a.acquire('acct-3', true)).rejects.toMatchObject({ code: 'TRADING_HALTED' });
    await other.setHalt('acct-3', false, 'test');
    // The remembered halt is not trusted: the item is read again and the permit granted.
    const permit = await a.acquire('acct-3', true);
    expect(permit.dynamoCalls).toBe(2);
    // A cancel (not refused while halted) is never stopped by the switch.
    await other.setHalt('acct-3', true, 'test');
    await expect(a.acquire('acct-3', false)).resolves.toMatchObject({ dynamoCalls: 2 });
  });
});

describe('a permit asked for alongside the journal claim', () => {
  it('a try lost to contention waits for the claim: unwanted, it ends with no second write; wanted, it tries again', async () => {
    const a = container();
    const b = container();
    await a.acquire('acct-4', false);
    await b.acquire('acct-4', false);
    // a's remembered item is stale: its first try fails. Its request was answered without a send (a replay).
    const before = dynamo.streams.calls.length;
    await expect(a.acquire('acct-4', false, { wanted: async () => false })).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      outcome: 'not_executed',
    });
    expect(dynamo.streams.calls.slice(before).map((c) => c.action)).toEqual(['PutItem']);
    // The claim was won: the failure's item is tried again at once.
    await b.acquire('acct-4', false);
    let asked = 0;
    const permit = await a.acquire('acct-4', false, { wanted: async () => (asked++, true) });
    expect(permit.dynamoCalls).toBe(2);
    expect(asked).toBe(1);
  });
});
