/**
 * checkLimits (functions/base/schemas/assistant-limits.ts): an order held to an assistant's limits, each limit on its own and at
 * its edge, with a reason a person can read; what cannot be reckoned is refused, never waved through.
 */
import { describe, expect, it } from 'vitest';

import { checkLimits } from '../../functions/base/schemas/assistant-limits.js';

const LIMITS = { maxQtyPerOrder: 10, maxValuePerOrder: 50_000, maxOrdersPerDay: 3, exchanges: ['NSE' as const] };
const ORDER = { exch: 'NSE', qty: '10', prc: '1500', d: '1510' };

describe('checkLimits', () => {
  it('no limits: any order passes', () => {
    expect(checkLimits({}, { exch: 'MCX', qty: 1_000_000, prc: '99999' }, 1_000)).toBeUndefined();
  });

  it('at every limit exactly: passes', () => {
    expect(checkLimits(LIMITS, { exch: 'NSE', qty: 10, prc: 5_000 }, 2)).toBeUndefined();
    expect(checkLimits(LIMITS, ORDER, 0)).toBeUndefined();
  });

  it('quantity over the most per order', () => {
    expect(checkLimits(LIMITS, { ...ORDER, qty: '11', prc: '1' })).toBe(
      "quantity 11 is over this assistant's most per order (10)",
    );
  });

  it('value = quantity × the limit price, over the most per order', () => {
    expect(checkLimits(LIMITS, { ...ORDER, prc: '5000.05' })).toBe(
      "value ₹50,000.5 (quantity 10 × 5000.05) is over this assistant's most per order (₹50,000)",
    );
  });

  it("a market order's value is reckoned at its trigger; with neither, refused where a value limit is set", () => {
    expect(checkLimits(LIMITS, { exch: 'NSE', qty: 10, prc: '0', d: '5001' })).toMatch(/^value ₹50,010 /);
    expect(checkLimits(LIMITS, { exch: 'NSE', qty: 10, prc: '0', d: '4999' })).toBeUndefined();
    expect(checkLimits(LIMITS, { exch: 'NSE', qty: 1 })).toMatch(/value cannot be reckoned/);
    expect(checkLimits({ maxQtyPerOrder: 5 }, { exch: 'NSE', qty: 1 })).toBeUndefined();
  });

  it('an exchange outside the list', () => {
    expect(checkLimits(LIMITS, { ...ORDER, exch: 'BSE' })).toBe("exchange BSE is not one of this assistant's (NSE)");
    expect(checkLimits({ exchanges: ['NSE', 'BSE'] }, { ...ORDER, exch: 'BSE' })).toBeUndefined();
  });

  it("the day's orders: the one that would pass the most per day is refused", () => {
    expect(checkLimits(LIMITS, ORDER, 2)).toBeUndefined();
    expect(checkLimits(LIMITS, ORDER, 3)).toBe(
      'this assistant has placed 3 orders today, its most per day (3); more tomorrow (India time)',
    );
  });

  it('a quantity that is no positive whole number is refused, whatever the limits', () => {
    for (const qty of ['0', '-1', '1.5', 'ten', '', Number.NaN, Number.POSITIVE_INFINITY])
      expect(checkLimits({}, { exch: 'NSE', qty }), String(qty)).toMatch(/is not a positive whole number$/);
  });

  it('the first limit broken is the reason: the exchange, then quantity, value, the day', () => {
    expect(checkLimits(LIMITS, { exch: 'BSE', qty: 99, prc: 99_999 }, 9)).toMatch(/^exchange BSE/);
    expect(checkLimits(LIMITS, { exch: 'NSE', qty: 99, prc: 99_999 }, 9)).toMatch(/^quantity 99/);
  });
});
