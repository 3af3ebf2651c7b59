/**
 * A trailing stop whose price cannot be read (issue 58, items 4 and 5), end to end on loopback: the real Plans
 * function and watcher against the emulator. With no quote yet (`no data`) the Plan Step `price-unavailable` says
 * "price unavailable" and why, not the broker's error code, and so do the plan's record, `gtt plan` and
 * `gtt events`. A quote naming another instrument (the emulator's `otherInstrument` fault, as Shoonya answers now
 * and then) is never taken for the price: the stop stays where it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { main } from '../../client/cli.js';
import type { AdvanceResult } from '../../functions/plans/engine.js';
import { type LocalStack, startLocalStack } from '../../local/run-local.js';
import { type EmulatorControl, emulatorControl } from '../support/emulator-control.js';
import { localApi } from '../support/local-api.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import { SAMPLE_ORDER } from '../support/sample-order.js';

type Json = Record<string, unknown>;
interface PlanView {
  planId: string;
  alIds: { stop?: string };
  trigger?: string;
  history: { action: string; detail?: Json }[];
}

let stack: LocalStack;
let control: EmulatorControl;
let keys = 0;
const api = localApi<Json>(() => stack.api.url);
const run = async (): Promise<AdvanceResult> => {
  const result = (await stack.watch()) as Awaited<ReturnType<LocalStack['watch']>> & { plans?: AdvanceResult };
  expect(result.status).toMatch(/ok|baseline/);
  return result.plans ?? { acted: [], errors: [] };
};
const create = async (tsym: string): Promise<PlanView> => {
  const body = {
    kind: 'trailing-stop',
    order: { ...SAMPLE_ORDER, tsym, trantype: 'S', d: '1400', prc: '1395' },
    trailBy: '100',
  };
  const res = await api('POST', '/plans', body, { 'Idempotency-Key': `price-unavailable-${process.pid}-${++keys}` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as unknown as PlanView;
};
const plan = async (planId: string) => (await api('GET', `/plans/${planId}`)).body as unknown as PlanView;
const brokerTrigger = async (alId: string | undefined) =>
  ((await api('GET', '/gtt-orders?limit=1000')).body.orders as { al_id: string; trigger?: string }[]).find(
    (o) => o.al_id === alId,
  )?.trigger;
const priceSteps = (planId: string) =>
  stack.eventBridge.events.filter(
    (e) => e['detail-type'] === 'Plan Step' && e.detail.planId === planId && e.detail.step === 'price-unavailable',
  );
/** The plan armed, then three runs with GetQuotes answering as `fault` says: the third tells. */
const threeMisses = async (tsym: string, fault: Parameters<EmulatorControl['fault']>[0]) => {
  await control.ltp('NSE', tsym, 1500);
  const created = await create(tsym);
  await run();
  const armed = await plan(created.planId);
  expect(armed.alIds.stop).toBeDefined();
  await control.fault({ ...fault, times: 1_000 });
  for (let i = 0; i < 3; i++) expect((await run()).errors.filter((e) => e.planId === created.planId)).toHaveLength(1);
  await control.clearFaults();
  await stack.eventsForwarded();
  return armed;
};
const cli = async (...args: string[]) => {
  const out: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
  const code = await main([...args, '--url', stack.api.url], {}, io);
  return { code, out: out.join('\n') };
};

beforeAll(async () => {
  stack = await startLocalStack({ settings: HIGH_ORDER_RATE });
  control = emulatorControl(stack.emulator.url);
  await run();
});
afterAll(async () => {
  await stack?.close();
});

describe('a trailing stop whose price cannot be read', () => {
  it('with no quote yet: "price unavailable" in the event, the record, gtt plan and gtt events', async () => {
    const armed = await threeMisses('WIPRO-EQ', { operation: 'GetQuotes', kind: 'notOk', message: 'no data' });
    const steps = priceSteps(armed.planId);
    expect(steps).toHaveLength(1);
    const reason = String(steps[0]!.detail.reason);
    expect(reason).toBe(
      'price unavailable: the broker has no quote for NSE:WIPRO-EQ yet (GetQuotes answered no data); the stop stays at 1400',
    );
    const record = (await plan(armed.planId)).history.find((h) => h.action === 'price-unavailable');
    expect(record?.detail).toEqual({ reason });

    const shown = await cli('plan', armed.planId);
    expect(shown.code).toBe(0);
    expect(shown.out).toContain(`price-unavailable  ${reason}`);
    const events = await cli('events', '--type', 'Plan Step');
    expect(events.code).toBe(0);
    const line = events.out.split('\n').find((l) => l.includes(`plan=${armed.planId}`) && l.includes('reason:'));
    expect(line).toContain(`reason: ${reason}`);
    expect(events.out).not.toContain('BROKER_REJECTED');
  });

  it('a quote naming another instrument is never taken for the price: the stop stays, the step says why', async () => {
    const armed = await threeMisses('AXISBANK-EQ', { operation: 'GetQuotes', kind: 'otherInstrument' });
    const steps = priceSteps(armed.planId);
    expect(steps).toHaveLength(1);
    expect(steps[0]!.detail.reason).toBe(
      "price unavailable: the broker's quote for NSE:AXISBANK-EQ named another instrument, NSE:Nifty 50 (token 26000); it was not used (ask again); the stop stays at 1400",
    );
    // The index's 24584.85 taken for the price would have moved the sell stop to 24484.85.
    expect(Number(await brokerTrigger(armed.alIds.stop))).toBe(1400);
    expect((await plan(armed.planId)).trigger).toBe('1400');
  });
});
