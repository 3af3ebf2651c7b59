/**
 * The contract of the account's trading controls (`TradingControls`, functions/orders/safety/trading-controls.ts;
 * docs/explanation/compliance.md, docs/explanation/order-safety.md "After a logout"), one suite run against the DynamoDB controls on dynalite
 * and against the memory double the order core's unit tests use (test/support/memory-trading-controls.ts). The
 * order-rate governor grants a permit only below its limits in any second (plus the arrival margin) and any minute,
 * counted across containers; the kill switch refuses places and modifies (never a cancel) from the next permit in
 * every container; a place or modify's permit records until when it may land; a logout has the next permit re-read
 * the session's secret. Every call fails closed. A fake clock drives the windows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SessionExpiredError } from '../../functions/base/contract/errors.js';
import {
  DynamoTradingControls,
  type OrderRateLimits,
  type TradingControls,
} from '../../functions/orders/safety/trading-controls.js';
import { LOCAL_CONTROL_TABLE, type LocalDynamo, startLocalDynamo } from '../../local/dynamodb.js';
import { MemoryControlTable, MemoryTradingControls } from '../support/memory-trading-controls.js';

const MARGIN_MS = 250;

/** Containers of one deployment (one table), and controls whose table cannot be reached. */
interface ControlsWorld {
  container(limits: OrderRateLimits): TradingControls;
  unreachable(): TradingControls;
}
type MakeWorld = (now: () => number) => ControlsWorld;

/** Accounts no other case uses (the DynamoDB cases share one table). */
let accounts = 0;

