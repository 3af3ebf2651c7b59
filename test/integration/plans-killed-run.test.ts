/**
 * A watcher run killed while it places a bracket's exit (the defect of a hostile review: the filled position was left
 * uncovered and unflagged until the try's lease ended, the runs in between saying nothing). End to end on loopback:
 * the plan engine of the local stack against the emulator (its slow PlaceOCOOrder: acted on late, or never) and
 * dynalite, the run killed at its deadline (test/support/killed-run.ts), the engine's clock moved rather than waited.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { splitRemarks } from '../../functions/base/broker/order-stamps.js';
import type { Plan } from '../../functions/base/schemas/plans.js';
import type { AdvanceResult, PlanEngine } from '../../functions/plans/engine.js';
import { createPlanEngine } from '../../functions/plans/engine-wiring.js';
import { LATE_WINDOW_MS } from '../../functions/plans/limits.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { depsOf, killedRun } from '../support/killed-run.js';
import { localApi } from '../support/local-api.js';
import { captureLogger } from '../support/logs.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let control: EmulatorControl;
let engine: PlanEngine;
let logLines: string[];
/** How far the engine's clock runs ahead of the wall clock. */
const clock = { offset: 0 };
let keys = 0;
const made: string[] = [];

/** The killed invocation's deadline; the slow call outlasts it (and, acted on late, lands within the late window). */
const KILLED_MS = 2_500;
const SLOW_MS = 6_000;
/** The stack's late window (ORDER_LATE_WINDOW_MS). */
const LATE_MS = 1_000;

const api = localApi(() => stack.api.url);
const plan = async (planId: string) => (await api('GET', `/plans/${planId}`)).body as unknown as Plan;
const pending = async () =>
  (await api('GET', '/gtt-orders?limit=1000')).body.orders as { al_id: string; tag?: string; trigger?: string }[];
const stamped = async (stamp: string) => (await pending()).filter((o) => o.tag === stamp);
/** Every GTT the broker ever held with this stamp (pending, fired or cancelled). */
const everStamped = (stamp: string) =>
  [...stack.emulator.emulator.state.orders.values()].filter((g) => splitRemarks(g.remarks).tag === stamp);
const brokerCalls = async (operation: string, tsym: string) =>
  (await control.requests()).filter(
    (r) => r.operation === operation && (r.jData?.tsym === tsym || r.body.includes(tsym)),
  );
