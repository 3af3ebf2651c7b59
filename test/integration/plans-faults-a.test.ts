/**
 * Regression tests of issue 32 (part A): the plan engine's faults at the broker, end to end on the local stack. Each
 * test injects the fault of one defect and proves the plan neither acts twice nor loses track of what it placed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { planInput } from '../../functions/base/schemas/plans.js';
import { type PlanEngine, planIdOf } from '../../functions/plans/engine.js';
import { createPlanEngine } from '../../functions/plans/engine-wiring.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { captureLogger } from '../support/logs.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

interface ErrorBody {
  code: string;
  message: string;
  outcome?: string;
  details?: unknown;
}
interface PlanView {
  planId: string;
  state: string;
  alIds: { entry?: string; exit?: string };
  inFlight?: { stamp: string; key: string; leaseUntil: string };
  position?: { side: string; qty: number };
  history: { action: string }[];
  left?: { position?: { side: string; qty: number }; cancelled: string[]; note?: string };
  error?: ErrorBody;
}
interface Pending {
  al_id: string;
  tsym: string;
  type: string;
  tag?: string;
  target?: { trigger: string; order: { qty: string | number } };
}
interface Fired {
  al_id: string;
  tag?: string;
  order?: { norenordno: string; tag?: string; filledQty: number };
}
interface RunResult {
  status: string;
  plans?: { acted: string[]; errors: { planId: string; code: string }[]; swept?: string[] };
}

let stack: LocalStack;
let control: EmulatorControl;
let keys = 0;
const newKey = () => `faults-a-${Date.now()}-${++keys}`;

const api = localApi<PlanView>(() => stack.api.url);
const bracket = (tsym: string, qty = 2) => ({
  kind: 'bracket' as const,
  entry: { ...SAMPLE_ORDER, tsym, qty },
  target: { trigger: '1600', price: '1600' },
  stopLoss: { trigger: '1400', price: '1400' },
});
const create = async (body: unknown, key = newKey()) => {
  const res = await api('POST', '/plans', body, { 'Idempotency-Key': key });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const plan = async (planId: string) => (await api('GET', `/plans/${planId}`)).body;
const pending = async () => (await api<{ orders: Pending[] }>('GET', '/gtt-orders?limit=1000')).body.orders;
const stamped = async (stamp: string) => (await pending()).filter((o) => o.tag === stamp);
const fired = async () => (await api<{ orders: Fired[] }>('GET', '/gtt-orders/triggered?limit=1000')).body.orders;
const watch = async () => (await stack.watch()) as RunResult;
const nextOrder = (outcome: Record<string, unknown>) =>
  fetch(`${stack.emulator.url}/_emulator/next-order`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(outcome),
  });
/** The broker calls of one operation for one symbol (its body is read at arrival, its jData once served); `placed` keeps those the broker answered with a new al_id. */
const brokerCalls = async (operation: string, tsym: string, placed = false) =>
  (await control.requests()).filter(
    (r) =>
      r.operation === operation &&
      (r.jData?.tsym === tsym || r.body.includes(tsym)) &&
      (!placed || typeof (r.reply as { al_id?: unknown } | null)?.al_id === 'string'),
  );
/** An engine on this stack whose clock runs `ms` ahead: every try left in flight by now has lapsed. */
const laterEngine = (ms = 120_000): PlanEngine => {
  const engine = createPlanEngine(stack.config, captureLogger().logger);
  (engine as unknown as { deps: { now?: () => Date } }).deps.now = () => new Date(Date.now() + ms);
  return engine;
};

beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE });
  control = emulatorControl(stack.emulator.url);
});
afterAll(() => stack.close());
beforeEach(async () => {
  await control.clearFaults();
  expect(await watch()).toMatchObject({ status: expect.stringMatching(/ok|baseline/) });
});

