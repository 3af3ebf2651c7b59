/**
 * The fate of a fired GTT's order: the book's records normalised (status, fills, rejection code with a hint), and
 * the rule that matches a fired GTT to the order it placed (exchange, symbol, side, quantity, tag, time; earliest
 * first; each order once).
 */
import { describe, expect, it } from 'vitest';

import {
  brokerTimeMs,
  classifyRejection,
  type FiredGtt,
  matchFiredOrders,
  normaliseBookOrder,
} from '../../functions/broker/order-fate.js';
import { type BookOrder, orderBookRecord } from '../../functions/schemas/reply.js';

const record = (over: Record<string, unknown> = {}) =>
  orderBookRecord.parse({
    stat: 'Ok',
    norenordno: '26112350000001',
    exch: 'NSE',
    tsym: 'INFY-EQ',
    trantype: 'B',
    qty: '5',
    prc: '1500',
    prctyp: 'LMT',
    prd: 'C',
    status: 'COMPLETE',
    fillshares: '5',
    avgprc: '1499.95',
    remarks: 'dip-buy',
    norentm: '10:15:03 23-11-2026',
    ...over,
  });

describe('rejection texts', () => {
  it.each([
    ['Invalid Input : Order Recieved 11 in a current second exceeds Limit 10 for user', 'RATE_LIMITED'],
    ['ALGO_CHK: MKT Order type not allowed for API order', 'MARKET_ORDER_REFUSED'],
    ['Session Expired :  Invalid Session Key', 'SESSION_EXPIRED'],
    ['RED:Margin Shortfall:INR 1,000.00 Available:INR 0.00', 'INSUFFICIENT_FUNDS'],
    ['Insufficient Funds', 'INSUFFICIENT_FUNDS'],
    ['Price is outside the circuit limits', 'PRICE_OUTSIDE_BAND'],
    ['EDIS authorization required for sell', 'TPIN_REQUIRED'],
    ['Something nobody has seen', 'BROKER_REJECTED'],
  ])('%s -> %s, with a hint and the words kept', (text, code) => {
    const rejection = classifyRejection(text);
    expect(rejection).toMatchObject({ code, text });
    expect(rejection.hint.length).toBeGreaterThan(20);
  });
});

describe('order book records', () => {
  it('a complete order is filled, with its average price and the GTT tag', () => {
    expect(normaliseBookOrder(record())).toEqual({
      norenordno: '26112350000001',
      exch: 'NSE',
      tsym: 'INFY-EQ',
      side: 'B',
      qty: 5,
      price: '1500',
      priceType: 'LMT',
      product: 'C',
      status: 'filled',
      brokerStatus: 'COMPLETE',
      filledQty: 5,
      averagePrice: '1499.95',
      tag: 'dip-buy',
      placedAt: '10:15:03 23-11-2026',
    });
  });

  it.each<[Record<string, unknown>, string, number]>([
    [{ status: 'OPEN', fillshares: '0' }, 'open', 0],
    [{ status: 'OPEN', fillshares: '2' }, 'partially-filled', 2],
    [{ status: 'CANCELED', fillshares: '0' }, 'cancelled', 0],
    [{ status: 'CANCELED', fillshares: '3' }, 'partially-filled', 3],
    [{ status: 'TRIGGER_PENDING', fillshares: undefined }, 'open', 0],
  ])('%j is %s', (over, status, filled) => {
    expect(normaliseBookOrder(record(over))).toMatchObject({ status, filledQty: filled });
  });

  it('a rejected order says why, as a code with a hint', () => {
    const rejected = normaliseBookOrder(
      record({ status: 'REJECTED', fillshares: '0', avgprc: undefined, rejreason: 'RMS:Margin Exceeds' }),
    );
    expect(rejected).toMatchObject({
      status: 'rejected',
      rejection: { code: 'INSUFFICIENT_FUNDS', text: 'RMS:Margin Exceeds' },
    });
    expect(rejected).not.toHaveProperty('averagePrice');
  });
});

describe('matching a fired GTT to its order', () => {
  const book = (over: Partial<BookOrder>): BookOrder => ({ ...normaliseBookOrder(record()), ...over });
  const fired = (over: Partial<FiredGtt> = {}): FiredGtt => ({
    exch: 'NSE',
    tsym: 'INFY-EQ',
    side: 'B',
    qty: 5,
    tag: 'dip-buy',
    firedAt: '10:15:02 23-11-2026',
    ...over,
  });

  it('reads India time', () => {
    expect(brokerTimeMs('10:15:02 23-11-2026')).toBe(Date.UTC(2026, 10, 23, 4, 45, 2));
    expect(brokerTimeMs('not a time')).toBeUndefined();
  });

  it('by exchange, symbol, side, quantity and tag; placed no earlier than 5 s before the firing', () => {
    const orders = [
      book({ norenordno: '1', side: 'S' }),
      book({ norenordno: '2', qty: 4 }),
      book({ norenordno: '3', tag: 'other' }),
      book({ norenordno: '4', placedAt: '10:14:50 23-11-2026' }),
      book({ norenordno: '5', placedAt: '10:15:03 23-11-2026' }),
    ];
    expect(matchFiredOrders([fired()], orders).map((o) => o?.norenordno)).toEqual(['5']);
    // Nothing in the book yet: no match, not a wrong one.
    expect(matchFiredOrders([fired()], orders.slice(0, 4))).toEqual([undefined]);
  });

  it('two like GTTs take one order each, in the order they fired; a GTT without a tag matches on the rest', () => {
    const orders = [
      book({ norenordno: 'late', placedAt: '10:16:01 23-11-2026' }),
      book({ norenordno: 'early', placedAt: '10:15:03 23-11-2026' }),
    ];
    const second = fired({ firedAt: '10:16:00 23-11-2026' });
    const first = fired({ firedAt: '10:15:02 23-11-2026', tag: undefined });
    expect(matchFiredOrders([second, first], orders).map((o) => o?.norenordno)).toEqual(['late', 'early']);
  });
});