const planEvents = async (planId: string, type: string) => {
  await stack.eventsForwarded();
  return stack.eventBridge.events.filter((e) => e.detail.planId === planId && e['detail-type'] === type);
};
const run = (): Promise<AdvanceResult> => engine.advance(Date.now() + 10_000);
const waitFor = async (what: () => Promise<boolean>, ms: number) => {
  const until = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const create = async (body: unknown) => {
  const res = await api('POST', '/plans', body, { 'Idempotency-Key': `killed-${process.pid}-${++keys}` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const created = res.body as unknown as Plan;
  made.push(created.planId);
  return created;
};

/** A bracket whose entry filled, then a run killed while its exit's PlaceOCOOrder is slow. */
const killedWhilePlacingExit = async (tsym: string, late: boolean) => {
  await control.ltp('NSE', tsym, 1500);
  const created = await create({
    kind: 'bracket',
    entry: { ...SAMPLE_ORDER, tsym, qty: 2 },
    target: { trigger: '1600', price: '1600' },
    stopLoss: { trigger: '1400', price: '1400' },
  });
  await control.ltp('NSE', tsym, 1480); // the entry fires and fills
  await control.fault({ operation: 'PlaceOCOOrder', kind: 'delay', delayMs: SLOW_MS, ...(late ? { late } : {}) });
  const killedAt = Date.now() + KILLED_MS;
  await killedRun(engine, KILLED_MS);
  await control.clearFaults();
  // The defect's start: the try recorded, its call sent, nothing after it ran.
  const left = await plan(created.planId);
  expect(left.state).toBe('entry-filled');
  expect(left.inFlight).toMatchObject({ stamp: `${created.planId}.x1`, key: `${created.planId}-x1-1` });
  const f = left.inFlight!;
  expect(Math.abs(Date.parse(f.deadline!) - killedAt)).toBeLessThan(1_000);
  expect(Date.parse(f.leaseUntil) - Date.parse(f.deadline!)).toBe(LATE_WINDOW_MS);
  expect(await brokerCalls('PlaceOCOOrder', tsym)).toHaveLength(1);
  expect(await stamped(`${created.planId}.x1`)).toEqual([]);
  return { planId: created.planId, inFlight: f };
};

/** The next runs, after the killed invocation's deadline and within the lease: said, flagged, told once. */
const expectSaid = async (planId: string, tsym: string) => {
  logLines.length = 0;
  const next = await run();
  expect(next.waiting).toEqual([expect.objectContaining({ planId, stamp: `${planId}.x1`, unprotected: true })]);
  expect(next.acted).toEqual([`${planId}:unprotected`]);
  expect(next.errors.filter((e) => e.planId === planId)).toEqual([]);
  const flagged = await plan(planId);
  expect(flagged).toMatchObject({ state: 'unprotected', retrying: true, position: { side: 'B', qty: 2 } });
  expect(flagged.inFlight?.key).toBe(`${planId}-x1-1`);
  expect(flagged.reason).toMatch(/unresolved/);
  const warned = logLines
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.metric === 'PlanTryUnresolved');
  expect(warned).toEqual([
    expect.objectContaining({ level: 'WARN', planId, stamp: `${planId}.x1`, unprotected: true }),
  ]);
  const told = await planEvents(planId, 'Plan Unprotected');
  expect(told).toHaveLength(1);
  expect(told[0]!.detail).toMatchObject({ state: 'unprotected', position: { side: 'B', qty: 2 } });

  // A second run says it again in its result, tells nobody twice, and still places nothing.
  const again = await run();
  expect(again.waiting?.map((w) => w.planId)).toEqual([planId]);
  expect(again.acted).toEqual([]);
  expect(await planEvents(planId, 'Plan Unprotected')).toHaveLength(1);
  expect(await brokerCalls('PlaceOCOOrder', tsym)).toHaveLength(1);
};

beforeAll(async () => {
  // A short late window: the killed modify's lease on its order (orders/lease.ts) lapses a second after its bound.
  stack = await startLocalStack({ settings: { ...HIGH_ORDER_RATE, ORDER_LATE_WINDOW_MS: LATE_MS } });
  control = emulatorControl(stack.emulator.url);
  const captured = captureLogger();
  logLines = captured.lines;
  engine = createPlanEngine(stack.config, captured.logger);
  depsOf(engine).now = () => new Date(Date.now() + clock.offset);
});
afterAll(() => stack.close());
afterEach(async () => {
  await control.clearFaults();
  clock.offset = 0;
  for (const planId of made.splice(0)) await api('DELETE', `/plans/${planId}`);
});

describe('a watcher run killed while it places the exit', () => {
  it('the broker acts late: the next runs say so and flag the plan unprotected; the exit is adopted when it lands', async () => {
    const tsym = 'SBIN-EQ';
    const { planId } = await killedWhilePlacingExit(tsym, true);
    await expectSaid(planId, tsym);

    await waitFor(async () => (await stamped(`${planId}.x1`)).length === 1, SLOW_MS + 4_000);
    const [landed] = await stamped(`${planId}.x1`);
    const adopted = await run();
    expect(adopted.acted).toEqual([`${planId}:adopted`]);
    expect(adopted.waiting).toBeUndefined();
    const armed = await plan(planId);
    expect(armed).toMatchObject({ state: 'exit-armed', alIds: { exit: landed!.al_id } });
    expect(armed.inFlight).toBeUndefined();
    expect(armed.reason).toBeUndefined();
    expect(armed.history.map((h) => h.action)).toEqual(
      expect.arrayContaining(['entry-filled', 'unprotected', 'exit-adopted']),
    );
    const steps = await planEvents(planId, 'Plan Step');
    expect(steps.map((e) => e.detail)).toEqual([expect.objectContaining({ step: 'exit-armed', al_id: landed!.al_id })]);

    // Long after the lease: nothing placed again, one exit ever.
    clock.offset = 120_000;
    expect((await run()).acted).toEqual([]);
    expect(everStamped(`${planId}.x1`)).toHaveLength(1);
    expect(await brokerCalls('PlaceOCOOrder', tsym)).toHaveLength(1);
  });

  it('the broker never acts: flagged until the lease ends, then the exit is placed once, with the next key', async () => {
    const tsym = 'INFY-EQ';
    const { planId, inFlight } = await killedWhilePlacingExit(tsym, false);
    await expectSaid(planId, tsym);

    // Just before the lease ends the try may still land: nothing is placed.
    clock.offset = Date.parse(inFlight.leaseUntil) - Date.now() - 1_000;
    const before = await run();
    expect(before.waiting?.map((w) => w.planId)).toEqual([planId]);
    expect(await brokerCalls('PlaceOCOOrder', tsym)).toHaveLength(1);

    clock.offset = Date.parse(inFlight.leaseUntil) - Date.now() + 1_000;
    const placed = await run();
    expect(placed.acted).toEqual([`${planId}:exit-armed`]);
    expect(placed.waiting).toBeUndefined();
    const armed = await plan(planId);
    const [exit] = await stamped(`${planId}.x1`);
    expect(armed).toMatchObject({ state: 'exit-armed', alIds: { exit: exit!.al_id } });
    expect(armed.history.map((h) => h.action)).toEqual(expect.arrayContaining(['try-lapsed', 'exit-placed']));
    const calls = await brokerCalls('PlaceOCOOrder', tsym);
    expect(calls).toHaveLength(2);
    expect(calls.map((c) => typeof (c.reply as { al_id?: unknown } | null)?.al_id)).toEqual(['undefined', 'string']);
    expect((await planEvents(planId, 'Plan Step')).map((e) => e.detail.step)).toEqual(['exit-armed']);

    expect((await run()).acted).toEqual([]);
    expect(everStamped(`${planId}.x1`)).toHaveLength(1);
    expect(await brokerCalls('PlaceOCOOrder', tsym)).toHaveLength(2);
  });
});

describe('a killed run of a trailing stop', () => {
  it('a stop move left unresolved is said, but the old stop still protects: no Plan Unprotected', async () => {
    const tsym = 'WIPRO-EQ';
    await control.ltp('NSE', tsym, 1500);
    const created = await create({
      kind: 'trailing-stop',
      order: { ...SAMPLE_ORDER, tsym, trantype: 'S', d: '1400', prc: '1395' },
      trailBy: '100',
    });
    await control.ltp('NSE', tsym, 1540);
    await control.fault({ operation: 'ModifyGTTOrder', kind: 'delay', delayMs: SLOW_MS });
    await killedRun(engine, KILLED_MS);
    await control.clearFaults();
    const left = await plan(created.planId);
    expect(left).toMatchObject({ state: 'armed', inFlight: { stamp: `${created.planId}.s`, trigger: '1440.00' } });

    logLines.length = 0;
    const next = await run();
    expect(next.waiting).toEqual([
      expect.objectContaining({ planId: created.planId, stamp: `${created.planId}.s`, unprotected: false }),
    ]);
    expect(next.acted).toEqual([]);
    expect((await plan(created.planId)).state).toBe('armed');
    expect(logLines.some((l) => l.includes('PlanTryUnresolved') && l.includes(created.planId))).toBe(true);
    expect(await planEvents(created.planId, 'Plan Unprotected')).toEqual([]);
    expect((await stamped(`${created.planId}.s`)).map((o) => Number(o.trigger))).toEqual([1400]);

    // The lease over, the move is tried again with the next key (once the killed write's order lease, which runs on
    // the real clock, has lapsed too: its bound, at most the killed run's deadline, plus the late window).
    await new Promise((resolve) => setTimeout(resolve, KILLED_MS + LATE_MS));
    clock.offset = Date.parse(left.inFlight!.leaseUntil) - Date.now() + 1_000;
    expect((await run()).acted).toEqual([`${created.planId}:stop-trailed`]);
    expect((await stamped(`${created.planId}.s`)).map((o) => Number(o.trigger))).toEqual([1440]);
  });
});