describe('issue 32: a reply lost or late never places a step twice', () => {
  it('1. a lost exit reply: the exit is adopted by its stamp, and no second OCO is ever placed', async () => {
    const created = await create(bracket('SBIN-EQ'));
    await control.ltp('NSE', 'SBIN-EQ', 1480);
    await control.fault({ operation: 'PlaceOCOOrder', kind: 'drop', executed: true, times: 1 });
    await watch();
    const adopted = await plan(created.planId);
    expect(adopted.state).toBe('exit-armed');
    expect(adopted.history.map((h) => h.action)).toContain('exit-adopted');
    const exits = await stamped(`${created.planId}.x1`);
    expect(exits.map((o) => o.al_id)).toEqual([adopted.alIds.exit]);

    await watch();
    await watch();
    await laterEngine().advance(Date.now() + 12_000);
    await watch();
    expect(await plan(created.planId)).toMatchObject({ state: 'exit-armed', alIds: { exit: adopted.alIds.exit } });
    expect((await pending()).filter((o) => o.tsym === 'SBIN-EQ' && o.type === 'oco')).toHaveLength(1);
    // The dropped call is the only OCO the broker ever got for this symbol: nothing was placed again.
    expect(await brokerCalls('PlaceOCOOrder', 'SBIN-EQ')).toHaveLength(1);
  });

  it('2. a create cut off by its deadline records the plan in flight; the entry is placed once, when it lapsed', async () => {
    const body = bracket('INFY-EQ');
    const key = newKey();
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 6_000, times: 1 });
    const engine = createPlanEngine(stack.config, captureLogger().logger);
    const failure = (await engine.create(planInput.parse(body), key, Date.now() + 3_000).then(
      () => undefined,
      (error: unknown) => error,
    )) as { code?: string; outcome?: string } | undefined;
    expect(failure).toBeDefined();
    expect(failure!.code === 'BROKER_TIMEOUT' || failure!.outcome === 'unknown', JSON.stringify(failure)).toBe(true);
    const planId = planIdOf(key);
    expect((failure as { message?: string }).message).toContain(planId);
    const recorded = await plan(planId);
    expect(recorded).toMatchObject({ state: 'armed', inFlight: { stamp: `${planId}.e` } });
    expect(recorded.alIds.entry).toBeUndefined();

    // The same key again, at once: the same plan, nothing placed (the first try may still arrive).
    const again = await api('POST', '/plans', body, { 'Idempotency-Key': key });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ planId, state: 'armed', inFlight: { stamp: `${planId}.e` } });
    await watch();
    expect(await stamped(`${planId}.e`)).toHaveLength(0);
    expect(await brokerCalls('PlaceGTTOrder', 'INFY-EQ', true)).toHaveLength(0);

    // Once the first try can no longer arrive, a run places the entry, once.
    await laterEngine().advance(Date.now() + 12_000);
    await laterEngine().advance(Date.now() + 12_000);
    await watch();
    const armed = await plan(planId);
    expect(armed.inFlight).toBeUndefined();
    expect(armed.history.map((h) => h.action)).toEqual(expect.arrayContaining(['try-lapsed', 'entry-placed']));
    const entries = await stamped(`${planId}.e`);
    expect(entries.map((o) => o.al_id)).toEqual([armed.alIds.entry]);
    expect(await brokerCalls('PlaceGTTOrder', 'INFY-EQ', true)).toHaveLength(1);
  });

  it('2b. a create whose entry the broker placed but whose reply came too late adopts that entry', async () => {
    const body = bracket('TCS-EQ');
    await control.fault({ operation: 'PlaceGTTOrder', kind: 'delay', delayMs: 6_000, executed: true, times: 1 });
    const engine = createPlanEngine(stack.config, captureLogger().logger);
    const { plan: made } = await engine.create(planInput.parse(body), newKey(), Date.now() + 3_000);
    expect(made.state).toBe('armed');
    expect(made.inFlight).toBeUndefined();
    expect(made.history.map((h) => h.action)).toContain('entry-adopted');
    expect((await stamped(`${made.planId}.e`)).map((o) => o.al_id)).toEqual([made.alIds.entry]);
    await laterEngine().advance(Date.now() + 12_000);
    await watch();
    expect((await pending()).filter((o) => o.tsym === 'TCS-EQ')).toHaveLength(1);
    expect(await brokerCalls('PlaceGTTOrder', 'TCS-EQ')).toHaveLength(1);
  });
});

