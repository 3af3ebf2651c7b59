/**
 * The day's limits end to end on loopback: `PUT /risk` and `GET /risk` through the local API, the real GttWatcher's
 * check against the emulator's positions (a GTT that fills, a price that moves the P&L past the limit), the kill switch
 * turned in the chosen mode, one `Risk Limit Hit` a day, a failed positions read recorded as unchecked, and the next
 * India day starting clear (the check's clock injected).
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { logger } from '../../functions/base/runtime/logger.js';
import { indiaDay } from '../../functions/base/schemas/india-time.js';
import { createGttWatcher } from '../../functions/events/watcher/function.js';
import { createRiskCheckFor } from '../../functions/risk/check-wiring.js';
import { RiskStore } from '../../functions/risk/store.js';
import { LOCAL_EVENTS_TABLE } from '../../local/dynamodb.js';
import type { LocalStack } from '../../local/run-local.js';
import type { EmulatorControl } from '../support/emulator-control.js';
import { useEventsStack } from '../support/events-stack.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

const ev = useEventsStack();
const { api, nextKey, ltp, events } = ev;
let stack: LocalStack;
let control: EmulatorControl;
beforeEach(() => {
  ({ stack, control } = ev.current());
});

/** A buy of 5 INFY-EQ filled at 1489: the position the tests move. */
const openPosition = async () => {
  const res = await api(
    'POST',
    '/gtt-orders',
    { ...SAMPLE_ORDER, tsym: 'INFY-EQ', qty: 5 },
    { 'Idempotency-Key': nextKey() },
  );
  expect(res.status).toBe(201);
  await ltp('NSE', 'INFY-EQ', 1489);
};
const risk = async () => (await api('GET', '/risk')).body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the test reads fields as it checks them
const hits = () => events('Risk Limit Hit');

describe('PUT /risk', () => {
  it('refuses a negative, zero or non-numeric limit, an unknown mode and per-tag limits; nothing is stored', async () => {
    for (const [body, says] of [
      [{ dayLossLimit: -5000 }, 'dayLossLimit must be a positive amount in rupees'],
      [{ dayLossLimit: 0 }, 'never -5000 or 0'],
      [{ dayProfitTarget: '10000' }, 'dayProfitTarget must be a number of rupees'],
      [{ dayLossLimit: 5000, mode: 'sell-everything' }, 'mode must be keep-exits'],
      [{ dayLossLimit: 5000, tags: { swing: { dayLossLimit: 100 } } }, "the broker's positions carry no tag"],
      [{ dayLossLimit: 5000, maxLoss: 1 }, 'maxLoss'],
    ] as const) {
      const res = await api('PUT', '/risk', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = res.body.error as { code: string; message: string };
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.message).toContain(says);
    }
    expect(await risk()).toEqual({ today: { day: indiaDay(Date.now()), state: 'clear' } });
  });

  it('sets and reads the limits; the same key again answers the same, another body with it is 422', async () => {
    const body = { dayLossLimit: 5000, dayProfitTarget: 10000 };
    const first = await api('PUT', '/risk', body, { 'Idempotency-Key': 'risk-1' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      settings: { dayLossLimit: 5000, dayProfitTarget: 10000, mode: 'keep-exits', squareOff: false },
      today: { state: 'clear' },
      idempotency: { key: 'risk-1', replayed: false },
    });
    const again = await api('PUT', '/risk', body, { 'Idempotency-Key': 'risk-1' });
    expect(again.body).toMatchObject({ settings: first.body.settings, idempotency: { replayed: true } });
    const other = await api('PUT', '/risk', { dayLossLimit: 1 }, { 'Idempotency-Key': 'risk-1' });
    expect(other.status).toBe(422);
    expect((await risk()).settings).toMatchObject({ dayLossLimit: 5000, dayProfitTarget: 10000 });
  });
});

