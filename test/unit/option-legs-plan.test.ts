/**
 * Legs-as-one plans (functions/plans/legs*.ts) on the real engine with an in-memory store and broker
 * (test/support/legs-deps.ts): what creation refuses, the dry run, the entries (bought legs first, one key per leg),
 * the net premium's stop and target, the close of every leg, and the faults: a leg not filled or refused, the kill
 * switch, lost replies, a close that does not fill. After every failure no leg is left open alone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { DETAIL_SCHEMAS } from '../../functions/base/schemas/events.js';
import type { Plan } from '../../functions/base/schemas/plans.js';
import { type PlanInput, planInput } from '../../functions/base/schemas/plans.js';
import { PlanEngine } from '../../functions/plans/engine.js';
import { legEntryKeyOf } from '../../functions/plans/legs.js';
import { legCloseKeyOf } from '../../functions/plans/legs-close.js';
import { crossedExit, legLimit, netOf, pointsOf, weightsOf } from '../../functions/plans/legs-rules.js';
import { legsDeps } from '../support/legs-deps.js';

const CE = 'NIFTY08DEC26C24400';
const PE = 'NIFTY08DEC26P24400';
const CE2 = 'NIFTY08DEC26C24500';
let clock = Date.parse('2026-12-07T04:30:00Z');
let m: ReturnType<typeof legsDeps>;
let engine: PlanEngine;
let keys = 0;

const straddle = (trantype: 'B' | 'S', over: Record<string, unknown> = {}): PlanInput =>
  planInput.parse({
    kind: 'option-legs',
    legs: [
      { exch: 'NFO', tsym: CE, trantype, lots: 2 },
      { exch: 'NFO', tsym: PE, trantype, lots: 2 },
    ],
    exit: { stop: '20', target: '30' },
    ...over,
  });
const create = (input: PlanInput) => engine.create(input, `k${++keys}`, Date.now() + 5_000);
const run = () => engine.advance(Date.now() + 5_000);
const stored = (id: string): Plan => m.plans.get(id)!.plan;
const price = (tsym: string, p: number) => m.prices.set(`NFO:${tsym}`, p);
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as { code: string; message: string; details?: { field: string; message: string }[] },
  );
/** Units held per contract from every filled order the broker booked (bought +, sold −). */
const held = (): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const o of m.book) {
    const sent = m.sent.find((s) => String(s.tsym) === o.tsym && Number(s.qty) === o.qty && String(s.prc) === o.prc);
    out[o.tsym] = (out[o.tsym] ?? 0) + (sent?.trantype === 'B' ? 1 : -1) * o.filledQty;
  }
  return out;
};
const flat = () => expect(Object.values(held()).every((q) => q === 0)).toBe(true);

beforeEach(() => {
  clock = Date.parse('2026-12-07T04:30:00Z');
  m = legsDeps(() => new Date(clock));
  engine = new PlanEngine(m.deps);
  price(CE, 120);
  price(PE, 110);
  price(CE2, 80);
});

afterEach(() => {
  // Every event a legs plan told is one the events' schemas accept (docs/events/).
  for (const e of m.events) expect(DETAIL_SCHEMAS[e.detailType].safeParse(e.detail).error).toBeUndefined();
});

describe('the net premium', () => {
  it('weighs each leg by its lots over the smallest, + bought and − sold; the move is the P&L', () => {
    expect(weightsOf([2, 4, 2])).toEqual([1, 2, 1]);
    const short = [
      { trantype: 'S' as const, weight: 1 },
      { trantype: 'S' as const, weight: 1 },
    ];
    expect(netOf(short, [120, 110])).toBe(-230);
    // Both premiums rise: the short straddle loses.
    expect(netOf(short, [135, 118]) - netOf(short, [120, 110])).toBe(-23);
    expect(crossedExit(-23, 20, 30)).toBe('stop');
    expect(crossedExit(31, 20, 30)).toBe('target');
    expect(crossedExit(-19.95, 20, 30)).toBeUndefined();
    expect(
      netOf(
        [
          { trantype: 'B', weight: 1 },
          { trantype: 'S', weight: 2 },
        ],
        [120, 80],
      ),
    ).toBe(-40);
    expect(pointsOf('25%', -230)).toBe(57.5);
    expect(pointsOf('0.01', 10)).toBe(0.05);
  });
});

