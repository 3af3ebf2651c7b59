/**
 * Coverage's rules (functions/risk/coverage.ts, coverage-cover.ts; docs/explanation/coverage.md): what counts as an
 * exit of a position, an OCO once, a target never, the product where the exit names one, a plan's stamp; autoCover's
 * triggers on the tick away from the price, and its key per day, position and net quantity.
 */
import { describe, expect, it } from 'vitest';

import type { Position } from '../../functions/base/schemas/positions.js';
import { coverageOf, type PendingExit } from '../../functions/risk/coverage.js';
import { coverKey, coverOrder } from '../../functions/risk/coverage-cover.js';

const position = (over: Partial<Position>): Position => ({
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
const single = (al_id: string, trantype: string, ai_t: string, trigger: string, qty: number, over = {}) =>
  ({
    al_id,
    type: 'single',
    exch: 'NSE',
    tsym: 'INFY-EQ',
    trantype,
    qty,
    prd: 'C',
    ai_t,
    trigger,
    ...over,
  }) as PendingExit;
const oco = (al_id: string, trantype: string, qty: number, over = {}) =>
  ({
    al_id,
    type: 'oco',
    exch: 'NSE',
    tsym: 'INFY-EQ',
    trantype,
    qty,
    prd: 'C',
    ai_t: 'LMT_BOS_O',
    target: { trigger: '1600', order: { trantype, qty, prd: 'C' } },
    stopLoss: { trigger: '1400', order: { trantype, qty, prd: 'C' } },
    ...over,
  }) as PendingExit;

describe('coverageOf', () => {
  it('a long with nothing resting is uncovered; a flat position is not listed', () => {
    const [p, ...rest] = coverageOf([position({}), position({ tsym: 'TCS-EQ', netQty: 0 })], []);
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ status: 'uncovered', coveredQty: 0, uncoveredQty: 10, exits: [] });
  });

  it('an OCO counts once for its quantity; a target counts for nothing; a stop for its own', () => {
    const pending = [oco('1', 'S', 4), single('2', 'S', 'LTP_A_O', '1550', 6), single('3', 'S', 'LTP_B_O', '1450', 3)];
    const [p] = coverageOf([position({})], pending);
    expect(p).toMatchObject({ status: 'partly', coveredQty: 7, uncoveredQty: 3 });
    expect(p!.exits.map((e) => [e.al_id, e.kind, e.counts])).toEqual([
      ['1', 'oco', true],
      ['2', 'target', false],
      ['3', 'stop', true],
    ]);
    expect(p!.overCoveredQty).toBeUndefined();
  });

  it('only targets: target-only; the same side, another symbol or another product: not an exit', () => {
    const pending = [
      single('1', 'S', 'LTP_A_O', '1550', 10),
      single('2', 'B', 'LTP_B_O', '1450', 10),
      single('3', 'S', 'LTP_B_O', '1450', 10, { tsym: 'TCS-EQ' }),
      single('4', 'S', 'LTP_B_O', '1450', 10, { prd: 'I' }),
    ];
    const [p] = coverageOf([position({})], pending);
    expect(p).toMatchObject({ status: 'target-only', uncoveredQty: 10 });
    expect(p!.exits.map((e) => e.al_id)).toEqual(['1']);
  });

  it('a short is covered by buys: a stop above it; over-cover is flagged, still covered', () => {
    const pending = [single('1', 'B', 'LTP_A_O', '1550', 5), oco('2', 'B', 5), single('3', 'B', 'LTP_B_O', '1400', 5)];
    const [p] = coverageOf([position({ netQty: -8 })], pending);
    expect(p).toMatchObject({ status: 'covered', coveredQty: 8, uncoveredQty: 0, overCoveredQty: 2 });
    expect(p!.exits.map((e) => [e.kind, e.counts])).toEqual([
      ['stop', true],
      ['oco', true],
      ['target', false],
    ]);
  });

  it("a plan's exit and stop count with their planId; its entry is no exit; an exit covers one position", () => {
    const pending = [
      oco('1', 'S', 4, { tag: 'pl0123456789abcdef.x1' }),
      single('2', 'S', 'LTP_B_O', '1450', 3, { tag: 'pl0123456789abcdef.s' }),
      single('3', 'S', 'LTP_B_O', '1450', 3, { tag: 'pl0123456789abcdef.e' }),
    ];
    const [a, b] = coverageOf([position({}), position({ product: 'C', netQty: 5 })], pending);
    expect(a!.exits.map((e) => [e.kind, e.planId])).toEqual([
      ['plan-exit', 'pl0123456789abcdef'],
      ['plan-stop', 'pl0123456789abcdef'],
    ]);
    expect(a).toMatchObject({ status: 'partly', coveredQty: 7 });
    expect(b).toMatchObject({ status: 'uncovered', exits: [] });
  });
});

describe('autoCover', () => {
  const covered = (over: Partial<Position>) => coverageOf([position(over)], [])[0]!;

  it("a long's target rounds up and its stop down to the tick; the uncovered quantity; a sell", () => {
    const order = coverOrder(covered({ averagePrice: 1489 }), { target: '2%', stop: '10' }, '0.05');
    expect(order).toMatchObject({ ok: true, target: '1518.80', stopLoss: '1479.00', qty: 10 });
    expect(order.ok && order.input).toMatchObject({
      target: { trigger: '1518.80', order: { trantype: 'S', prctyp: 'LMT', qty: 10, prc: '1518.80', prd: 'C' } },
      stopLoss: { trigger: '1479.00', order: { trantype: 'S', qty: 10, prc: '1479.00' } },
      tag: 'autocover',
    });
  });

  it("a short's target is below and its stop above, each away from the price; a buy", () => {
    const order = coverOrder(covered({ netQty: -3, averagePrice: 1500.02 }), { target: '1%', stop: '1%' }, '0.05');
    // 1500.02 - 15.0002 = 1485.0198, down: 1485.00; 1500.02 + 15.0002 = 1515.0402, up: 1515.05.
    expect(order).toMatchObject({ ok: true, target: '1485.00', stopLoss: '1515.05', qty: 3 });
    expect(order.ok && order.input).toMatchObject({ target: { order: { trantype: 'B' } } });
  });

  it('a stop at or below 0 is refused with the way forward', () => {
    const order = coverOrder(covered({ averagePrice: 5 }), { target: '1', stop: '10' }, '0.05');
    expect(order).toMatchObject({ ok: false, reason: expect.stringMatching(/smaller distances/) });
  });

  it('the key is the day, the position and its net quantity: another quantity or day is another key', () => {
    const at = Date.parse('2026-12-07T05:00:00Z');
    const p = covered({});
    expect(coverKey(p, at)).toMatch(/^cover-2026-12-07-[0-9a-f]{16}-10$/);
    expect(coverKey(p, at + 60_000)).toBe(coverKey(p, at));
    expect(coverKey(covered({ netQty: 11 }), at)).not.toBe(coverKey(p, at));
    expect(coverKey(p, at + 86_400_000)).not.toBe(coverKey(p, at));
    expect(coverKey(covered({ product: 'I' }), at)).not.toBe(coverKey(p, at));
  });
});
