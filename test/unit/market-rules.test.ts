/**
 * The price band and freeze checks as arithmetic (functions/orders/safety/market-rules.ts, grid.ts): the band's width taken
 * relative to its midpoint, applied around each trigger and kept inside on the tick, market orders and absent rules
 * left alone, the freeze's edge.
 */
import { describe, expect, it } from 'vitest';

import { ruledOrders } from '../../functions/orders/safety/exchange-rule-checks.js';
import { bandAround } from '../../functions/orders/safety/grid.js';
import { bandPercent, bandProblem, checkedRules, freezeProblem } from '../../functions/orders/safety/market-rules.js';

const order = (over: Record<string, unknown>) =>
  ruledOrders({ exch: 'NSE', tsym: 'INFY-EQ', qty: 1, prctyp: 'LMT', prc: '1500', d: '1500', ...over })[0]!;

describe('the band around a trigger', () => {
  it("takes the band's width over its midpoint (ACC's 1713.25-2093.95 is ±10%)", () => {
    expect(bandPercent({ lc: '1713.25', uc: '2093.95' })).toBe('10');
    expect(bandPercent({ lc: '80', uc: '120' })).toBe('20');
  });

  it('keeps the allowed prices inside, on the tick: the low end up, the high end down', () => {
    expect(bandAround('1500', '1350', '1650', '0.05')).toEqual(['1350.00', '1650.00']);
    // 1234.57 * 0.9 = 1111.113, * 1.1 = 1358.027
    expect(bandAround('1234.57', '90', '110', '0.05')).toEqual(['1111.15', '1358.00']);
  });

  it('a limit at the edge passes, one tick beyond is refused with the nearest valid price', () => {
    const band = { lc: '1350.00', uc: '1650.00' };
    expect(bandProblem(order({ prc: '1650' }), band, '0.05')).toEqual([]);
    expect(bandProblem(order({ prc: '1650.05' }), band, '0.05')).toEqual([
      {
        field: 'prc',
        message:
          "limit 1650.05 is 10% from its trigger 1500.00; NSE:INFY-EQ's band today is ±10% (1350.00–1650.00): use at most 1650.00",
      },
    ]);
    expect(bandProblem(order({ prc: '1349.95' }), band, '0.05')[0]!.message).toMatch(/use at least 1350\.00$/);
  });

  it("a plain order (no trigger: PlaceOrder) goes to the exchange now: its limit itself lies in today's band", () => {
    const band = { lc: '1350.00', uc: '1650.00' };
    const plain = (prc: string) =>
      ruledOrders({ exch: 'NSE', tsym: 'INFY-EQ', qty: 1, prctyp: 'LMT', prc, trantype: 'S' })[0]!;
    expect(bandProblem(plain('1650'), band, '0.05')).toEqual([]);
    expect(bandProblem(plain('1350'), band, '0.05')).toEqual([]);
    expect(bandProblem(plain('1650.05'), band, '0.05')).toEqual([
      {
        field: 'prc',
        message: "limit 1650.05 is outside NSE:INFY-EQ's band today (1350.00–1650.00): use at most 1650.00",
      },
    ]);
    expect(bandProblem(plain('1349.95'), band, '0.05')[0]!.message).toMatch(/use at least 1350\.00$/);
  });

  it('a market order has no limit to check; an OCO checks each leg around its own trigger', () => {
    expect(bandProblem(order({ prctyp: 'MKT', prc: '0' }), { lc: '1350', uc: '1650' }, '0.05')).toEqual([]);
    const [target, stop] = ruledOrders({
      exch: 'NSE',
      tsym: 'INFY-EQ',
      target: { trigger: '2000', order: { prctyp: 'LMT', qty: 1, prc: '2150' } },
      stopLoss: { trigger: '1000', order: { prctyp: 'LMT', qty: 1, prc: '850' } },
    });
    expect(bandProblem(target!, { lc: '1350', uc: '1650' }, '0.05')).toEqual([]);
    expect(bandProblem(stop!, { lc: '1350', uc: '1650' }, '0.05')[0]).toMatchObject({
      field: 'stopLoss.order.prc',
      message: expect.stringContaining('use at least 900.00'),
    });
  });
});

describe('the freeze quantity', () => {
  it('refuses above it, takes it exactly', () => {
    expect(freezeProblem(order({ qty: 1800 }), 1800)).toEqual([]);
    expect(freezeProblem(order({ qty: 1801 }), 1800)[0]).toMatchObject({
      field: 'qty',
      message: expect.stringContaining('split it into orders of at most 1800 (several GTTs)'),
    });
  });
});

describe('the rules a dry run lists', () => {
  it('names a band or freeze the broker does not give', () => {
    expect(checkedRules('NSE', 'INFY-EQ', { tick: '0.05', lot: 1, precision: 2 })).toEqual({
      instrument: 'NSE:INFY-EQ',
      tick: '0.05',
      lot: 1,
      precision: 2,
      band: 'not given by the broker',
      freeze: 'not given by the broker',
    });
  });
});
