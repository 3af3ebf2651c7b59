/**
 * Coverage counts what the live plans owe and is not at the broker yet (functions/risk/coverage.ts, `owedQty`;
 * coverage-watch.ts; docs/explanation/coverage.md): never as cover, a plan once (its exits resting count within its
 * quantity), and autoCover places only the rest, none when the plans owe the whole, none when the plans cannot be read.
 */
import { describe, expect, it } from 'vitest';

import { owedExitsOf } from '../../functions/base/schemas/exit-only.js';
import type { Position } from '../../functions/base/schemas/positions.js';
import { coverageOf, owedOfPlans, type PendingExit } from '../../functions/risk/coverage.js';
import { coverKey, coverOrder } from '../../functions/risk/coverage-cover.js';
import type { CoverageStore } from '../../functions/risk/coverage-store.js';
import { type CoverageDeps, watchCoverage } from '../../functions/risk/coverage-watch.js';

const PLAN = 'pl0123456789abcdef';
const position = (over: Partial<Position> = {}): Position => ({
  exch: 'NSE',
  tsym: 'INFY-EQ',
  product: 'C',
  netQty: 10,
  averagePrice: 1500,
  realised: 0,
  unrealised: 0,
  boughtQty: 10,
  soldQty: 0,
  priceFactor: 1,
  ...over,
});
const bracket = (state: string, over: Record<string, unknown> = {}) => ({
  planId: PLAN,
  kind: 'bracket',
  state,
  exch: 'NSE',
  tsym: 'INFY-EQ',
  entry: { trantype: 'B', prd: 'C' },
  position: { qty: 4 },
  alIds: {},
  ...over,
});
const trailing = (over: Record<string, unknown> = {}) => ({
  planId: 'pl00000000000000ff',
  kind: 'trailing-stop',
  state: 'armed',
  order: { exch: 'NSE', tsym: 'INFY-EQ', prd: 'C', trantype: 'S', qty: '3' },
  alIds: {},
  ...over,
});
const oco = (al_id: string, qty: number, tag?: string) =>
  ({
    al_id,
    type: 'oco',
    exch: 'NSE',
    tsym: 'INFY-EQ',
    trantype: 'S',
    qty,
    prd: 'C',
    ...(tag ? { tag } : {}),
    target: { trigger: '1600', order: { trantype: 'S', qty, prd: 'C' } },
    stopLoss: { trigger: '1400', order: { trantype: 'S', qty, prd: 'C' } },
  }) as PendingExit;

describe('coverageOf with the plans owed exits', () => {
  it('a filled bracket whose exit is not placed yet: owed, said, never counted as cover', () => {
    const [p] = coverageOf([position({ netQty: 4 })], [], owedExitsOf([bracket('entry-filled')]));
    expect(p).toMatchObject({ status: 'uncovered', coveredQty: 0, uncoveredQty: 4, owedQty: 4 });
    expect(p!.owedBy).toEqual([{ planId: PLAN, qty: 4, what: 'its exit' }]);
  });

  it("a plan's exit at the broker, by its stamp or its al_id, counts within its quantity, never beside it", () => {
    const owed = owedExitsOf([bracket('exit-armed')]);
    const [byStamp] = coverageOf([position({ netQty: 4 })], [oco('201', 4, `${PLAN}.x1`)], owed);
    expect(byStamp).toMatchObject({ status: 'covered', coveredQty: 4 });
    expect(byStamp!.owedQty).toBeUndefined();
    const known = owedExitsOf([bracket('exit-armed', { alIds: { exit: '201' } })]);
    const [byId] = coverageOf([position({ netQty: 4 })], [oco('201', 4)], known);
    expect(byId!.owedQty).toBeUndefined();
  });

  it('owed of another position, side or product, or of an ended plan, is not this one’s', () => {
    const owed = owedExitsOf([
      bracket('entry-filled', { tsym: 'TCS-EQ' }),
      bracket('entry-filled', { planId: 'pl1111111111111111', entry: { trantype: 'B', prd: 'I' } }),
      bracket('done', { planId: 'pl2222222222222222' }),
      trailing({ order: { exch: 'NSE', tsym: 'INFY-EQ', prd: 'C', trantype: 'B', qty: '3' } }),
    ]);
    const [p] = coverageOf([position()], [], owed);
    expect(p!.owedQty).toBeUndefined();
    const [trail] = coverageOf([position()], [oco('9', 5)], owedExitsOf([trailing(), bracket('entry-filled')]));
    expect(trail).toMatchObject({ status: 'partly', coveredQty: 5, uncoveredQty: 5, owedQty: 7 });
  });

  it("a part's key differs from the whole's, so a plan that gives up leaves the rest to a cover of its own", () => {
    const [p] = coverageOf([position()], [], owedExitsOf([bracket('entry-filled')]));
    const at = Date.parse('2026-12-07T05:00:00Z');
    expect(coverKey(p!, at, 6)).toBe(`${coverKey(p!, at)}-o6`);
    expect(coverKey(p!, at, 10)).toBe(coverKey(p!, at));
  });

  it('an armed bracket whose entry left the pending list owes its exit (it filled before the plan saw it)', () => {
    const armed = bracket('armed', { alIds: { entry: '55' }, entry: { trantype: 'B', prd: 'C', qty: 4 } });
    delete (armed as { position?: unknown }).position;
    const entry = { ...oco('55', 4), type: 'single', trantype: 'B', tag: `${PLAN}.e` } as PendingExit;
    expect(owedOfPlans([armed], [entry])).toEqual([]);
    expect(owedOfPlans([armed], [])).toEqual([expect.objectContaining({ planId: PLAN, qty: 4, trantype: 'S' })]);
    expect(owedOfPlans([bracket('armed', { alIds: {} })], [])).toEqual([]);
  });

  it('coverOrder places the quantity asked (the uncovered less the owed)', () => {
    const [p] = coverageOf([position()], [], owedExitsOf([bracket('entry-filled')]));
    const order = coverOrder(p!, { target: '10', stop: '10' }, '0.05', 6);
    expect(order.ok && order.qty).toBe(6);
    expect(order.ok && (order.input.stopLoss as { order: { qty: number } }).order.qty).toBe(6);
  });
});

