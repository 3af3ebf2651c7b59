/**
 * Plans end to end on loopback (functions/plans/, docs/reference/plans.md): the real Plans function and watcher against the
 * emulator, its order book filling (or refusing) what fired GTTs place, and dynalite. Each action goes through the
 * operation table's own entries, so the emulator's request log and pending list are the proof.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import { createGttClient } from '../../client/index.js';
import { createPlanEngine } from '../../functions/plans/engine-wiring.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { emulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { captureLogger } from '../support/logs.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

let stack: LocalStack;
let keys = 0;

const api = localApi<Record<string, unknown> & { error?: { code: string; message: string } }>(() => stack.api.url);
const ltp = (tsym: string, value: number) =>
  fetch(`${stack.emulator.url}/_emulator/ltp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ exch: 'NSE', tsym, ltp: value }),
  });
const nextOrder = (outcome: Record<string, unknown>) =>
  fetch(`${stack.emulator.url}/_emulator/next-order`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(outcome),
  });
const create = async (plan: unknown) => {
  const res = await api('POST', '/plans', plan, { 'Idempotency-Key': `plan-test-${++keys}` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { planId: string; alIds: Record<string, string>; state: string };
};
const plan = async (planId: string) =>
  (await api('GET', `/plans/${planId}`)).body as Record<string, unknown> & {
    state: string;
    alIds: Record<string, string>;
    trigger?: string;
    price?: string;
    reason?: string;
  };
const pending = async () =>
  (await api('GET', '/gtt-orders?limit=1000')).body.orders as {
    al_id: string;
    type: string;
    trigger?: string;
    price?: string;
    target?: { trigger: string; order: { trantype: string; qty: string | number } };
  }[];
const planEvents = (planId: string) =>
  stack.eventBridge.events.filter((e) => e.detail.planId === planId).map((e) => e['detail-type']);

const BRACKET = (tsym: string) => ({
  kind: 'bracket',
  entry: { ...SAMPLE_ORDER, tsym, qty: 2 },
  target: { trigger: '1600', price: '1600' },
  stopLoss: { trigger: '1400', price: '1400' },
  tag: 'swing',
});

beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE });
});
afterAll(() => stack.close());
beforeEach(async () => {
  expect(await stack.watch()).toMatchObject({ status: expect.stringMatching(/ok|baseline/) });
});

describe('a bracket plan', () => {
  it('entry, fill, OCO exit of the filled quantity on the opposite side, then done when the exit fires', async () => {
    const created = await create(BRACKET('M&M-EQ'));
    expect(created).toMatchObject({ state: 'armed', alIds: { entry: expect.any(String) } });
    expect((await pending()).map((o) => o.al_id)).toContain(created.alIds.entry);
    // The same key again answers the same plan, placing nothing.
    const again = await api('POST', '/plans', BRACKET('M&M-EQ'), { 'Idempotency-Key': `plan-test-${keys}` });
    expect(again).toMatchObject({ status: 200, body: { planId: created.planId, idempotency: { replayed: true } } });
    // Prices spelt otherwise are the same plan, as for orders (1500.00 is 1500).
    const respelt = { ...BRACKET('M&M-EQ'), target: { trigger: '1600.00', price: '1600.0' } };
    const same = await api('POST', '/plans', respelt, { 'Idempotency-Key': `plan-test-${keys}` });
    expect(same).toMatchObject({ status: 200, body: { planId: created.planId, idempotency: { replayed: true } } });

    await ltp('M&M-EQ', 1480);
    const run = await stack.watch();
    expect(run).toMatchObject({ plans: { acted: [`${created.planId}:exit-armed`] } });
    const armed = await plan(created.planId);
    expect(armed.state).toBe('exit-armed');
    const exit = (await pending()).find((o) => o.al_id === armed.alIds.exit);
    expect(exit).toMatchObject({ type: 'oco', target: { trigger: '1600', order: { trantype: 'S' } } });
    expect(Number(exit!.target!.order.qty)).toBe(2);

    await ltp('M&M-EQ', 1610);
    await stack.watch();
    expect((await plan(created.planId)).state).toBe('done');
    await stack.eventsForwarded();
    expect(planEvents(created.planId)).toEqual(['Plan Armed', 'Plan Step', 'Plan Done']);
  });

  it('an entry order the broker rejects ends the plan as failed, with the reason and its code', async () => {
    const created = await create(BRACKET('SBIN-EQ'));
    await nextOrder({ status: 'rejected', reason: 'RMS:Margin Exceeds' });
    await ltp('SBIN-EQ', 1000);
    await stack.watch();
    const failed = await plan(created.planId);
    expect(failed.state).toBe('failed');
    expect(failed.reason).toMatch(/rejected: INSUFFICIENT_FUNDS/);
    expect(planEvents(created.planId)).toEqual(['Plan Armed', 'Plan Failed']);
  });

  it('overlapping runs place one exit', async () => {
    const created = await create(BRACKET('INFY-EQ'));
    await ltp('INFY-EQ', 1000);
    const { logger } = captureLogger();
    const a = createPlanEngine(stack.config, logger);
    const b = createPlanEngine(stack.config, logger);
    const deadline = Date.now() + 15_000;
    await Promise.all([a.advance(deadline), b.advance(deadline), a.advance(deadline)]);
    const after = await plan(created.planId);
    expect(after.state).toBe('exit-armed');
    const exits = (await pending()).filter((o) => o.type === 'oco' && o.al_id === after.alIds.exit);
    expect(exits).toHaveLength(1);
    // One OCO place reached the broker; the other tries were answered by the plan's state or the exit's key.
    const placedOcos = (await emulatorControl(stack.emulator.url).requests()).filter(
      (r) =>
        r.operation === 'PlaceOCOOrder' &&
        JSON.stringify(r).includes('INFY-EQ') &&
        (r.reply as { stat?: string } | null)?.stat === 'OI created',
    );
    expect(placedOcos).toHaveLength(1);
    expect(planEvents(created.planId).filter((t) => t === 'Plan Step')).toHaveLength(1);
  });

  it('DELETE cancels the live entry and ends the plan; bad input is a 400 naming the field; an unknown plan 404', async () => {
    const created = await create(BRACKET('TCS-EQ'));
    const cancelled = await api('DELETE', `/plans/${created.planId}`);
    expect(cancelled.body).toMatchObject({ state: 'cancelled' });
    expect((await pending()).map((o) => o.al_id)).not.toContain(created.alIds.entry);
    const bad = await api(
      'POST',
      '/plans',
      { ...BRACKET('TCS-EQ'), target: { trigger: 'x' } },
      { 'Idempotency-Key': 'bad' },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toContain('target');
    const noKey = await api('POST', '/plans', BRACKET('TCS-EQ'));
    expect(noKey.body.error?.message).toContain('Idempotency-Key');
    expect((await api('GET', '/plans/pl0123456789abcdef')).status).toBe(404);
    expect((await api('GET', '/plans')).body.plans).toEqual(
      expect.arrayContaining([expect.objectContaining({ planId: created.planId })]),
    );
  });
});

describe('a trailing stop', () => {
  it('a sell stop follows the price up by trailBy, in steps, and never down', async () => {
    await ltp('WIPRO-EQ', 1500);
    const created = await create({
      kind: 'trailing-stop',
      order: { ...SAMPLE_ORDER, tsym: 'WIPRO-EQ', trantype: 'S', d: '1400', prc: '1395' },
      trailBy: '100',
      step: '5',
    });
    await stack.watch();
    expect((await plan(created.planId)).trigger).toBe('1400');
    await ltp('WIPRO-EQ', 1530);
    await stack.watch();
    expect(await plan(created.planId)).toMatchObject({ trigger: '1430.00', price: '1425.00' });
    expect(Number((await pending()).find((o) => o.al_id === created.alIds.stop)?.trigger)).toBe(1430);
    await ltp('WIPRO-EQ', 1510);
    await stack.watch();
    await ltp('WIPRO-EQ', 1533);
    await stack.watch();
    // Down, then up by less than the step: it stays.
    expect((await plan(created.planId)).trigger).toBe('1430.00');
    await stack.eventsForwarded();
    expect(planEvents(created.planId)).toEqual(['Plan Armed', 'Plan Step']);
  });

  it('a buy stop follows the price down, and never up', async () => {
    await ltp('HDFCBANK-EQ', 1500);
    const created = await create({
      kind: 'trailing-stop',
      order: { ...SAMPLE_ORDER, tsym: 'HDFCBANK-EQ', trantype: 'B', ai_t: 'LTP_A_O', d: '1600', prc: '1605' },
      trailBy: '100',
    });
    await ltp('HDFCBANK-EQ', 1450);
    await stack.watch();
    expect(await plan(created.planId)).toMatchObject({ trigger: '1550.00', price: '1555.00' });
    await ltp('HDFCBANK-EQ', 1490);
    await stack.watch();
    expect((await plan(created.planId)).trigger).toBe('1550.00');
  });
});

describe('the client and the command line', () => {
  it('createPlan (a key made up and kept), getPlan, cancelPlan; gtt plan-create, plans, plan, plan-cancel', async () => {
    const client = createGttClient({ baseUrl: stack.api.url });
    const made = await client.createPlan(BRACKET('RELIANCE-EQ') as never);
    expect(made).toMatchObject({ kind: 'bracket', state: 'armed', idempotency: { replayed: false } });
    expect((await client.getPlan(made.planId)).planId).toBe(made.planId);
    expect((await client.plans()).plans.map((p) => p.planId)).toContain(made.planId);
    expect(await client.cancelPlan(made.planId)).toMatchObject({ state: 'cancelled' });

    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
    const gtt = (...args: string[]) => main([...args, '--url', stack.api.url], {}, io);
    expect(await gtt('plan-create', '--body', JSON.stringify(BRACKET('ICICIBANK-EQ')), '--key', 'cli-plan')).toBe(0);
    const line = out.pop()!;
    expect(line).toMatch(/^created pl[0-9a-f]{16} {2}bracket {2}armed {2}NSE:ICICIBANK-EQ {2}entry=\d+/);
    const planId = /pl[0-9a-f]{16}/.exec(line)![0];
    expect(await gtt('plan-create', '--body', JSON.stringify(BRACKET('ICICIBANK-EQ')), '--key', 'cli-plan')).toBe(0);
    expect(out.pop()).toMatch(new RegExp(`^plan already created ${planId}`));
    expect(await gtt('plan', planId)).toBe(0);
    const shown = out.pop()!;
    expect(shown).toMatch(/entry-placed/);
    // Its history, each step at its India time.
    expect(shown).toMatch(/^ {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+05:30 {2}\S/m);
    expect(await gtt('plan-cancel', planId)).toBe(0);
    expect(out.pop()).toMatch(new RegExp(`^cancelled ${planId} {2}bracket {2}cancelled`));
    expect(await gtt('plan-create', '--body', 'not json')).toBe(2);
  });
});