const describeTradingControlsContract = (name: string, make: MakeWorld) =>
  describe(`TradingControls contract: ${name}`, () => {
    let time = 0;
    const setup = () => {
      time = 1_800_000_000_000 + accounts * 10_000_000;
      return { world: make(() => time), account: `ACCT${++accounts}` };
    };
    const EASY: OrderRateLimits = { perSecond: 100, perMinute: 1_000 };

    it('a new account: not halted, nothing in flight, a permit granted', async () => {
      const { world, account } = setup();
      const controls = world.container(EASY);
      expect(await controls.haltState(account)).toEqual({ halted: false });
      expect(await controls.inFlightUntil(account)).toBe(0);
      await expect(controls.acquire(account, true)).resolves.toMatchObject({ dynamoCalls: expect.any(Number) });
    });

    it('at most perSecond permits within a second and the margin, across containers; the next is free when the oldest leaves', async () => {
      const { world, account } = setup();
      const limits = { perSecond: 3, perMinute: 1_000 };
      const [a, b] = [world.container(limits), world.container(limits)];
      const start = time;
      await a.acquire(account, true);
      time += 1;
      await b.acquire(account, false);
      time += 1;
      await a.acquire(account, true);
      time += 1;
      await expect(b.acquire(account, true)).rejects.toMatchObject({
        code: 'RATE_LIMITED',
        outcome: 'not_executed',
        details: { window: 'second', limit: 3, retryAfterSeconds: 2 },
      });
      time = start + 1_000 + MARGIN_MS - 1;
      await expect(a.acquire(account, true)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
      time = start + 1_000 + MARGIN_MS;
      await expect(b.acquire(account, true)).resolves.toBeDefined();
      await expect(a.acquire(account, true)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    });

    it('at most perMinute permits within a minute', async () => {
      const { world, account } = setup();
      const controls = world.container({ perSecond: 100, perMinute: 3 });
      const start = time;
      for (let i = 0; i < 3; i++) {
        await controls.acquire(account, false);
        time += 2_000;
      }
      await expect(controls.acquire(account, false)).rejects.toMatchObject({
        code: 'RATE_LIMITED',
        outcome: 'not_executed',
        details: { window: 'minute', limit: 3, retryAfterSeconds: 54 },
      });
      time = start + 60_000;
      await expect(controls.acquire(account, false)).resolves.toBeDefined();
    });

    it('accounts are counted apart', async () => {
      const { world, account } = setup();
      const controls = world.container({ perSecond: 1, perMinute: 1_000 });
      await controls.acquire(account, true);
      await expect(controls.acquire(account, true)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
      await expect(controls.acquire(`${account}-other`, true)).resolves.toBeDefined();
    });

    it('the kill switch refuses places and modifies, never a cancel; turned in one container, seen by the next permit of another', async () => {
      const { world, account } = setup();
      const [a, other] = [world.container(EASY), world.container(EASY)];
      await a.acquire(account, true);
      const on = await other.setHalt(account, true, 'ops', 'keep-exits');
      expect(on).toEqual({
        halted: true,
        mode: 'keep-exits',
        changedBy: 'ops',
        changedAt: new Date(time).toISOString(),
      });
      expect(await a.haltState(account)).toEqual(on);
      const refusal = await a.acquire(account, true).catch((error: unknown) => error);
      expect(refusal).toMatchObject({ code: 'TRADING_HALTED', outcome: 'not_executed' });
      expect((refusal as Error).message).toMatch(/keeping the exits at the broker/);
      await expect(a.acquire(account, false)).resolves.toBeDefined();
      time += 1_000;
      expect(await other.setHalt(account, false)).toEqual({ halted: false, changedAt: new Date(time).toISOString() });
      await expect(a.acquire(account, true)).resolves.toBeDefined();
      expect(await a.haltState(account)).toEqual({ halted: false, changedAt: new Date(time).toISOString() });
    });

    it('turned on without a mode, the switch sweeps all (cancel-all)', async () => {
      const { world, account } = setup();
      const controls = world.container(EASY);
      await controls.setHalt(account, true);
      expect(await controls.haltState(account)).toMatchObject({ halted: true, mode: 'cancel-all' });
      await expect(controls.acquire(account, true)).rejects.toMatchObject({ code: 'TRADING_HALTED' });
    });

    it("a place or modify's permit records until when it may land, the latest bound kept; a cancel's does not", async () => {
      const { world, account } = setup();
      const [a, b] = [world.container(EASY), world.container(EASY)];
      await a.acquire(account, true, { landBy: time + 20_000 });
      expect(await b.inFlightUntil(account)).toBe(time + 20_000);
      await b.acquire(account, true, { landBy: time + 10_000 });
      await b.acquire(account, false, { landBy: time + 90_000 });
      expect(await a.inFlightUntil(account)).toBe(time + 20_000);
      await b.acquire(account, true, { landBy: time + 30_000 });
      expect(await a.inFlightUntil(account)).toBe(time + 30_000);
    });

    it('after a logout the next permit in every container re-reads the secret first; a logged-out session sends nothing', async () => {
      const { world, account } = setup();
      const [a, b] = [world.container(EASY), world.container(EASY)];
      await a.acquire(account, true);
      const loggedOutAt = time;
      await b.endSession(account);
      let rereads = 0;
      const session = (readAt: number, reread = async () => void rereads++) => ({
        session: { readAt: () => readAt, reread },
      });
      await a.acquire(account, true, session(loggedOutAt - 5_000));
      expect(rereads).toBe(1);
      // Read within the containers' clock skew of the logout: read again anyway.
      await a.acquire(account, true, session(loggedOutAt + 500));
      expect(rereads).toBe(2);
      await a.acquire(account, true, session(loggedOutAt + 1_500));
      expect(rereads).toBe(2);
      const expired = new SessionExpiredError('logged out', { outcome: 'not_executed' });
      await expect(
        a.acquire(
          account,
          true,
          session(loggedOutAt - 1, () => Promise.reject(expired)),
        ),
      ).rejects.toBe(expired);
    });

    it('an unreachable table fails closed: INTERNAL_ERROR, not executed', async () => {
      const { world, account } = setup();
      const controls = world.unreachable();
      for (const call of [
        () => controls.acquire(account, false),
        () => controls.haltState(account),
        () => controls.setHalt(account, true),
        () => controls.endSession(account),
      ])
        await expect(call()).rejects.toMatchObject({ code: 'INTERNAL_ERROR', outcome: 'not_executed' });
    });
  });

describe('on DynamoDB (dynalite)', () => {
  let dynamo: LocalDynamo;
  beforeAll(async () => {
    dynamo = await startLocalDynamo({ extraTables: [{ name: LOCAL_CONTROL_TABLE, key: 'pk' }] });
  });
  afterAll(() => dynamo?.close());
  const on = (tableName: string, limits: OrderRateLimits, now: () => number) =>
    new DynamoTradingControls({ tableName, endpoint: dynamo.url, limits, marginMs: MARGIN_MS, now });
  describeTradingControlsContract('DynamoTradingControls', (now) => ({
    container: (limits) => on(LOCAL_CONTROL_TABLE, limits, now),
    unreachable: () => on('no-such-table', { perSecond: 8, perMinute: 120 }, now),
  }));
});

describeTradingControlsContract('MemoryTradingControls', (now) => {
  const table = new MemoryControlTable();
  return {
    container: (limits) => new MemoryTradingControls({ limits, marginMs: MARGIN_MS, now, table }),
    unreachable: () => {
      const down = new MemoryControlTable();
      down.unavailable = true;
      return new MemoryTradingControls({ limits: { perSecond: 8, perMinute: 120 }, now, table: down });
    },
  };
});