const depsOf = (plans: () => Promise<Record<string, unknown>[]>, netQty: number) => {
  const placed: Record<string, unknown>[] = [];
  const deps: CoverageDeps = {
    store: { get: async () => ({ watch: true, autoCover: { target: '10', stop: '10' } }) } as unknown as CoverageStore,
    positions: async () => ({ positions: [position({ netQty })] }),
    pending: async () => ({ orders: [] }),
    placeOco: async (input) => {
      placed.push(input as Record<string, unknown>);
      return { al_id: '777' };
    },
    plans,
    tick: async () => '0.05',
    scope: async () => 'scope',
    now: () => Date.parse('2026-12-07T05:00:00Z'),
  };
  return { deps, placed };
};

describe('watchCoverage with autoCover and the plans owed exits', () => {
  it('places nothing when the plans owe the whole uncovered quantity, and says which plan', async () => {
    const { deps, placed } = depsOf(async () => [bracket('entry-filled')], 4);
    const run = await watchCoverage(deps, Date.now() + 10_000);
    expect(placed).toEqual([]);
    const detail = run!.events[0]!.detail;
    expect(detail).toMatchObject({ owedQty: 4, owedBy: [PLAN], autoCover: { placed: false } });
    expect(detail.autoCover!.reason).toContain(PLAN);
  });

  it('places only the part the plans do not owe', async () => {
    const { deps, placed } = depsOf(async () => [bracket('entry-filled')], 10);
    const run = await watchCoverage(deps, Date.now() + 10_000);
    expect(placed).toHaveLength(1);
    expect((placed[0]!.stopLoss as { order: { qty: number } }).order.qty).toBe(6);
    expect(placed[0]!.idempotencyKey).toMatch(/-10-o6-b\d+s\d+$/);
    expect(run!.events[0]!.detail.autoCover).toMatchObject({ placed: true, qty: 6 });
  });

  it('a failed plans read: nothing placed that run, the code said; the coverage read answers with a note', async () => {
    const failing = async () => {
      throw new Error('plans table down');
    };
    const { deps, placed } = depsOf(failing, 4);
    const run = await watchCoverage(deps, Date.now() + 10_000);
    expect(placed).toEqual([]);
    expect(run!.events[0]!.detail.autoCover).toMatchObject({ placed: false, code: expect.any(String) });
    const { readCoverage } = await import('../../functions/risk/coverage-watch.js');
    const read = await readCoverage(deps, Date.now() + 10_000);
    expect(read.positions[0]).toMatchObject({ status: 'uncovered', uncoveredQty: 4 });
    expect(read.note).toMatch(/plans could not be read/);
  });
});
