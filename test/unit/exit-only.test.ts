/**
 * The exit-only rule (functions/base/schemas/exit-only.ts): a sell reduces a long, a buy a short, each by at most the
 * position less the pending exits of that position (an OCO counted once, at its larger leg); a flat book, the wrong
 * side or another product has nothing to reduce. And a change may move prices but never raise a quantity or flip a side.
 * A trailing stop's stop is judged as any exit; a bracket (it opens a position) never passes.
 */
import { describe, expect, it } from 'vitest';

import {
  exitChangeRefusal,
  exitOnlyRefusal,
  pendingExitQty,
  planExitOrder,
} from '../../functions/base/schemas/exit-only.js';

const at = { exch: 'NSE', tsym: 'INFY-EQ', prd: 'C' };
const sell = (qty: number) => ({ ...at, trantype: 'S', qty });
const buy = (qty: number) => ({ ...at, trantype: 'B', qty });
const held = (netQty: number, product = 'C') => [{ exch: 'NSE', tsym: 'INFY-EQ', product, netQty }];
const single = (trantype: string, qty: number | string, prd = 'C') => ({ type: 'single', ...at, prd, trantype, qty });
const oco = (trantype: string, target: number, stop: number) => ({
  type: 'oco',
  ...at,
  target: { trigger: '1600', order: { trantype, qty: target, prd: 'C' } },
  stopLoss: { trigger: '1400', order: { trantype, qty: stop, prd: 'C' } },
});

describe('exitOnlyRefusal', () => {
  it('long: a sell up to the long passes, one past it or any buy is refused', () => {
    expect(exitOnlyRefusal(sell(3), held(3), [], [])).toBeUndefined();
    expect(exitOnlyRefusal(sell(4), held(3), [], [])).toBe(
      'EXIT_ONLY: a sell of 4 NSE:INFY-EQ (product C) would exceed the long of 3 (pending exits sell 0): at most 3 more may be sold',
    );
    expect(exitOnlyRefusal(buy(1), held(3), [], [])).toMatch(
      /would add to the long of 3; an exit-only caller may only sell/,
    );
  });

  it('short: a buy up to the short passes, a sell is refused', () => {
    expect(exitOnlyRefusal(buy(2), held(-2), [], [])).toBeUndefined();
    expect(exitOnlyRefusal(buy(3), held(-2), [], [])).toMatch(
      /exceed the short of 2 \(pending exits buy 0\): at most 2/,
    );
    expect(exitOnlyRefusal(sell(1), held(-2), [], [])).toMatch(
      /would add to the short of 2; an exit-only caller may only buy/,
    );
  });

  it('flat, no row, or a position of another product: nothing to reduce', () => {
    const none = /would open a position: none is held/;
    expect(exitOnlyRefusal(sell(1), held(0), [], [])).toMatch(none);
    expect(exitOnlyRefusal(sell(1), [], [], [])).toMatch(none);
    expect(exitOnlyRefusal(sell(1), held(5, 'I'), [], [])).toMatch(none);
    // Two rows of the same position are summed.
    expect(exitOnlyRefusal(sell(4), [...held(2), ...held(2)], [], [])).toBeUndefined();
  });

  it('pending exits of the position count; an OCO once at its larger leg; buys and other products do not', () => {
    const pending = [single('S', 1), oco('S', 2, 1), single('B', 5), single('S', 9, 'I')];
    expect(pendingExitQty(pending, at, 'S')).toBe(3);
    expect(exitOnlyRefusal(sell(2), held(5), pending, [])).toBeUndefined();
    expect(exitOnlyRefusal(sell(3), held(5), pending, [])).toBe(
      'EXIT_ONLY: a sell of 3 NSE:INFY-EQ (product C) would exceed the long of 5 (pending exits sell 3): at most 2 more may be sold',
    );
    // Quantities as the broker writes them (strings) count the same.
    expect(pendingExitQty([single('S', '4')], at, 'S')).toBe(4);
  });

  it('refuses a quantity or side it cannot read', () => {
    expect(exitOnlyRefusal({ ...at, trantype: 'X', qty: 1 }, held(3), [], [])).toMatch(
      /^EXIT_ONLY: side "X" is not B or S/,
    );
    expect(exitOnlyRefusal(sell(0), held(3), [], [])).toMatch(/^EXIT_ONLY: quantity 0 is not a whole number/);
    expect(exitOnlyRefusal({ ...sell(1), qty: '1.5' }, held(3), [], [])).toMatch(/quantity "1.5"/);
  });
});

describe('exitChangeRefusal', () => {
  it('keeps or lowers the quantity, never flips the side or moves the instrument', () => {
    expect(exitChangeRefusal([sell(3)], [sell(3)])).toBeUndefined();
    expect(exitChangeRefusal([sell(3)], [sell(1)])).toBeUndefined();
    expect(exitChangeRefusal([sell(3)], [sell(4)])).toBe(
      'EXIT_ONLY: the change raises the quantity from 3 to 4; it may only keep or lower it',
    );
    expect(exitChangeRefusal([sell(3)], [buy(3)])).toMatch(/flips the side from sell to buy/);
    expect(exitChangeRefusal([sell(3)], [{ ...sell(3), prd: 'I' }])).toMatch(/another instrument or product/);
    expect(exitChangeRefusal([sell(3), sell(3)], [sell(3), sell(5)])).toMatch(/raises the quantity \(stop-loss leg\)/);
    expect(exitChangeRefusal([sell(3), sell(3)], [sell(3)])).toMatch(/another kind of order/);
  });
});

describe('planExitOrder', () => {
  const trailing = (trantype: string, qty: number) => ({
    kind: 'trailing-stop',
    order: { ...at, trantype, qty, prctyp: 'LMT', ai_t: 'LTP_B_O', d: '1400', prc: '1400' },
    trailBy: '10',
  });
  const judged = (plan: Record<string, unknown>, positions: ReturnType<typeof held>, pending: object[] = []) => {
    const of = planExitOrder(plan);
    return 'refused' in of
      ? of.refused
      : exitOnlyRefusal(of.order, positions, pending as Record<string, unknown>[], []);
  };

  it("a trailing stop's stop is held to the position like any exit", () => {
    expect(planExitOrder(trailing('S', 5))).toEqual({ order: { ...sell(5), qty: '5' } });
    expect(judged(trailing('S', 5), held(5))).toBeUndefined();
    expect(judged(trailing('S', 6), held(5))).toBe(
      'EXIT_ONLY: a sell of 6 NSE:INFY-EQ (product C) would exceed the long of 5 (pending exits sell 0): at most 5 more may be sold',
    );
    expect(judged(trailing('B', 2), held(-2))).toBeUndefined();
    expect(judged(trailing('B', 1), held(5))).toMatch(/would add to the long of 5/);
    expect(judged(trailing('S', 1), [])).toMatch(/would open a position: none is held/);
    // A live trailing stop is a pending GTT at the broker: it uses the room of the next exit.
    expect(judged(trailing('S', 1), held(5), [single('S', 5)])).toMatch(/\(pending exits sell 5\): at most 0 more/);
  });

  it('a bracket, or a plan of no known kind, is refused with the way forward', () => {
    const bracket = { kind: 'bracket', entry: { ...sell(1) }, target: {}, stopLoss: {} };
    expect(judged(bracket, held(5))).toBe(
      'EXIT_ONLY: a bracket plan places an entry that opens a position, which an exit-only caller may not; a trailing-stop plan on the side that closes the position may be started',
    );
    expect(planExitOrder({})).toMatchObject({ refused: expect.stringMatching(/^EXIT_ONLY: a \(kind-less\) plan/) });
  });
});
