/**
 * The broker's PositionBook read tolerantly (functions/base/broker/positions.ts): keys in any case, numbers as strings
 * or numbers, a dialect without `urmtom` worked out from `lp`, open positions first, totals to the paisa; a record
 * without its quantity is refused, never read as flat.
 */
import { describe, expect, it } from 'vitest';

import { positionsResultOf } from '../../functions/base/broker/positions.js';
import { positionsReply } from '../../functions/base/schemas/positions.js';

const read = (records: unknown[]) => positionsResultOf(positionsReply.parse(records));

describe('PositionBook read tolerantly', () => {
  it('the canonical record (NorenRestApiPy get_positions)', () => {
    const result = read([
      {
        stat: 'Ok',
        exch: 'NSE',
        tsym: 'INFY-EQ',
        token: '1594',
        prd: 'I',
        netqty: '-3',
        netavgprc: '1510.00',
        daybuyqty: '2',
        daysellqty: '5',
        lp: '1500.05',
        rpnl: '40.10',
        urmtom: '29.85',
        prcftr: '1.000000',
      },
    ]);
    expect(result.positions).toEqual([
      {
        exch: 'NSE',
        tsym: 'INFY-EQ',
        token: '1594',
        product: 'I',
        netQty: -3,
        averagePrice: 1510,
        lastPrice: 1500.05,
        realised: 40.1,
        unrealised: 29.85,
        boughtQty: 2,
        soldQty: 5,
        priceFactor: 1,
      },
    ]);
    expect(result.totals).toEqual({ realised: 40.1, unrealised: 29.85, total: 69.95, open: 1 });
  });

  it('keys in any case and numbers as numbers; urmtom left out is worked out from lp and the price factor', () => {
    const [p] = read([
      { EXCH: 'MCX', Tsym: 'GOLDM', PRD: 'M', NetQty: 2, NETAVGPRC: 100.5, LP: 101, PRCFTR: 10 },
    ]).positions;
    expect(p).toMatchObject({ exch: 'MCX', netQty: 2, averagePrice: 100.5, unrealised: 10, priceFactor: 10 });
  });

  it('open positions first, then by exchange and symbol; a closed one has no average', () => {
    const result = read([
      { exch: 'NSE', tsym: 'A-EQ', prd: 'C', netqty: '0', netavgprc: '10', rpnl: '0.1' },
      { exch: 'NSE', tsym: 'Z-EQ', prd: 'C', netqty: '1', netavgprc: '10', rpnl: '0.2' },
    ]);
    expect(result.positions.map((p) => [p.tsym, p.averagePrice])).toEqual([
      ['Z-EQ', 10],
      ['A-EQ', 0],
    ]);
    // 0.1 + 0.2 is 0.30000000000000004 in floating point: the totals are to the paisa.
    expect(result.totals.realised).toBe(0.3);
    expect(result.totals.open).toBe(1);
  });

  it('a record without its net quantity, or with one that is not a number, is refused', () => {
    expect(() => read([{ exch: 'NSE', tsym: 'A-EQ', prd: 'C' }])).toThrow();
    expect(() => read([{ exch: 'NSE', tsym: 'A-EQ', prd: 'C', netqty: 'five' }])).toThrow();
  });
});
