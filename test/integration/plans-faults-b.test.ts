/**
 * Plans under faults (issue 32, defects 7-12), end to end on loopback: the real Plans function and watcher against
 * the emulator (its faults, its order book's next outcome, its kill switch sweep) and the local EventBridge. Each
 * test proves one defect gone: a rejected exit, a GTT gone from the broker, a trailing stop's lost reply, market
 * price, tick grid and unreadable price, bounded history and paging, plan events through the outbox, and the same
 * Idempotency-Key with another plan.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { createEventPublisher } from '../../functions/base/aws/publisher.js';
import type { AdvanceResult } from '../../functions/plans/engine.js';
import { createPlanEngine } from '../../functions/plans/engine-wiring.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { captureLogger } from '../support/logs.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

type Json = Record<string, unknown>;
interface PlanView {
  planId: string;
  state: string;
  alIds: { entry?: string; exit?: string; stop?: string };
  trigger?: string;
  price?: string;
  reason?: string;
  retrying?: boolean;
  trails?: number;
  history: { action: string; detail?: Json }[];
  historyDropped?: number;
}
type Body = Json & { error?: { code: string; message: string } };
type PendingGtt = { al_id: string; type: string; tag?: string; trigger?: string };

const LATE_MS = 1_000; // the stack's ORDER_LATE_WINDOW_MS: an unknown modify holds its order's lease this long
let stack: LocalStack;
let control: EmulatorControl;
let keys = 0;
let failingPuts = 0;
/** The forwarder's entries EventBridge refused: `<detail-type> <planId>`. */
const refused: string[] = [];
const made: string[] = [];