describe('creating a legs plan', () => {
  it('refuses before anything is stored or sent: one leg, the same contract twice, no option, above the freeze', async () => {
    expect(
      planInput.safeParse({ ...straddle('S'), legs: [{ exch: 'NFO', tsym: CE, trantype: 'S', lots: 1 }] }).success,
    ).toBe(false);
    const twice = planInput.safeParse({
      kind: 'option-legs',
      legs: [
        { exch: 'NFO', tsym: CE, trantype: 'S', lots: 1 },
        { exch: 'NFO', tsym: CE, trantype: 'B', lots: 1 },
      ],
      exit: { stop: '20', target: '30' },
    });
    expect(twice.error?.issues[0]?.message).toMatch(/named twice/);
    const future = await failure(
      create(
        planInput.parse({
          kind: 'option-legs',
          legs: [
            { exch: 'NFO', tsym: 'NIFTY29DEC26F', trantype: 'B', lots: 1 },
            { exch: 'NFO', tsym: PE, trantype: 'S', lots: 1 },
          ],
          exit: { stop: '20', target: '30' },
        }),
      ),
    );
    expect(future).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'legs.0.tsym' }] });
    m.broker.freeze = 1755;
    const big = await failure(
      create(
        straddle('S', {
          legs: [
            { exch: 'NFO', tsym: CE, trantype: 'S', lots: 28 },
            { exch: 'NFO', tsym: PE, trantype: 'S', lots: 2 },
          ],
        }),
      ),
    );
    expect(big?.message).toMatch(
      /28 lots of NIFTY08DEC26C24400 are 1820 units, above its freeze quantity of 1755.*at most 27 lots/,
    );
    expect(m.plans.size).toBe(0);
    expect(m.sent).toHaveLength(0);
  });

  it("dry run: each leg's protected IOC order, bought legs first, and the net premium now; nothing sent", async () => {
    const dry = await engine.dryRun(
      planInput.parse({
        kind: 'option-legs',
        legs: [
          { exch: 'NFO', tsym: CE2, trantype: 'S', lots: 2 },
          { exch: 'NFO', tsym: CE, trantype: 'B', lots: 1 },
        ],
        exit: { stop: '20', target: '30' },
      }),
      Date.now() + 5_000,
    );
    expect(dry).toMatchObject({
      dryRun: true,
      net: -40,
      legs: [
        // 2 % above 120 (options of 100 to 500), 3 % below 80 (10 to 100), on the tick.
        { tsym: CE, trantype: 'B', qty: 65, prctyp: 'LMT', ret: 'IOC', prc: '122.40', weight: 1, lastPrice: 120 },
        { tsym: CE2, trantype: 'S', qty: 130, prc: '77.60', weight: 2, lastPrice: 80 },
      ],
    });
    expect(m.plans.size).toBe(0);
    expect(m.sent).toHaveLength(0);
  });
});