describe('issue 32: fills, legs and ends', () => {
  it("3. an untagged GTT of the same terms fires with the entry and does not take the plan's fill", async () => {
    const body = bracket('RELIANCE-EQ');
    const outside = await api<{ al_id: string }>('POST', '/gtt-orders', body.entry, { 'Idempotency-Key': newKey() });
    expect(outside.status, JSON.stringify(outside.body)).toBe(201);
    const created = await create(body);
    await control.ltp('NSE', 'RELIANCE-EQ', 1480);
    await watch();
    const after = await plan(created.planId);
    expect(after).toMatchObject({ state: 'exit-armed', position: { side: 'B', qty: 2 } });
    const history = await fired();
    const ours = history.find((g) => g.al_id === created.alIds.entry);
    const theirs = history.find((g) => g.al_id === outside.body.al_id);
    expect(ours?.order).toMatchObject({ tag: `${created.planId}.e`, filledQty: 2 });
    expect(theirs?.order).toBeDefined();
    expect(theirs!.order!.norenordno).not.toBe(ours!.order!.norenordno);
    expect(theirs!.order!.tag).toBeUndefined();
  });

  it('4. the exit is checked at creation: legs on the wrong side, the tick grid; nothing placed', async () => {
    await control.clearRequests();
    const crossed = await api(
      'POST',
      '/plans',
      {
        ...bracket('M&M-EQ'),
        target: { trigger: '1400', price: '1400' },
        stopLoss: { trigger: '1600', price: '1600' },
      },
      { 'Idempotency-Key': newKey() },
    );
    expect(crossed.status).toBe(400);
    expect(crossed.body.error?.code).toBe('VALIDATION_FAILED');
    expect(crossed.body.error?.message).toContain('target.trigger');
    expect(crossed.body.error?.message).toContain('stopLoss.trigger');

    const offTick = await api(
      'POST',
      '/plans',
      { ...bracket('M&M-EQ'), entry: { ...SAMPLE_ORDER, qty: 2, prc: '1500.03' } },
      { 'Idempotency-Key': newKey() },
    );
    expect(offTick.status).toBe(400);
    expect(offTick.body.error?.code).toBe('VALIDATION_FAILED');
    expect(offTick.body.error?.message).toMatch(/entry\.prc/);
    expect(offTick.body.error?.message).toMatch(/1500\.00|1500\.05/);
    const writes = (await control.requests()).filter((r) => /^Place(GTT|OCO)Order$/.test(r.operation ?? ''));
    expect(writes).toEqual([]);
  });

  it('4b. an exit over the order value guardrail is refused at creation, though the entry is within it', async () => {
    const guarded = await startLocalStack({ settings: { ...HIGH_ORDER_RATE, GUARDRAIL_MAX_ORDER_VALUE: '3100' } });
    try {
      const res = await fetch(`${guarded.api.url}/plans`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Idempotency-Key': newKey() },
        body: JSON.stringify(bracket('WIPRO-EQ')),
      });
      const refused = (await res.json()) as { error?: ErrorBody };
      expect(res.status, JSON.stringify(refused)).toBe(422);
      expect(refused.error?.code).toBe('GUARDRAIL_REJECTED');
      expect(refused.error?.message).toMatch(/exit/);
      const requests = await emulatorControl(guarded.emulator.url).requests();
      expect(requests.filter((r) => /^Place(GTT|OCO)Order$/.test(r.operation ?? ''))).toEqual([]);
      const pendingThere = await (await fetch(`${guarded.api.url}/gtt-orders?limit=1000`)).json();
      expect((pendingThere as { orders: unknown[] }).orders).toEqual([]);
    } finally {
      await guarded.close();
    }
  });

  it('5. an entry partly filled then cancelled at the close: the exit covers what filled', async () => {
    const created = await create(bracket('HDFCBANK-EQ', 10));
    expect((await nextOrder({ status: 'partial', fillQty: 4 })).status).toBe(201);
    await control.ltp('NSE', 'HDFCBANK-EQ', 1480);
    await watch();
    expect((await plan(created.planId)).state).toBe('armed');
    await control.close();
    await watch();
    const after = await plan(created.planId);
    expect(after).toMatchObject({ state: 'exit-armed', position: { side: 'B', qty: 4 } });
    const exit = (await pending()).find((o) => o.al_id === after.alIds.exit);
    expect(exit?.tag).toBe(`${created.planId}.x1`);
    expect(Number(exit?.target?.order.qty)).toBe(4);
  });
});

