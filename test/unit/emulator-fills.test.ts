/**
 * The emulator's fill rules (emulator/state/order-book.ts, docs/reference/emulator.md "The market"), on the order book itself:
 * a limit order fills only at a price the market reached. Marketable when it arrives: at the market's price (never
 * worse than the limit). Not marketable (a gap past the limit): OPEN, resting, until a later price reaches the limit,
 * then filled at the limit. A market order fills at the market. A buy is the mirror of a sell.
 */
import { describe, expect, it } from 'vitest';

import { fillPrice, marketable, OrderBook } from '../../emulator/state/order-book.js';
import type { GttOrder } from '../../emulator/state/state.js';

const NOW = new Date('2026-12-07T05:00:00Z');
let counter = 0;
const book = () => new OrderBook(() => String(26120760000000 + ++counter));

const gtt = (over: Partial<GttOrder>): GttOrder => ({
  kind: 'gtt',
  al_id: '26120700000001',
  uid: 'DEMO01',
  actid: 'DEMO01',
  state: 'triggered',
  exch: 'NSE',
  tsym: 'WIPRO-EQ',
  ai_t: 'LTP_B_O',
  validity: 'GTT',
  remarks: '',
  ordersource: 'API',
  ipaddr: '127.0.0.1',
  norentm: '10:30:00 07-12-2026',
  qty: 1,
  prc: '1455',
  prd: 'C',
  trantype: 'S',
  prctyp: 'LMT',
  ret: 'DAY',
  d: '1460',
  ...over,
});

const statusOf = (b: OrderBook, norenordno: string) => b.orders.get(norenordno)!.history[0]!;

describe('marketable and the fill price on arrival', () => {
  it('a sell limit trades at or below the market, a buy limit at or above it', () => {
    expect(marketable('S', '1455', 1455)).toBe(true);
    expect(marketable('S', '1455', 1460)).toBe(true);
    expect(marketable('S', '1455', 1450)).toBe(false);
    expect(marketable('B', '1500', 1500)).toBe(true);
    expect(marketable('B', '1500', 1490)).toBe(true);
    expect(marketable('B', '1500', 1510)).toBe(false);
  });

  it("a marketable limit fills at the market's price, which is the limit or better", () => {
    expect(fillPrice('S', '1455', 1461.5)).toBe('1461.5');
    expect(fillPrice('B', '1500', 1484.5)).toBe('1484.5');
  });
});

describe('a fired order meets the market', () => {
  it('a sell limit 1455 through a gap to 1450 stays OPEN, resting, with nothing filled', () => {
    const b = book();
    const placed = b.placeFired(gtt({}), 'x', 1450, NOW);
    expect(statusOf(b, placed.norenordno)).toMatchObject({ status: 'OPEN', fillshares: 0 });
    expect(placed.resting).toBe(true);
    expect(b.matchResting('NSE', 'WIPRO-EQ', 1454.95, NOW)).toEqual([]);
    expect(statusOf(b, placed.norenordno).status).toBe('OPEN');
  });

  it('the resting sell fills at its limit (1455) when the market trades at or above it, once', () => {
    const b = book();
    const placed = b.placeFired(gtt({}), 'x', 1450, NOW);
    expect(b.matchResting('NSE', 'WIPRO-EQ', 1458, NOW).map((o) => o.norenordno)).toEqual([placed.norenordno]);
    expect(statusOf(b, placed.norenordno)).toMatchObject({ status: 'COMPLETE', fillshares: 1, avgprc: '1455' });
    expect(b.matchResting('NSE', 'WIPRO-EQ', 1470, NOW)).toEqual([]);
    expect(b.orders.get(placed.norenordno)!.history.map((h) => h.status)).toEqual(['COMPLETE', 'OPEN', 'PENDING']);
  });

  it('a buy limit is the mirror: 1500 with the market at 1510 rests; it fills at 1500 when the market falls to it', () => {
    const b = book();
    const placed = b.placeFired(gtt({ trantype: 'B', prc: '1500', ai_t: 'LTP_A_O', d: '1505' }), 'x', 1510, NOW);
    expect(statusOf(b, placed.norenordno).status).toBe('OPEN');
    expect(b.matchResting('NSE', 'WIPRO-EQ', 1500.05, NOW)).toEqual([]);
    expect(b.matchResting('NSE', 'WIPRO-EQ', 1490, NOW)).toHaveLength(1);
    expect(statusOf(b, placed.norenordno)).toMatchObject({ status: 'COMPLETE', avgprc: '1500' });
  });

  it("a marketable limit on arrival fills at once at the market's price", () => {
    const b = book();
    const sell = b.placeFired(gtt({}), 'x', 1459.5, NOW);
    expect(statusOf(b, sell.norenordno)).toMatchObject({ status: 'COMPLETE', fillshares: 1, avgprc: '1459.5' });
    const buy = b.placeFired(gtt({ trantype: 'B', prc: '1500' }), 'x', 1499, NOW);
    expect(statusOf(b, buy.norenordno)).toMatchObject({ status: 'COMPLETE', avgprc: '1499' });
    expect(sell.resting).toBeUndefined();
  });

  it('a market order fills at the market, whatever the gap', () => {
    const b = book();
    const placed = b.placeFired(gtt({ prctyp: 'MKT', prc: '0' }), 'x', 1400, NOW);
    expect(statusOf(b, placed.norenordno)).toMatchObject({ status: 'COMPLETE', avgprc: '1400' });
  });

  it("resting orders of another symbol, and orders left open by the control surface's word, do not fill", () => {
    const b = book();
    const resting = b.placeFired(gtt({ tsym: 'INFY-EQ' }), 'x', 1450, NOW);
    b.queue({ status: 'open' });
    const held = b.placeFired(gtt({}), 'x', 1450, NOW);
    expect(b.matchResting('NSE', 'WIPRO-EQ', 1460, NOW)).toEqual([]);
    expect(statusOf(b, held.norenordno).status).toBe('OPEN');
    expect(statusOf(b, resting.norenordno).status).toBe('OPEN');
  });

  it('the close of the day cancels a resting order; it never fills after that', () => {
    const b = book();
    const placed = b.placeFired(gtt({}), 'x', 1450, NOW);
    expect(b.close(NOW)).toEqual([placed.norenordno]);
    expect(b.matchResting('NSE', 'WIPRO-EQ', 1460, NOW)).toEqual([]);
    expect(statusOf(b, placed.norenordno)).toMatchObject({ status: 'CANCELED', fillshares: 0 });
  });
});