describe('entered together, closed together', () => {
  it('a short straddle: both legs filled, watched; both premiums rise past the stop: both bought back, done', async () => {
    const { plan } = await create(straddle('S'));
    expect(plan).toMatchObject({
      kind: 'option-legs',
      state: 'entry-filled',
      legs: { entryNet: -230, stopPoints: 20 },
    });
    expect(m.sent.map((s) => [s.tsym, s.trantype, s.ret, s.idempotencyKey])).toEqual([
      [CE, 'S', 'IOC', legEntryKeyOf(plan.planId, 0)],
      [PE, 'S', 'IOC', legEntryKeyOf(plan.planId, 1)],
    ]);
    price(CE, 128);
    price(PE, 121); // net -249: -19
    expect((await run()).acted).toEqual([]);
    price(PE, 123); // net -251: -21, past the stop
    expect((await run()).acted).toEqual([`${plan.planId}:done`]);
    const closes = m.sent.slice(2);
    expect(closes.map((s) => [s.tsym, s.trantype, s.qty, s.exit, s.idempotencyKey])).toEqual([
      [CE, 'B', 130, true, legCloseKeyOf(plan.planId, 0, 1)],
      [PE, 'B', 130, true, legCloseKeyOf(plan.planId, 1, 1)],
    ]);
    const done = stored(plan.planId);
    expect(done.state).toBe('done');
    expect(done.history.map((h) => h.action)).toContain('closing');
    expect(m.events.map((e) => e.detailType)).toContain('Plan Done');
    flat();
  });

  it("every limit stays inside the day's price band: a buy at most the upper circuit, a sell at least the lower", async () => {
    // The band (GetQuotes lc/uc) of every contract here: 100 to 129. The sells' protected limits (120 and 110 less
    // the band) are inside it; after the rise the call's buy-back (128 plus the band, 130.55) is above 129: sent at
    // 129, which the exchange accepts, where 130.55 would be refused and the leg left open.
    m.broker.band = { lc: '100.00', uc: '129.00' };
    const { plan } = await create(straddle('S'));
    expect(m.sent.map((s) => [s.tsym, s.trantype, s.prc])).toEqual([
      [CE, 'S', '117.60'],
      [PE, 'S', '107.80'],
    ]);
    price(CE, 128);
    price(PE, 123);
    expect((await run()).acted).toEqual([`${plan.planId}:done`]);
    expect(m.sent.slice(2).map((s) => [s.tsym, s.trantype, s.prc])).toEqual([
      [CE, 'B', '129.00'],
      [PE, 'B', '125.45'],
    ]);
    // A sell's floor is the lower circuit: 100 less the band would be 97.00.
    const leg = { exch: 'NFO', tsym: CE, tick: '0.05' };
    expect(legLimit(leg, 'S', 100, 'auto', { lc: '99.00', uc: '129.00' })).toBe('99.00');
    expect(legLimit(leg, 'S', 100, 'auto')).toBe('97.00');
  });

  it('a long straddle closes at its target ("%" of the entry\'s net); bought legs are entered first', async () => {
    const input = planInput.parse({
      kind: 'option-legs',
      legs: [
        { exch: 'NFO', tsym: CE2, trantype: 'S', lots: 1 },
        { exch: 'NFO', tsym: CE, trantype: 'B', lots: 1 },
      ],
      exit: { stop: '50%', target: '25%' },
    });
    const { plan } = await create(input);
    expect(m.sent.map((s) => s.trantype)).toEqual(['B', 'S']);
    expect(plan.legs).toMatchObject({ entryNet: 40, stopPoints: 20, targetPoints: 10 });
    price(CE, 135); // net 55: +15, past the target of +10
    expect((await run()).acted).toEqual([`${plan.planId}:done`]);
    expect(stored(plan.planId).history.find((h) => h.action === 'closing')?.detail).toMatchObject({ exit: 'target' });
    flat();
  });
});

