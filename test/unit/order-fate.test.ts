/**
 * The fate of a fired GTT's order: the book's records normalised (status, fills, rejection code with a hint), and
 * the rule that matches a fired GTT to the order it placed (exchange, symbol, side, quantity, time; an order's remarks
 * only to the GTT of that tag; a tagged GTT to an order without remarks only when unambiguous; each order once).
 */
import { describe, expect, it } from 'vitest';

import {
  brokerTimeMs,
  classifyRejection,
  type FiredGtt,
  matchFiredOrders,
  normaliseBookOrder,
} from '../../functions/base/broker/order-fate.js';
import { type BookOrder, orderBookRecord } from '../../functions/base/schemas/reply.js';

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

  it('a partial fill cancelled at the close of the day is partially filled, with what it filled', () => {
    expect(
      normaliseBookOrder(record({ qty: '10', status: 'CANCELED', fillshares: '4', avgprc: '1500' })),
    ).toMatchObject({
      status: 'partially-filled',
      brokerStatus: 'CANCELED',
      qty: 10,
      filledQty: 4,
      averagePrice: '1500',
    });
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

  it('two like GTTs take one order each, in the order they fired; a GTT without a tag takes an order without remarks', () => {
    const orders = [
      book({ norenordno: 'late', placedAt: '10:16:01 23-11-2026' }),
      book({ norenordno: 'early', placedAt: '10:15:03 23-11-2026', tag: undefined }),
    ];
    const second = fired({ firedAt: '10:16:00 23-11-2026' });
    const first = fired({ firedAt: '10:15:02 23-11-2026', tag: undefined });
    expect(matchFiredOrders([second, first], orders).map((o) => o?.norenordno)).toEqual(['late', 'early']);
  });

  it("an untagged GTT never steals a tagged GTT's order, whichever fired first", () => {
    const tagged = fired({ tag: 'swing', firedAt: '10:15:02 23-11-2026' });
    const untagged = fired({ tag: undefined, firedAt: '10:15:02 23-11-2026' });
    const swing = book({ norenordno: 'swing', tag: 'swing', placedAt: '10:15:03 23-11-2026' });
    const plain = book({ norenordno: 'plain', tag: undefined, placedAt: '10:15:04 23-11-2026' });
    for (const [untaggedAt, taggedAt] of [
      ['10:15:01 23-11-2026', '10:15:02 23-11-2026'],
      ['10:15:02 23-11-2026', '10:15:01 23-11-2026'],
    ] as const) {
      const gtts = [
        { ...untagged, firedAt: untaggedAt },
        { ...tagged, firedAt: taggedAt },
      ];
      expect(matchFiredOrders(gtts, [swing, plain]).map((o) => o?.norenordno)).toEqual(['plain', 'swing']);
      expect(matchFiredOrders(gtts, [plain, swing]).map((o) => o?.norenordno)).toEqual(['plain', 'swing']);
      // Its own order not in the book yet: the untagged GTT waits rather than take the tagged one's.
      expect(matchFiredOrders(gtts, [swing]).map((o) => o?.norenordno)).toEqual([undefined, 'swing']);
    }
  });

  it('an untagged GTT never takes an order with remarks', () => {
    const orders = [book({ norenordno: 'tagged', tag: 'swing' }), book({ norenordno: 'other', tag: 'dip-buy' })];
    expect(matchFiredOrders([fired({ tag: undefined })], orders)).toEqual([undefined]);
  });

  it('an order with remarks answers only to the GTT of exactly that tag', () => {
    const orders = [book({ norenordno: 'case', tag: 'Swing' }), book({ norenordno: 'prefix', tag: 'swing-2' })];
    expect(matchFiredOrders([fired({ tag: 'swing' })], orders)).toEqual([undefined]);
  });

  describe('a tagged GTT at a broker that drops the remarks from the order', () => {
    const plain = (norenordno: string, placedAt = '10:15:03 23-11-2026') =>
      book({ norenordno, tag: undefined, placedAt });

    it('takes the order when it is the only GTT that could, and that the only order it could take', () => {
      expect(matchFiredOrders([fired({ tag: 'swing' })], [plain('only')]).map((o) => o?.norenordno)).toEqual(['only']);
      // A like order placed before the window is no candidate.
      const orders = [plain('before', '10:14:50 23-11-2026'), plain('only')];
      expect(matchFiredOrders([fired({ tag: 'swing' })], orders).map((o) => o?.norenordno)).toEqual(['only']);
    });

    it('two GTTs that could take the same orders: both left unmatched, not guessed', () => {
      const gtts = [fired({ tag: 'swing' }), fired({ tag: 'dip-buy', firedAt: '10:15:03 23-11-2026' })];
      expect(matchFiredOrders(gtts, [plain('a'), plain('b', '10:15:04 23-11-2026')])).toEqual([undefined, undefined]);
      expect(matchFiredOrders(gtts, [plain('a')])).toEqual([undefined, undefined]);
    });

    it('two orders it could take: left unmatched', () => {
      const orders = [plain('a'), plain('b', '10:15:04 23-11-2026')];
      expect(matchFiredOrders([fired({ tag: 'swing' })], orders)).toEqual([undefined]);
    });

    it('an untagged GTT of the same kind makes it ambiguous; the untagged one still takes the earliest', () => {
      const gtts = [fired({ tag: 'swing' }), fired({ tag: undefined })];
      const orders = [plain('a'), plain('b', '10:15:04 23-11-2026')];
      expect(matchFiredOrders(gtts, orders).map((o) => o?.norenordno)).toEqual([undefined, 'a']);
    });
  });
});