const api = localApi<Body>(() => stack.api.url);
const run = async (): Promise<AdvanceResult> => {
  const result = (await stack.watch()) as Awaited<ReturnType<LocalStack['watch']>> & { plans?: AdvanceResult };
  expect(result.status).toMatch(/ok|baseline/);
  return result.plans ?? { acted: [], errors: [] };
};
const create = async (plan: unknown): Promise<PlanView> => {
  const res = await api('POST', '/plans', plan, { 'Idempotency-Key': `faults-b-${process.pid}-${++keys}` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const created = res.body as unknown as PlanView;
  made.push(created.planId);
  return created;
};
const plan = async (planId: string) => (await api('GET', `/plans/${planId}`)).body as unknown as PlanView;
const pending = async () => (await api('GET', '/gtt-orders?limit=1000')).body.orders as PendingGtt[];
const brokerTrigger = async (alId: string | undefined) =>
  Number((await pending()).find((o) => o.al_id === alId)?.trigger);
const ltp = (tsym: string, value: number) => control.ltp('NSE', tsym, value);
const nextOrder = async (outcome: Json) => {
  const res = await fetch(`${stack.emulator.url}/_emulator/next-order`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(outcome),
  });
  expect(res.status).toBe(201);
};
const planEvents = (planId: string) => stack.eventBridge.events.filter((e) => e.detail.planId === planId);
const errorsOf = (result: AdvanceResult, planId: string) => result.errors.filter((e) => e.planId === planId);

const BRACKET = (tsym: string) => ({
  kind: 'bracket',
  entry: { ...SAMPLE_ORDER, tsym, qty: 2 },
  target: { trigger: '1600', price: '1600' },
  stopLoss: { trigger: '1400', price: '1400' },
});
const SELL_STOP = (tsym: string, extra: Json = {}) => ({
  kind: 'trailing-stop',
  order: { ...SAMPLE_ORDER, tsym, trantype: 'S', d: '1400', prc: '1395', ...extra },
  trailBy: '100',
});
/** A bracket whose entry filled and whose exit OCO is pending. */
const exitArmed = async (tsym: string) => {
  await ltp(tsym, 1500);
  const created = await create(BRACKET(tsym));
  await ltp(tsym, 1480);
  await run();
  const armed = await plan(created.planId);
  expect(armed.state).toBe('exit-armed');
  return armed;
};

beforeAll(async () => {
  stack = await startLocalStack({
    settings: { ...HIGH_ORDER_RATE, ORDER_LATE_WINDOW_MS: LATE_MS },
    forwarder: {
      // The real publisher, before a local EventBridge that refuses plan-event puts while `failingPuts` lasts.
      publisher: (config) => {
        const real = createEventPublisher({ busName: config.eventBusName, endpoint: config.eventbridgeEndpoint });
        return {
          publish: async (list, timeoutMs) => {
            if (failingPuts > 0 && list.some((e) => e.detailType.startsWith('Plan '))) {
              failingPuts--;
              refused.push(...list.map((e) => `${e.detailType} ${String((e.detail as Json).planId)}`));
              stack.eventBridge.refuseNext(list.length);
            }
            return real.publish(list, timeoutMs);
          },
        };
      },
    },
  });
  control = emulatorControl(stack.emulator.url);
  await run();
});
afterAll(async () => {
  await api('DELETE', '/kill-switch').catch(() => undefined);
  await stack?.close();
});
// A test's plans never act in the next one.
afterEach(async () => {
  await control.clearFaults();
  for (const planId of made.splice(0)) await api('DELETE', `/plans/${planId}`);
  await stack.eventsForwarded();
});

describe('7: a rejected exit', () => {
  it('is not done: the plan is unprotected (told once, with the position), then a new exit .x2 is armed', async () => {
    const armed = await exitArmed('M&M-EQ');
    await nextOrder({ status: 'rejected', reason: 'RMS:Margin Exceeds' });
    await ltp('M&M-EQ', 1390); // the stop-loss leg fires; its order is rejected
    await ltp('M&M-EQ', 1450);
    expect((await run()).acted).toContain(`${armed.planId}:unprotected`);
    const unprotected = await plan(armed.planId);
    expect(unprotected).toMatchObject({ state: 'unprotected', retrying: true });
    expect(unprotected.history.map((h) => h.action)).not.toContain('exit-filled');
    await stack.eventsForwarded();
    const told = planEvents(armed.planId).filter((e) => e['detail-type'] === 'Plan Unprotected');
    expect(told).toHaveLength(1);
    expect(told[0]!.detail).toMatchObject({ position: { side: 'B', qty: 2 } });
    expect(planEvents(armed.planId).map((e) => e['detail-type'])).not.toContain('Plan Done');

    expect((await run()).acted).toContain(`${armed.planId}:exit-armed`);
    const again = await plan(armed.planId);
    expect(again.state).toBe('exit-armed');
    expect(again.alIds.exit).not.toBe(armed.alIds.exit);
    expect((await pending()).find((o) => o.al_id === again.alIds.exit)).toMatchObject({
      type: 'oco',
      tag: `${armed.planId}.x2`,
    });
  });
});

describe('8: plans notice their GTT is gone (the kill switch swept it)', () => {
  it('an exit: unprotected, not retrying; an entry: failed; a trailing stop: unprotected; no ORDER_NOT_FOUND later', async () => {
    const bracket = await exitArmed('SBIN-EQ');
    await ltp('INFY-EQ', 1500);
    const entryOnly = await create(BRACKET('INFY-EQ'));
    await ltp('WIPRO-EQ', 1500);
    const stop = await create(SELL_STOP('WIPRO-EQ'));
    expect((await plan(entryOnly.planId)).state).toBe('armed');

    expect((await api('POST', '/kill-switch')).status).toBe(200);
    expect((await api('DELETE', '/kill-switch')).status).toBe(200);
    const swept = await pending();
    for (const id of [bracket.alIds.exit, entryOnly.alIds.entry, stop.alIds.stop])
      expect(swept.map((o) => o.al_id)).not.toContain(id);

    const first = await run();
    const exitGone = await plan(bracket.planId);
    expect(exitGone).toMatchObject({ state: 'unprotected', retrying: false });
    expect(exitGone.reason).toMatch(/exit/);
    expect(exitGone.reason).toContain(String(bracket.alIds.exit));
    const entryGone = await plan(entryOnly.planId);
    expect(entryGone.state).toBe('failed');
    expect(entryGone.reason).toMatch(/entry.*(gone|no longer at the broker)/);
    const stopGone = await plan(stop.planId);
    expect(stopGone).toMatchObject({ state: 'unprotected', retrying: false });
    expect(stopGone.reason).toMatch(/stop/);

    const ids = [bracket.planId, entryOnly.planId, stop.planId];
    for (const result of [first, await run(), await run()]) {
      expect(result.errors.filter((e) => e.code === 'ORDER_NOT_FOUND')).toEqual([]);
      for (const id of ids) expect(errorsOf(result, id)).toEqual([]);
    }
    expect((await plan(bracket.planId)).state).toBe('unprotected');
    expect((await plan(stop.planId)).state).toBe('unprotected');
    await stack.eventsForwarded();
    for (const id of [bracket.planId, stop.planId])
      expect(planEvents(id).filter((e) => e['detail-type'] === 'Plan Unprotected')).toHaveLength(1);
  });
});

describe('9: a trailing stop', () => {
  it('a lost modify reply is adopted on the next run, and the stop trails again with a new key', async () => {
    await ltp('TCS-EQ', 1500);
    const created = await create(SELL_STOP('TCS-EQ'));
    await run();
    await control.fault({ operation: 'ModifyGTTOrder', kind: 'drop', executed: true, times: 1 });
    await ltp('TCS-EQ', 1530);
    expect(errorsOf(await run(), created.planId)).toHaveLength(1);
    expect(await brokerTrigger(created.alIds.stop)).toBe(1430);

    const second = await run();
    expect(errorsOf(second, created.planId)).toEqual([]);
    const adopted = await plan(created.planId);
    expect(Number(adopted.trigger)).toBe(await brokerTrigger(created.alIds.stop));
    expect(adopted.history.map((h) => h.action)).toContain('stop-trail-adopted');
    await new Promise((resolve) => setTimeout(resolve, LATE_MS));
    await ltp('TCS-EQ', 1560);
    const third = await run();
    expect(third.errors.filter((e) => e.code === 'IDEMPOTENCY_KEY_REUSED')).toEqual([]);
    expect(errorsOf(third, created.planId)).toEqual([]);
    expect(third.acted).toContain(`${created.planId}:stop-trailed`);
    expect(await brokerTrigger(created.alIds.stop)).toBe(1460);
    expect(Number((await plan(created.planId)).trigger)).toBe(1460);
    // A modify that never reached the broker: once its try can no longer be in flight, the next try takes a new key.
    await control.fault({ operation: 'ModifyGTTOrder', kind: 'drop', executed: false, times: 1 });
    await ltp('TCS-EQ', 1590);
    expect(errorsOf(await run(), created.planId)).toHaveLength(1);
    expect(await brokerTrigger(created.alIds.stop)).toBe(1460);
    await new Promise((resolve) => setTimeout(resolve, LATE_MS));
    const later = createPlanEngine(stack.config, captureLogger().logger);
    (later as unknown as { deps: { now?: () => Date } }).deps.now = () => new Date(Date.now() + 120_000);
    const lapsed = await later.advance(Date.now() + 15_000);
    expect(lapsed.errors).toEqual([]);
    expect(await brokerTrigger(created.alIds.stop)).toBe(1490);
    const moved = await plan(created.planId);
    expect(Number(moved.trigger)).toBe(1490);
    expect(moved.history.map((h) => h.action)).toContain('try-lapsed');
  });

  it('a market stop (prctyp MKT, prc 0) trails: the broker trigger moves', async () => {
    await ltp('HDFCBANK-EQ', 1500);
    const created = await create(SELL_STOP('HDFCBANK-EQ', { prctyp: 'MKT', prc: '0' }));
    await run();
    await ltp('HDFCBANK-EQ', 1540);
    const result = await run();
    expect(errorsOf(result, created.planId)).toEqual([]);
    expect(result.acted).toContain(`${created.planId}:stop-trailed`);
    expect(await brokerTrigger(created.alIds.stop)).toBe(1440);
    expect(Number((await plan(created.planId)).trigger)).toBe(1440);
  });

  it('trailBy off the tick grid is refused at creation; trailed triggers are on the 0.05 grid', async () => {
    await ltp('ICICIBANK-EQ', 1500);
    const refused = await api(
      'POST',
      '/plans',
      { ...SELL_STOP('ICICIBANK-EQ'), trailBy: '0.03' },
      { 'Idempotency-Key': `faults-b-${process.pid}-grid-refused` },
    );
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.error?.message).toMatch(/trailBy/);
    expect(refused.body.error?.message).toMatch(/0\.00 or 0\.05|tick/);

    const created = await create(SELL_STOP('ICICIBANK-EQ'));
    await run();
    await ltp('ICICIBANK-EQ', 1503.37);
    const result = await run();
    expect(errorsOf(result, created.planId)).toEqual([]);
    expect((await plan(created.planId)).trigger).toBe('1403.35');
    expect(await brokerTrigger(created.alIds.stop)).toBe(1403.35);
  });

  it('a price that cannot be read is an error naming the plan each run, and a Plan Step after three', async () => {
    await ltp('ITC-EQ', 1500);
    const created = await create(SELL_STOP('ITC-EQ'));
    await run();
    await control.fault({ operation: 'GetQuotes', kind: 'http5xx', status: 503, times: 1_000 });
    for (let i = 0; i < 3; i++) expect(errorsOf(await run(), created.planId)).toHaveLength(1);
    await control.clearFaults();
    await stack.eventsForwarded();
    const steps = planEvents(created.planId).filter(
      (e) => e['detail-type'] === 'Plan Step' && e.detail.step === 'price-unavailable',
    );
    expect(steps).toHaveLength(1);
    // The price read again: the stop trails as before, and no second price-unavailable.
    await ltp('ITC-EQ', 1520);
    expect(errorsOf(await run(), created.planId)).toEqual([]);
    expect(await brokerTrigger(created.alIds.stop)).toBe(1420);
  });
});