describe('issue 32: DELETE says what it leaves', () => {
  it('6a. DELETE after the entry fired and filled (no run between) names the open position', async () => {
    const created = await create(bracket('ICICIBANK-EQ'));
    await control.ltp('NSE', 'ICICIBANK-EQ', 1480);
    const res = await api('DELETE', `/plans/${created.planId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ state: 'cancelled', left: { position: { side: 'B', qty: 2 } } });
    expect(res.body.left?.note).toMatch(/long 2/);
    await watch();
    expect((await plan(created.planId)).state).toBe('cancelled');
    expect((await pending()).filter((o) => o.tsym === 'ICICIBANK-EQ')).toEqual([]);
  });

  /** Starts a run placing the exit (the OCO's reply delayed) and sends DELETE once the OCO reached the broker. */
  const deleteDuringExit = async (tsym: string, executed: boolean) => {
    const created = await create(bracket(tsym));
    await control.ltp('NSE', tsym, 1480);
    await control.fault({ operation: 'PlaceOCOOrder', kind: 'delay', delayMs: 3_000, executed, times: 1 });
    const run = watch();
    const until = Date.now() + 60_000;
    while (!(await brokerCalls('PlaceOCOOrder', tsym)).length && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await plan(created.planId)).inFlight?.stamp).toBe(`${created.planId}.x1`);
    const during = await api('DELETE', `/plans/${created.planId}`);
    const ran = await run;
    return { planId: created.planId, during, ran };
  };

  it('6b. DELETE while a run places the exit: 409 PLAN_BUSY, then DELETE cancels the exit it placed', async () => {
    const { planId, during, ran } = await deleteDuringExit('AXISBANK-EQ', false);
    expect(during.status, JSON.stringify(during.body)).toBe(409);
    expect(during.body.error?.code).toBe('PLAN_BUSY');
    expect((during.body.error?.details as { retryAfterSeconds?: unknown }).retryAfterSeconds).toEqual(
      expect.any(Number),
    );
    // The run that was placing it armed the exit; nothing was changed by the refused DELETE.
    expect(ran.plans?.acted).toEqual([`${planId}:exit-armed`]);
    const placed = await plan(planId);
    expect(placed.state).toBe('exit-armed');
    const res = await api('DELETE', `/plans/${planId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.state).toBe('cancelled');
    expect(res.body.left?.cancelled).toContain(placed.alIds.exit);
    expect((await pending()).map((o) => o.al_id)).not.toContain(placed.alIds.exit);
    expect(await stamped(`${planId}.x1`)).toEqual([]);
  });

  it('6c. DELETE while a run places an exit the broker already holds: adopted by its stamp and cancelled', async () => {
    const { planId, during, ran } = await deleteDuringExit('KOTAKBANK-EQ', true);
    const exits = (await brokerCalls('PlaceOCOOrder', 'KOTAKBANK-EQ', true)).map(
      (r) => (r.reply as { al_id: string }).al_id,
    );
    expect(exits).toHaveLength(1);
    expect(during.status, JSON.stringify(during.body)).toBe(200);
    expect(during.body).toMatchObject({
      state: 'cancelled',
      left: { cancelled: exits, position: { side: 'B', qty: 2 } },
    });
    expect(during.body.history.map((h) => h.action)).toEqual(expect.arrayContaining(['exit-adopted', 'cancelled']));
    // The run's late reply does not bring the plan back, and no later run places another exit.
    expect(ran.plans?.errors).toEqual([]);
    await watch();
    await laterEngine().advance(Date.now() + 12_000);
    expect((await plan(planId)).state).toBe('cancelled');
    expect((await pending()).filter((o) => o.tsym === 'KOTAKBANK-EQ')).toEqual([]);
    expect(await brokerCalls('PlaceOCOOrder', 'KOTAKBANK-EQ')).toHaveLength(1);
  });
});
