/**
 * What the kill switch's keep-exits counts as an exit (functions/orders/safety/exits.ts): the one rule its sweep and
 * the order core's landed-after-halt check read, so they never disagree about an order.
 */
import { describe, expect, it } from 'vitest';

import { isExit, parsePlanStamp } from '../../functions/orders/safety/exits.js';
import { exitStep, parseStamp, stampOf } from '../../functions/plans/stamps.js';

const PLAN = 'pl0123456789abcdef';

describe('keep-exits: what is an exit', () => {
  it('every OCO, whatever its tag', () => {
    for (const tag of [undefined, '', 'swing-1', `${PLAN}.e`]) expect(isExit({ type: 'oco', tag })).toBe(true);
  });

  it("a plan's exit and trailing stop by their stamps; its entry and every other single GTT are not", () => {
    expect(isExit({ type: 'single', tag: stampOf(PLAN, exitStep(1)) })).toBe(true);
    expect(isExit({ type: 'single', tag: stampOf(PLAN, exitStep(12)) })).toBe(true);
    expect(isExit({ type: 'single', tag: stampOf(PLAN, 's') })).toBe(true);
    expect(isExit({ tag: stampOf(PLAN, 's') })).toBe(true);
    for (const tag of [stampOf(PLAN, 'e'), undefined, '', 'stop-loss', `${PLAN}.s `, `x${PLAN}.s`, 'pl0123.s'])
      expect(isExit({ type: 'single', tag }), String(tag)).toBe(false);
  });

  it('the plans read their stamps by the same pattern', () => {
    expect(parseStamp(`${PLAN}.x3`)).toEqual({ planId: PLAN, step: 'x3' });
    expect(parseStamp(`${PLAN}.x3`)).toEqual(parsePlanStamp(`${PLAN}.x3`));
    expect(parseStamp('gw.k3v9q0m2ab')).toBeUndefined();
  });
});
