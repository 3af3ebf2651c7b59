/**
 * An option plan's `maxValue` (functions/base/schemas/option-plan.ts, functions/plans/option-entry.ts): taken in the
 * body and kept in the plan's record, refused with the way to write it, shown by the dry run beside the entry's value
 * now, and held at the crossing: an entry worth more (its quantity × the protected limit it would be sent at) is not
 * sent and the plan fails naming both numbers, with Plan Failed. On the real engine with the in-memory parts of
 * test/support/option-plan-deps.ts; over HTTP with the emulator: test/integration/plans-option-cap.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { type PlanInput, planInput } from '../../functions/base/schemas/plans.js';
import { PlanEngine } from '../../functions/plans/engine.js';
import { overCap } from '../../functions/plans/option-contract.js';
import { chainOf, memoryDeps } from '../support/option-plan-deps.js';

const STRIKES = [24400, 24450, 24500, 24550, 24600];
const INDEX = 'NSE:Nifty 50';
const BODY = {
  kind: 'option-entry',
  underlying: 'NIFTY',
  when: { above: '24500' },
  pick: { expiry: 'nearest', strike: 'ATM', type: 'CE' },
  lots: 2,
  exit: { stop: '20', target: '50%' },
};
const body = (over: Record<string, unknown> = {}): PlanInput => planInput.parse({ ...BODY, ...over });

let m: ReturnType<typeof memoryDeps>;
let engine: PlanEngine;
let keys = 0;
const create = (input: PlanInput) => engine.create(input, `cap${++keys}`, Date.now() + 5_000);
const run = () => engine.advance(Date.now() + 5_000);

beforeEach(() => {
  m = memoryDeps([chainOf('2026-12-08', STRIKES)], () => new Date('2026-12-07T04:30:00Z'));
  engine = new PlanEngine(m.deps);
  m.prices.set(INDEX, 24410);
});

describe('maxValue in the body', () => {
  it('is taken and kept in the plan record', async () => {
    expect(body({ maxValue: 15000 })).toMatchObject({ maxValue: 15000 });
    const { plan } = await create(body({ maxValue: 15000.5 }));
    expect(plan.option).toMatchObject({ maxValue: 15000.5 });
    expect((await create(body())).plan.option).not.toHaveProperty('maxValue');
  });

  it.each([0, -5, '15000', 1e13, Number.NaN])('refuses %s with the way to write it, nothing stored', (maxValue) => {
    const parsed = planInput.safeParse({ ...BODY, maxValue });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]).toMatchObject({
      path: ['maxValue'],
      message: expect.stringMatching(/^maxValue must be a number of rupees greater than 0 .* e\.g\. 50000; omit it/),
    });
    expect(m.plans.size).toBe(0);
  });
});

describe('the decision at the crossing', () => {
  it('is over only above the cap, naming both numbers; no cap, never', () => {
    expect(overCap({ qty: 130, prc: '103.00' }, 13390)).toBeUndefined();
    expect(overCap({ qty: 130, prc: '103.05' }, 13390)).toBe(
      "the entry's value ₹13,396.5 (130 × 103.05) is above the plan's maxValue ₹13,390",
    );
    expect(overCap({ qty: 130, prc: '9999' }, undefined)).toBeUndefined();
  });
});

describe('an option plan with maxValue', () => {
  it("the dry run shows the entry's value now beside the cap, and says when it is above", async () => {
    m.prices.set('NFO:NIFTY08DEC26C24400', 120);
    const dry = await engine.dryRun(body({ maxValue: 10000 }), Date.now() + 5_000);
    // 130 × 122.40 (2 % above 120, on the tick).
    expect(dry).toMatchObject({ entry: { qty: 130, prc: '122.40' }, value: 15912, maxValue: 10000 });
    expect(dry.note).toMatch(/Now the entry's value ₹15,912 \(130 × 122.40\) is above the plan's maxValue ₹10,000/);
    const within = await engine.dryRun(body({ maxValue: 20000 }), Date.now() + 5_000);
    expect(within).toMatchObject({ value: 15912, maxValue: 20000 });
    expect(within.note).not.toMatch(/above the plan's maxValue/);
  });

  it('an entry worth more than the cap when it crosses: nothing sent, the plan fails naming both, Plan Failed', async () => {
    const { plan } = await create(body({ maxValue: 13000 }));
    m.prices.set(INDEX, 24500);
    m.prices.set('NFO:NIFTY08DEC26C24500', 100); // the limit 103.00 (3 % above): 130 × 103 = 13,390
    await run();
    const reason =
      "NIFTY was at 24500, at or above 24500, but the entry's value ₹13,390 (130 × 103.00) is above the plan's maxValue ₹13,000 (NIFTY08DEC26C24500): nothing was sent";
    expect(m.plans.get(plan.planId)!.plan).toMatchObject({ state: 'failed', reason });
    expect(m.sent).toEqual([]);
    expect(m.events.filter((e) => e.detailType === 'Plan Failed').map((e) => e.detail)).toEqual([
      expect.objectContaining({ planId: plan.planId, reason }),
    ]);
    expect(m.plans.get(plan.planId)!.plan.history.map((h) => h.action)).toContain('entry-above-cap');
    // Later runs send nothing either.
    await run();
    expect(m.sent).toEqual([]);
  });

  it('an entry within the cap is sent as any other', async () => {
    const { plan } = await create(body({ maxValue: 13390 }));
    m.prices.set(INDEX, 24500);
    m.prices.set('NFO:NIFTY08DEC26C24500', 100);
    await run();
    expect(m.sent).toEqual([expect.objectContaining({ tsym: 'NIFTY08DEC26C24500', qty: 130, prc: '103.00' })]);
    expect(m.plans.get(plan.planId)!.plan.state).toBe('exit-armed');
  });
});
