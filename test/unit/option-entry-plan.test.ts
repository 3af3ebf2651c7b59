/**
 * The option plan's steps (functions/plans/option-create.ts, option-entry.ts) on the real engine with an in-memory
 * chain, store and broker (test/support/option-plan-deps.ts): what creation refuses, the dry run, the contract picked
 * at the price the index crossed at, the entry (a protected LIMIT IOC under one key), its fill and the exit, and the
 * faults (nothing filled, the kill switch, a lost reply).
 */
import { beforeEach, describe, expect, it } from 'vitest';

import { planExitOrder, planOwedExit } from '../../functions/base/schemas/exit-only.js';
import { type PlanInput, planInput } from '../../functions/base/schemas/plans.js';
import { PlanEngine } from '../../functions/plans/engine.js';
import { entryKeyOf } from '../../functions/plans/option-entry.js';
import { chainOf, memoryDeps } from '../support/option-plan-deps.js';

const STRIKES = [24300, 24350, 24400, 24450, 24500, 24550, 24600, 24650, 24700];
/** Monday 2026-12-07, 10:00 India time. */
let clock = Date.parse('2026-12-07T04:30:00Z');
let m: ReturnType<typeof memoryDeps>;
let engine: PlanEngine;
let keys = 0;

const INDEX = 'NSE:Nifty 50';
const body = (over: Record<string, unknown> = {}): PlanInput =>
  planInput.parse({
    kind: 'option-entry',
    underlying: 'NIFTY',
    when: { above: '24500' },
    pick: { expiry: 'nearest', strike: 'ATM', type: 'CE' },
    lots: 2,
    exit: { stop: '20', target: '50%' },
    ...over,
  });
const create = (input: PlanInput) => engine.create(input, `k${++keys}`, Date.now() + 5_000);
const run = () => engine.advance(Date.now() + 5_000);
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as { code: string; message: string; details?: { field: string; message: string }[] },
  );

beforeEach(() => {
  clock = Date.parse('2026-12-07T04:30:00Z');
  m = memoryDeps(
    [chainOf('2026-12-08', STRIKES), chainOf('2026-12-15', STRIKES), chainOf('2026-12-29', STRIKES)],
    () => new Date(clock),
  );
  engine = new PlanEngine(m.deps);
  m.prices.set(INDEX, 24410);
});

describe('creating an option plan', () => {
  it('stores it watching the index, nothing sent; the dry run names the contract it would pick now', async () => {
    m.prices.set('NFO:NIFTY08DEC26C24400', 120);
    const dry = await engine.dryRun(body(), Date.now() + 5_000);
    expect(dry).toMatchObject({
      dryRun: true,
      underlying: { name: 'NIFTY', price: 24410 },
      contract: {
        tsym: 'NIFTY08DEC26C24400',
        expiry: '2026-12-08',
        strike: 24400,
        atm: 24400,
        strikeStep: 50,
        lot: 65,
      },
      qty: 130,
      // 2 % above 120 (the brokers' band for an option of 100 to 500), on the tick.
      entry: { prctyp: 'LMT', ret: 'IOC', qty: 130, prc: '122.40' },
    });
    expect(m.plans.size).toBe(0);

    const { plan } = await create(body());
    expect(plan).toMatchObject({
      kind: 'option-entry',
      state: 'watching',
      exch: 'NSE',
      tsym: 'Nifty 50',
      option: { underlying: { name: 'NIFTY', token: '26000' }, when: { above: '24500' }, lots: 2, trantype: 'B' },
    });
    expect(plan.option?.resolved).toBeUndefined();
    expect(m.sent).toEqual([]);
  });

  it('refuses a strike the chain does not list, naming the nearest listed; nothing stored', async () => {
    const refused = await failure(create(body({ pick: { expiry: 'nearest', strike: 24525, type: 'CE' } })));
    expect(refused).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'pick.strike' }] });
    expect(refused!.message).toMatch(/nearest listed are 24500 and 24550/);
    const expiry = await failure(create(body({ pick: { expiry: '2026-12-22', strike: 'ATM', type: 'CE' } })));
    expect(expiry!.message).toMatch(/no expiry 2026-12-22 is listed \(listed: 2026-12-08, 2026-12-15, 2026-12-29\)/);
    expect(m.plans.size).toBe(0);
  });

  it('refuses a level the index has already crossed, saying the price and that a plain order buys now', async () => {
    const refused = await failure(create(body({ when: { above: '24400' } })));
    expect(refused).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'when.above' }] });
    expect(refused!.message).toMatch(/is at 24410, already at or above 24400.*order the contract in the broker's app/);
    expect(m.plans.size).toBe(0);
  });

  it('refuses lots above the freeze quantity (not sliced), with the most lots allowed', async () => {
    m.broker.freeze = 1800;
    const refused = await failure(create(body({ lots: 28 })));
    expect(refused).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'lots' }] });
    expect(refused!.message).toMatch(/1820 units, above its freeze quantity of 1800.*at most 27 lots/);
    expect(m.plans.size).toBe(0);
  });

  it('a chain or quote that cannot be read is a retryable error, nothing stored', async () => {
    m.broker.chainFails = true;
    expect(await failure(create(body()))).toMatchObject({ code: 'INTERNAL_ERROR' });
    m.broker.chainFails = false;
    m.prices.delete(INDEX);
    expect(await failure(create(body()))).toBeDefined();
    expect(m.plans.size).toBe(0);
  });
});