describe('10: bounded items', () => {
  it('a stop trailed 25 times keeps at most 20 history entries and counts the dropped ones', async () => {
    await ltp('LT-EQ', 1500);
    const created = await create({ ...SELL_STOP('LT-EQ'), step: '5' });
    await run();
    for (let i = 1; i <= 25; i++) {
      await ltp('LT-EQ', 1500 + 5 * i);
      expect(errorsOf(await run(), created.planId)).toEqual([]);
    }
    const trailed = await plan(created.planId);
    expect(trailed.trails).toBe(25);
    expect(trailed.history.length).toBeLessThanOrEqual(20);
    expect(trailed.historyDropped).toBeGreaterThan(0);
    expect(Number(trailed.trigger)).toBe(1525);
    expect(await brokerTrigger(created.alIds.stop)).toBe(1525);
  });

  it('GET /plans pages one at a time through every plan once; an unknown query parameter is a 400', async () => {
    await create(BRACKET('AXISBANK-EQ'));
    await create(BRACKET('KOTAKBANK-EQ'));
    const all = (await api('GET', '/plans?limit=100')).body.plans as PlanView[];
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < all.length + 2; page++) {
      const res = await api('GET', `/plans?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const plans = res.body.plans as PlanView[];
      expect(plans.length).toBeLessThanOrEqual(1);
      if (page === 0) expect(plans).toHaveLength(1);
      seen.push(...plans.map((p) => p.planId));
      cursor = res.body.nextCursor as string | undefined;
      if (!cursor) break;
    }
    expect(cursor).toBeUndefined();
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual(all.map((p) => p.planId).sort());
    const bad = await api('GET', '/plans?state=armed');
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toMatch(/state/);
  });
});

describe('11: plan events through the outbox', () => {
  it('with EventBridge refusing for a while, every transition is published later, once, and kept in GET /events', async () => {
    await ltp('BHARTIARTL-EQ', 1500);
    // Each step's events: refused by EventBridge on two deliveries, published on the third.
    failingPuts = 2;
    const created = await create(BRACKET('BHARTIARTL-EQ'));
    await stack.eventsForwarded();
    failingPuts = 2;
    await ltp('BHARTIARTL-EQ', 1480);
    await run();
    await stack.eventsForwarded();
    failingPuts = 2;
    await ltp('BHARTIARTL-EQ', 1610);
    await run();
    expect((await plan(created.planId)).state).toBe('done');
    await stack.eventsForwarded();
    expect(failingPuts).toBe(0);
    const types = ['Plan Armed', 'Plan Step', 'Plan Done'];
    for (const type of types) expect(refused).toContain(`${type} ${created.planId}`);
    await run(); // nothing left to publish again
    await stack.eventsForwarded();
    expect(planEvents(created.planId).map((e) => e['detail-type'])).toEqual(types);

    const history = await api('GET', '/events?limit=1000');
    expect(history.status).toBe(200);
    const kept = (history.body.events as { detailType: string; detail: Json }[]).filter(
      (e) => e.detail.planId === created.planId,
    );
    expect(kept.map((e) => e.detailType)).toEqual(types);
    const armed = await api('GET', '/events?type=Plan%20Armed&limit=1000');
    const armedOfPlan = (armed.body.events as { detail: Json }[]).filter((e) => e.detail.planId === created.planId);
    expect(armedOfPlan).toHaveLength(1);
  });
});

describe('12: the same Idempotency-Key with another plan', () => {
  it('is refused with 422 IDEMPOTENCY_KEY_REUSED over HTTP and a non-zero exit code in the CLI', async () => {
    await ltp('TATASTEEL-EQ', 1500);
    const key = `faults-b-${process.pid}-reused`;
    const first = await api('POST', '/plans', BRACKET('TATASTEEL-EQ'), { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    made.push(String(first.body.planId));
    const other = { ...BRACKET('TATASTEEL-EQ'), target: { trigger: '1650', price: '1650' } };
    const reused = await api('POST', '/plans', other, { 'Idempotency-Key': key });
    expect(reused.status).toBe(422);
    expect(reused.body.error?.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const same = await api('POST', '/plans', BRACKET('TATASTEEL-EQ'), { 'Idempotency-Key': key });
    expect(same).toMatchObject({ status: 200, body: { planId: first.body.planId, idempotency: { replayed: true } } });

    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
    const cli = (body: unknown) =>
      main(['plan-create', '--body', JSON.stringify(body), '--key', `${key}-cli`, '--url', stack.api.url], {}, io);
    expect(await cli(BRACKET('TATASTEEL-EQ'))).toBe(0);
    const planId = /pl[0-9a-f]{16}/.exec(out.join('\n'))?.[0];
    expect(planId).toBeDefined();
    made.push(planId!);
    out.length = 0;
    expect(await cli(other)).not.toBe(0);
    expect(out.join('\n')).toMatch(/IDEMPOTENCY_KEY_REUSED|already created|another body/);
    expect(await cli(BRACKET('TATASTEEL-EQ'))).toBe(0);
  });
});
