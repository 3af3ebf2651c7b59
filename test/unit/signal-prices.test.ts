/**
 * A signal's prices (functions/signals/prices.ts): offsets in percent or points from the alert's price, on the tick,
 * rounded so the fill is never worse than the offset's exact price (a buy down, a sell up); quantity, side, alert type;
 * the front-month future's name (symbols.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { alertTypeOf, offsetPrice, quantityOf, sideOf } from '../../functions/signals/prices.js';
import { futureName, lastTuesday, monthlyExpiry } from '../../functions/signals/symbols.js';

describe('offsetPrice', () => {
  it('example A: 1500 at -0.5% is 1492.50 for a buy, on the 0.05 tick', () => {
    expect(offsetPrice('1500', '-0.5%', '0.05', 'B')).toBe('1492.50');
  });

  it('example B: 800.5 and 410 at 0 and +0.2% for a buy', () => {
    expect(offsetPrice('800.5', '0', '0.05', 'B')).toBe('800.50');
    expect(offsetPrice('800.5', '0.2%', '0.05', 'B')).toBe('802.10'); // exact 802.101
    expect(offsetPrice('410', '0', '0.05', 'B')).toBe('410.00');
    expect(offsetPrice('410', '0.2%', '0.05', 'B')).toBe('410.80'); // exact 410.82
  });

  it('a sell rounds up, a buy down; points and signs', () => {
    expect(offsetPrice('410', '0.2%', '0.05', 'S')).toBe('410.85');
    expect(offsetPrice('100', '-5', '0.05', 'B')).toBe('95.00');
    expect(offsetPrice('100', '+2.52', '0.05', 'S')).toBe('102.55');
    expect(offsetPrice('100', '+2.52', '0.05', 'B')).toBe('102.50');
    expect(offsetPrice('100.07', '.5', '0.05', 'B')).toBe('100.55');
    expect(offsetPrice('12.3456', '0', '0.0025', 'S')).toBe('12.3475');
  });

  it('refuses an offset that leaves no positive price, naming the field', () => {
    expect(() => offsetPrice('10', '-10', '0.05', 'B', 'stopLoss.price')).toThrow(
      /stopLoss.price -10 .* no positive price/,
    );
    expect(() => offsetPrice('10', '-100%', '0.05', 'S')).toThrow(/no positive price/);
  });

  const decimal = (maxUnits: number, places: number) =>
    fc.integer({ min: 1, max: maxUnits }).map((n) => (n / 10 ** places).toFixed(places));
  const tick = fc.constantFrom('0.05', '0.01', '0.1', '1', '0.0025', '0.25');
  const offset = fc.oneof(
    fc
      .tuple(fc.integer({ min: -9_999, max: 9_999 }), fc.constantFrom('', '%'))
      .map(([n, u]) => `${(n / 100).toFixed(2)}${u}`),
    fc.integer({ min: -500, max: 500 }).map((n) => String(n / 20)),
  );
  // Exact rationals: value * 10^8 as bigint over a denominator, to check without floating point.
  const exactScaled = (base: string, off: string): [bigint, bigint] => {
    const s = (d: string) => {
      const neg = d.startsWith('-');
      const [w = '0', f = ''] = d.replace(/^[+-]/, '').split('.');
      const v = BigInt(w || '0') * 10n ** 8n + BigInt((f + '00000000').slice(0, 8));
      return neg ? -v : v;
    };
    if (off.endsWith('%')) return [s(base) * (100n * 10n ** 8n + s(off.slice(0, -1))), 100n * 10n ** 8n];
    return [s(base) + s(off), 1n];
  };
  const scaled = (d: string) => exactScaled(d, '0')[0];

  it('property: the result is on the tick, never worse than the exact price, and less than a tick from it', () => {
    fc.assert(
      fc.property(
        decimal(10_000_000, 2),
        offset,
        tick,
        fc.constantFrom('B' as const, 'S' as const),
        (base, off, t, side) => {
          const [num, den] = exactScaled(base, off);
          let result: string;
          try {
            result = offsetPrice(base, off, t, side);
          } catch {
            // Refused only when no positive price is on the grid on the safe side.
            expect(side === 'B' ? num < scaled(t) * den : num <= 0n).toBe(true);
            return;
          }
          const r = scaled(result);
          expect(r % scaled(t)).toBe(0n);
          expect(r > 0n).toBe(true);
          const diff = r * den - num; // sign of result - exact
          if (side === 'B') expect(diff <= 0n && -diff < scaled(t) * den).toBe(true);
          else expect(diff >= 0n && diff < scaled(t) * den).toBe(true);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('quantity, side and alert type', () => {
  it('the alert quantity wins over order.qty; over maxQty refused, never cut down; lots checked', () => {
    expect(quantityOf({ qty: 3 }, { qty: 1 }, 5, 1, 'INFY-EQ')).toBe(3);
    expect(quantityOf({}, { qty: 1 }, undefined, 1, 'INFY-EQ')).toBe(1);
    expect(() => quantityOf({ qty: 6 }, { qty: 1 }, 5, 1, 'INFY-EQ')).toThrow(
      /6 is over the strategy's maxQty 5: refused, never cut down/,
    );
    expect(() => quantityOf({ qty: 100 }, {}, undefined, 65, 'NIFTY29DEC26F')).toThrow(
      /lots of 65: 100 is not a multiple; 65 or 130/,
    );
    expect(() => quantityOf({}, {}, undefined, 1, 'INFY-EQ')).toThrow(/no quantity/);
  });

  it("the side: the alert's or the strategy's; refused when they disagree or neither says", () => {
    expect(sideOf({ side: 'S' }, {})).toBe('S');
    expect(sideOf({}, { trantype: 'B' })).toBe('B');
    expect(() => sideOf({ side: 'S' }, { trantype: 'B' })).toThrow(
      /alert says sell but the strategy fixes order.trantype B/,
    );
    expect(() => sideOf({}, {})).toThrow(/names no side/);
  });

  it('alert type: above the alert price LTP_A_O, below LTP_B_O, at it by side', () => {
    expect(alertTypeOf('1492.50', '1500', 'B')).toBe('LTP_B_O');
    expect(alertTypeOf('1510.00', '1500', 'S')).toBe('LTP_A_O');
    expect(alertTypeOf('800.50', '800.5', 'B')).toBe('LTP_A_O');
    expect(alertTypeOf('800.50', '800.5', 'S')).toBe('LTP_B_O');
  });
});

describe('continuous futures', () => {
  const at = (iso: string) => new Date(iso);
  it("the month's last Tuesday; after it, the next month's", () => {
    expect(futureName('NIFTY', lastTuesday(2026, 10))).toBe('NIFTY24NOV26F');
    // 2026-11-26 (India): November's expiry (24th) is past, so 1! is December's, 2! January's.
    expect(futureName('NIFTY', monthlyExpiry(1, at('2026-11-26T10:00:00Z')))).toBe('NIFTY29DEC26F');
    expect(futureName('NIFTY', monthlyExpiry(2, at('2026-11-26T10:00:00Z')))).toBe('NIFTY26JAN27F');
    // On expiry day the contract still trades; in India it is already the 24th at 20:00 UTC on the 23rd.
    expect(futureName('BANKNIFTY', monthlyExpiry(1, at('2026-11-23T20:00:00Z')))).toBe('BANKNIFTY24NOV26F');
    expect(futureName('NIFTY', monthlyExpiry(2, at('2026-12-30T04:00:00Z')))).toBe('NIFTY23FEB27F');
  });
});