describe('an option plan in the watcher', () => {
  it('waits below the level; crossing, picks at THAT price, enters IOC, and arms the OCO exit from the fill', async () => {
    const { plan } = await create(body());
    m.prices.set(INDEX, 24499.95);
    expect((await run()).acted).toEqual([]);
    // The index jumps past the level: the ATM is the strike nearest the price seen now, not at creation.
    m.prices.set(INDEX, 24560);
    m.prices.set('NFO:NIFTY08DEC26C24550', 100);
    m.broker.average = '101.5';
    expect((await run()).acted).toEqual([`${plan.planId}:exit-armed`]);
    const stored = m.plans.get(plan.planId)!.plan;
    expect(stored).toMatchObject({
      state: 'exit-armed',
      exch: 'NFO',
      tsym: 'NIFTY08DEC26C24550',
      position: { side: 'B', qty: 130 },
      option: {
        resolved: { price: 24560, strike: 24550, atm: 24550, expiry: '2026-12-08', lot: 65, qty: 130 },
        entryOrder: expect.any(String),
      },
      // Target 50 % above the fill (152.25), stop 20 points below (81.5), its limit 3 % below (the band under 100).
      target: { trigger: '152.25', price: '152.25' },
      stopLoss: { trigger: '81.50', price: '79.10' },
    });
    expect(m.sent).toEqual([
      expect.objectContaining({
        tsym: 'NIFTY08DEC26C24550',
        trantype: 'B',
        qty: 130,
        prctyp: 'LMT',
        ret: 'IOC',
        prc: '103.00', // 3 % above 100 (the brokers' band for an option up to 100)
        prd: 'M',
        idempotencyKey: entryKeyOf(plan.planId),
      }),
    ]);
    expect(m.ocos).toEqual([
      expect.objectContaining({
        tsym: 'NIFTY08DEC26C24550',
        target: { trigger: '152.25', order: expect.objectContaining({ trantype: 'S', qty: 130, prc: '152.25' }) },
        stopLoss: { trigger: '81.50', order: expect.objectContaining({ trantype: 'S', qty: 130, prc: '79.10' }) },
      }),
    ]);
    const steps = m.events.filter((e) => e.detailType === 'Plan Step').map((e) => e.detail as Record<string, unknown>);
    expect(steps[0]).toMatchObject({
      step: 'crossed',
      kind: 'option-entry',
      underlyingPrice: 24560,
      strike: 24550,
      contract: 'NIFTY08DEC26C24550',
    });
    expect(steps.map((s) => s.step)).toEqual(['crossed', 'entry-placed', 'entry-filled', 'exit-armed']);
    // Its exit counts as a bracket's does for the coverage and the exit-only rule; the plan itself opens.
    expect(planOwedExit(stored)).toMatchObject({ tsym: 'NIFTY08DEC26C24550', trantype: 'S', qty: 130, prd: 'M' });
    expect(planExitOrder({ kind: 'option-entry' })).toMatchObject({ refused: expect.stringMatching(/^EXIT_ONLY/) });
  });

  it('a below plan of puts, partly filled: the position and the exit are of what filled', async () => {
    const { plan } = await create(
      body({ when: { below: '24300' }, pick: { expiry: 'nearest', strike: 'ATM-1', type: 'PE' } }),
    );
    m.prices.set(INDEX, 24280);
    m.prices.set('NFO:NIFTY08DEC26P24250', 80);
    m.broker.fill = 'part';
    await run();
    // 24250 is not listed: ATM is 24300 (the lowest listed, nearest 24280), ATM-1 is past the strikes: failed.
    expect(m.plans.get(plan.planId)!.plan).toMatchObject({
      state: 'failed',
      reason: expect.stringMatching(/ATM-1 is past the listed PE strikes/),
    });
    expect(m.sent).toEqual([]);

    const second = await create(
      body({ when: { below: '24260' }, pick: { expiry: 'nearest', strike: 'ATM+1', type: 'PE' } }),
    );
    m.prices.set(INDEX, 24255);
    m.prices.set('NFO:NIFTY08DEC26P24350', 90);
    await run();
    expect(m.plans.get(second.plan.planId)!.plan).toMatchObject({
      state: 'exit-armed',
      position: { side: 'B', qty: 65 },
      option: { resolved: { strike: 24350, atm: 24300 } },
    });
    expect(m.ocos[0]).toMatchObject({ target: { order: { qty: 65 } } });
  });

  it('nothing filled (the IOC cancelled) fails the plan; no exit', async () => {
    const { plan } = await create(body());
    m.prices.set(INDEX, 24500);
    m.prices.set('NFO:NIFTY08DEC26C24500', 100);
    m.broker.fill = 'none';
    await run();
    expect(m.plans.get(plan.planId)!.plan).toMatchObject({
      state: 'failed',
      reason: expect.stringMatching(/IOC.*cancelled: nothing filled/),
    });
    expect(m.ocos).toEqual([]);
  });

  it('the kill switch on when it crosses fails the plan with TRADING_HALTED, nothing placed', async () => {
    const { plan } = await create(body());
    m.prices.set(INDEX, 24500);
    m.prices.set('NFO:NIFTY08DEC26C24500', 100);
    m.broker.halted = true;
    await run();
    expect(m.plans.get(plan.planId)!.plan).toMatchObject({
      state: 'failed',
      reason: expect.stringMatching(/kill switch.*TRADING_HALTED/),
    });
    expect(m.sent).toEqual([]);
  });

  it("a lost reply of the entry: the next run sends the same key, the journal's order is taken, never a second", async () => {
    const { plan } = await create(body());
    m.prices.set(INDEX, 24500);
    m.prices.set('NFO:NIFTY08DEC26C24500', 100);
    m.broker.loseReply = true;
    const first = await run();
    expect(first.errors).toEqual([{ planId: plan.planId, code: 'BROKER_TIMEOUT' }]);
    expect(m.plans.get(plan.planId)!.plan).toMatchObject({
      state: 'entry-placed',
      option: { resolved: { strike: 24500 } },
    });
    // The index moves on: the contract stays the one chosen at the crossing.
    m.prices.set(INDEX, 24700);
    await run();
    expect(m.sent).toHaveLength(1);
    expect(m.plans.get(plan.planId)!.plan).toMatchObject({
      state: 'exit-armed',
      tsym: 'NIFTY08DEC26C24500',
      option: { entryOrder: m.book[0]!.norenordno },
    });
    expect(m.plans.get(plan.planId)!.plan.history.map((h) => h.action)).toContain('entry-adopted');
  });

  it('on an expiry day within the cutoff, nearest is the next expiry, chosen when it crosses', async () => {
    const { plan } = await create(body());
    clock = Date.parse('2026-12-08T09:45:00Z'); // 15:15 India time on the 8th: within the last 30 minutes
    m.prices.set(INDEX, 24510);
    m.prices.set('NFO:NIFTY15DEC26C24500', 150);
    await run();
    expect(m.plans.get(plan.planId)!.plan).toMatchObject({
      tsym: 'NIFTY15DEC26C24500',
      option: { resolved: { expiry: '2026-12-15' } },
    });
  });

  it('DELETE of a watching plan ends it with nothing at the broker; of an entered one, says what is left', async () => {
    const { plan } = await create(body());
    const ended = await engine.cancel(plan.planId, Date.now() + 5_000);
    expect(ended).toMatchObject({ state: 'cancelled', left: { cancelled: [] } });
    expect(ended.left?.position).toBeUndefined();

    const second = await create(body());
    m.prices.set(INDEX, 24500);
    m.prices.set('NFO:NIFTY08DEC26C24500', 100);
    m.broker.loseReply = true;
    await run(); // entry-placed, its number unknown to the plan
    const left = await engine.cancel(second.plan.planId, Date.now() + 5_000);
    expect(left).toMatchObject({ state: 'cancelled', left: { position: { side: 'B', qty: 130 } } });
    expect(left.left?.note).toMatch(/filled 130: long 130 NFO:NIFTY08DEC26C24500 is open without an exit/);
  });
});