describe("the watcher's check", () => {
  it('reads no positions while no limit is set', async () => {
    await openPosition();
    await control.clearRequests();
    const run = (await stack.watch()) as { risk?: unknown };
    expect(run.risk).toEqual({ status: 'off' });
    expect((await control.requests()).map((r) => r.operation)).not.toContain('PositionBook');
    // A limit set: the next run reads them, once.
    await api('PUT', '/risk', { dayLossLimit: 5000 });
    await control.clearRequests();
    expect(((await stack.watch()) as { risk?: unknown }).risk).toMatchObject({ status: 'clear' });
    expect((await control.requests()).filter((r) => r.operation === 'PositionBook')).toHaveLength(1);
  });

  it('a loss past the limit halts trading in keep-exits, once: one event, GET /risk says hit with the P&L', async () => {
    expect((await api('PUT', '/risk', { dayLossLimit: 400 })).status).toBe(200);
    await openPosition();
    // A resting entry the sweep takes down, and an OCO exit keep-exits leaves.
    const entry = await api(
      'POST',
      '/gtt-orders',
      { ...SAMPLE_ORDER, tsym: 'TCS-EQ', d: '3000', prc: '3000' },
      { 'Idempotency-Key': nextKey() },
    );
    expect(entry.status).toBe(201);
    let run = (await stack.watch()) as { risk?: Record<string, unknown> };
    expect(run.risk).toMatchObject({ status: 'clear', pnl: { total: 0 } });
    expect((await risk()).today).toMatchObject({ state: 'clear', lastCheck: { pnl: { total: 0 } } });

    // 5 at 1489 marked at 1409: -400, at the limit.
    await ltp('NSE', 'INFY-EQ', 1409);
    run = (await stack.watch()) as { risk?: Record<string, unknown> };
    expect(run.risk).toMatchObject({ status: 'hit', did: ['claimed', 'halted', 'event'], pnl: { total: -400 } });
    const halt = (await api('GET', '/kill-switch')).body;
    expect(halt).toMatchObject({ halted: true, mode: 'keep-exits', changedBy: 'risk:dayLossLimit' });
    const pending = (await api('GET', '/gtt-orders')).body as { orders: { al_id: string }[] };
    expect(pending.orders.map((o) => o.al_id)).not.toContain(entry.body.al_id);
    const state = await risk();
    expect(state.today).toMatchObject({
      state: 'hit',
      hit: {
        limit: 'dayLossLimit',
        threshold: -400,
        pnl: { total: -400 },
        mode: 'keep-exits',
        halted: true,
        eventSent: true,
      },
    });
    await stack.eventsForwarded();
    expect(hits()).toHaveLength(1);
    expect(hits()[0]!.detail).toMatchObject({
      limit: 'dayLossLimit',
      threshold: -400,
      pnl: { total: -400 },
      mode: 'keep-exits',
    });

    // Further runs: still hit, the P&L it saw kept up to date, no second event, the switch not turned again.
    await ltp('NSE', 'INFY-EQ', 1400);
    run = (await stack.watch()) as { risk?: Record<string, unknown> };
    expect(run.risk).toMatchObject({ status: 'hit', did: [], pnl: { total: -445 } });
    await stack.eventsForwarded();
    expect(hits()).toHaveLength(1);
    expect((await risk()).today).toMatchObject({
      state: 'hit',
      hit: { pnl: { total: -400 } },
      lastCheck: { pnl: { total: -445 } },
    });
    expect((await api('GET', '/kill-switch')).body.changedAt).toBe(halt.changedAt);
  });

  it('squareOff: one protected sell of exactly the held quantity, through the halt; a re-run places none', async () => {
    await api('PUT', '/risk', { dayLossLimit: 400, squareOff: true });
    await openPosition();
    await ltp('NSE', 'INFY-EQ', 1409);
    await control.clearRequests();
    const run = (await stack.watch()) as { risk?: Record<string, unknown> };
    expect(run.risk).toMatchObject({ status: 'hit', did: ['claimed', 'halted', 'event', 'planned', 'squared'] });
    const sent = () =>
      control.requests().then((all) => all.filter((r) => r.operation === 'PlaceOrder').map((r) => r.jData));
    // 1409 less the 0.5 % band (7.045), on the 0.05 tick: 1402.
    expect(await sent()).toEqual([
      expect.objectContaining({ trantype: 'S', qty: '5', prctyp: 'LMT', prc: '1402.00', tsym: 'INFY-EQ', prd: 'C' }),
    ]);
    const today = (await risk()).today;
    expect(today.hit.squareOff).toEqual([
      expect.objectContaining({ tsym: 'INFY-EQ', side: 'S', qty: 5, price: '1402.00', norenordno: expect.any(String) }),
    ]);
    expect((await api('GET', '/kill-switch')).body).toMatchObject({ halted: true });
    // The next runs: nothing placed again, whatever the positions say now.
    await control.clearRequests();
    await stack.watch();
    await stack.watch();
    expect(await sent()).toEqual([]);
    const positions = (await api('GET', '/positions')).body as { positions: { tsym: string; netQty: number }[] };
    expect(positions.positions.find((p) => p.tsym === 'INFY-EQ')!.netQty).toBeGreaterThanOrEqual(0);
  });

  it('squareOff in keep-exits closes only what the kept exits do not: one firing later never goes past flat', async () => {
    await api('PUT', '/risk', { dayLossLimit: 400, squareOff: true });
    await openPosition();
    // An OCO exit for 3 of the 5, which keep-exits leaves at the broker.
    const exit = {
      exch: 'NSE',
      tsym: 'INFY-EQ',
      target: { trigger: '1600', order: { trantype: 'S', prctyp: 'LMT', qty: 3, prc: '1600', prd: 'C' } },
      stopLoss: { trigger: '1350', order: { trantype: 'S', prctyp: 'LMT', qty: 3, prc: '1340', prd: 'C' } },
    };
    expect((await api('POST', '/gtt-orders/oco', exit, { 'Idempotency-Key': nextKey() })).status).toBe(201);
    await ltp('NSE', 'INFY-EQ', 1409);
    await control.clearRequests();
    const run = (await stack.watch()) as { risk?: Record<string, unknown> };
    expect(run.risk).toMatchObject({ status: 'hit', did: ['claimed', 'halted', 'event', 'planned', 'squared'] });
    const placed = (await control.requests()).filter((r) => r.operation === 'PlaceOrder').map((r) => r.jData);
    expect(placed).toEqual([expect.objectContaining({ trantype: 'S', qty: '2', prc: '1402.00', tsym: 'INFY-EQ' })]);
    expect((await risk()).today.hit.squareOff).toEqual([
      expect.objectContaining({ tsym: 'INFY-EQ', side: 'S', qty: 2, norenordno: expect.any(String) }),
    ]);
    // The kept stop fires: the 3 it sells close the position, never a short.
    await ltp('NSE', 'INFY-EQ', 1345);
    const positions = (await api('GET', '/positions')).body as { positions: { tsym: string; netQty: number }[] };
    expect(positions.positions.find((p) => p.tsym === 'INFY-EQ')!.netQty).toBe(0);
  });

  it('a profit at the target halts in the mode chosen', async () => {
    await api('PUT', '/risk', { dayLossLimit: 1000, dayProfitTarget: 250, mode: 'cancel-all' });
    await openPosition();
    await ltp('NSE', 'INFY-EQ', 1539);
    const run = (await stack.watch()) as { risk?: Record<string, unknown> };
    expect(run.risk).toMatchObject({ status: 'hit', pnl: { total: 250 } });
    expect((await api('GET', '/kill-switch')).body).toMatchObject({
      halted: true,
      mode: 'cancel-all',
      changedBy: 'risk:dayProfitTarget',
    });
  });

  it('a failed positions read decides nothing and says why; the next read decides', async () => {
    await api('PUT', '/risk', { dayLossLimit: 100 });
    await openPosition();
    await ltp('NSE', 'INFY-EQ', 1400);
    await control.fault({ operation: 'PositionBook', kind: 'http5xx', times: 10 });
    const run = (await stack.watch()) as { risk?: Record<string, unknown> };
    expect(run.risk).toMatchObject({ status: 'unchecked', reason: expect.stringContaining('positions not read') });
    expect((await risk()).today).toMatchObject({ state: 'unchecked', reason: expect.stringContaining('BROKER_') });
    expect((await api('GET', '/kill-switch')).body).toMatchObject({ halted: false });
    await control.clearFaults();
    expect(((await stack.watch()) as { risk?: Record<string, unknown> }).risk).toMatchObject({ status: 'hit' });
  });

  it('the next India day starts clear', async () => {
    await api('PUT', '/risk', { dayLossLimit: 400 });
    await openPosition();
    await ltp('NSE', 'INFY-EQ', 1400);
    expect(((await stack.watch()) as { risk?: Record<string, unknown> }).risk).toMatchObject({ status: 'hit' });
    await api('DELETE', '/kill-switch');
    await ltp('NSE', 'INFY-EQ', 1489);
    // The same watcher a day later (its check's clock a day on).
    const tomorrow = () => Date.now() + 86_400_000;
    const later = createGttWatcher({
      env: stack.watcherEnv,
      logger,
      risk: () => createRiskCheckFor(stack.watcherEnv, logger, { now: tomorrow }),
    });
    const run = (await later(undefined, {} as never)) as { risk?: Record<string, unknown> };
    expect(run.risk).toMatchObject({ status: 'clear', day: indiaDay(tomorrow()), pnl: { total: 0 } });
    const store = new RiskStore({ tableName: LOCAL_EVENTS_TABLE, endpoint: stack.dynamo.url });
    expect((await store.day(indiaDay(tomorrow()))).today).toMatchObject({ state: 'clear' });
    expect((await store.day(indiaDay(Date.now()))).today).toMatchObject({ state: 'hit' });
    expect((await api('GET', '/kill-switch')).body).toMatchObject({ halted: false });
  });
});