describe('no leg is ever left open alone', () => {
  it('a leg not filled (IOC): the filled one is closed at once, the plan fails with why', async () => {
    m.outcomes.set(PE, ['none']);
    const { plan } = await create(straddle('S'));
    expect(plan.state).toBe('failed');
    expect(plan.reason).toMatch(
      /NIFTY08DEC26P24400's entry \d+ \(IOC\) filled 0 of 130.*Every filled leg \(130 NIFTY08DEC26C24400\) is closed/,
    );
    expect(m.sent.map((s) => [s.tsym, s.trantype, s.exit ?? false])).toEqual([
      [CE, 'S', false],
      [PE, 'S', false],
      [CE, 'B', true],
    ]);
    flat();
  });

  it('nothing filled: nothing to close, failed at once, never said unprotected', async () => {
    m.outcomes.set(CE, ['none']);
    m.outcomes.set(PE, ['none']);
    const { plan } = await create(straddle('S'));
    expect(plan.state).toBe('failed');
    expect(plan.reason).toMatch(/Nothing filled, nothing is open/);
    expect(m.sent).toHaveLength(2);
    expect(m.events.map((e) => e.detailType)).toEqual(['Plan Step', 'Plan Step', 'Plan Failed']);
  });

  it("a leg half filled: both legs' filled quantities are closed", async () => {
    m.outcomes.set(PE, ['part']);
    const { plan } = await create(straddle('B'));
    expect(plan.state).toBe('failed');
    expect(m.sent.slice(2).map((s) => [s.tsym, s.trantype, s.qty])).toEqual([
      [CE, 'S', 130],
      [PE, 'S', 65],
    ]);
    flat();
  });

  it('a leg refused, or the kill switch turned on before it: later legs are not placed, the first is closed', async () => {
    m.outcomes.set(CE, ['refuse']);
    const refused = await create(
      straddle('S', {
        legs: [
          { exch: 'NFO', tsym: PE, trantype: 'S', lots: 2 },
          { exch: 'NFO', tsym: CE, trantype: 'S', lots: 2 },
          { exch: 'NFO', tsym: CE2, trantype: 'S', lots: 2 },
        ],
      }),
    );
    expect(refused.plan.state).toBe('failed');
    expect(refused.plan.reason).toMatch(
      /NIFTY08DEC26C24400 was refused: VALIDATION_FAILED.*NIFTY08DEC26C24500 was not placed/,
    );
    expect(m.sent.map((s) => s.tsym)).toEqual([PE, PE]);
    flat();

    m.outcomes.set(PE, ['halt']);
    const halted = await create(straddle('B'));
    expect(halted.plan).toMatchObject({ state: 'failed' });
    expect(halted.plan.reason).toMatch(/TRADING_HALTED/);
    // The close of the filled call went through the kill switch as an exit.
    expect(m.sent.slice(3).map((s) => [s.tsym, s.trantype, s.exit])).toEqual([[CE, 'S', true]]);
    flat();
  });

  it('a lost reply on an entry: the next run sends the same key, the journal answers the order placed', async () => {
    m.outcomes.set(CE, ['lose']);
    const { plan } = await create(straddle('S'));
    expect(plan.state).toBe('entry-placed');
    expect(plan.history.at(-1)?.action).toBe('entry-unknown');
    expect(m.sent).toHaveLength(1);
    await run();
    expect(stored(plan.planId).state).toBe('entry-filled');
    expect(stored(plan.planId).history.map((h) => h.action)).toContain('leg-adopted');
    expect(m.sent.map((s) => s.tsym)).toEqual([CE, PE]); // never twice
  });

  it('a close not filled is closed again next run (a new generation); a lost close reply is never sent twice', async () => {
    const { plan } = await create(straddle('S'));
    m.outcomes.set(CE, ['none']);
    m.outcomes.set(PE, ['lose']);
    price(CE, 150);
    const first = await run();
    expect(first.errors).toEqual([{ planId: plan.planId, code: 'BROKER_TIMEOUT' }]);
    expect(stored(plan.planId)).toMatchObject({ state: 'unprotected', legs: { closing: { end: 'done' } } });
    expect(stored(plan.planId).reason).toMatch(/moved -30 points against the legs/);
    expect((await run()).acted).toEqual([`${plan.planId}:done`]);
    const closes = m.sent.slice(2).map((s) => [s.tsym, s.idempotencyKey]);
    expect(closes).toEqual([
      [CE, legCloseKeyOf(plan.planId, 0, 1)],
      [PE, legCloseKeyOf(plan.planId, 1, 1)],
      [CE, legCloseKeyOf(plan.planId, 0, 2)],
    ]);
    flat();
  });

  it('a price that cannot be read: nothing that run, said; DELETE closes every leg and ends the plan cancelled', async () => {
    const warned: string[] = [];
    m.deps.warn = (message) => warned.push(message);
    const { plan } = await create(straddle('S'));
    m.prices.delete(`NFO:${PE}`);
    expect((await run()).acted).toEqual([]);
    expect(warned[0]).toMatch(/leg's price could not be read/);
    price(PE, 110);
    const cancelled = await engine.cancel(plan.planId, Date.now() + 5_000);
    expect(cancelled).toMatchObject({
      state: 'cancelled',
      left: { note: expect.stringMatching(/every leg was closed/) },
    });
    expect(m.sent.slice(2).map((s) => [s.tsym, s.trantype, s.exit])).toEqual([
      [CE, 'B', true],
      [PE, 'B', true],
    ]);
    flat();
  });
});
