/**
 * The console's formatters (console/src/format.ts) and its one-line event summaries (views/event-summary.ts): money
 * the Indian way, a trigger's distance from the last price, when a GTT fired in either form the API gives it, and what
 * each kind of event says (issue 58: the reason of a rejection, an OCO's legs, a trailing stop's move).
 */
import { describe, expect, it } from 'vitest';

import { distance, firedAtMs, firedTime, money, rupees, rupeesInWords } from '../../console/src/format.js';
import { eventSummary, newestFirst } from '../../console/src/views/event-summary.js';

describe('money in Indian form', () => {
  it('groups the last three digits, then twos', () => {
    expect(rupees(2500000)).toBe('₹25,00,000');
    expect(rupees('2500000')).toBe('₹25,00,000');
    expect(rupees(123456789)).toBe('₹12,34,56,789');
    expect(rupees(999)).toBe('₹999');
    expect(rupees(1000)).toBe('₹1,000');
    expect(rupees(100000)).toBe('₹1,00,000');
    expect(rupees(1234.5)).toBe('₹1,234.50');
    expect(rupees(-150000)).toBe('-₹1,50,000');
  });
  it('leaves what is not a number as it is, and nothing as a dash', () => {
    expect(rupees('off')).toBe('off');
    expect(rupees(undefined)).toBe('—');
    expect(rupees('')).toBe('—');
  });
  it('says lakh and crore', () => {
    expect(rupeesInWords(2500000)).toBe('₹25 lakh');
    expect(rupeesInWords(150000)).toBe('₹1.5 lakh');
    expect(rupeesInWords(15000000)).toBe('₹1.5 crore');
    expect(rupeesInWords(10000000)).toBe('₹1 crore');
    expect(rupeesInWords(99999)).toBe('₹99,999');
    expect(money('2500000')).toBe('₹25,00,000 (₹25 lakh)');
    expect(money(1500)).toBe('₹1,500');
    expect(money('off')).toBe('off');
  });
});

describe("a trigger's distance from the last price", () => {
  it('in points (the tick) and percent of the last price, above or below', () => {
    expect(distance('1510', '1490', '0.05')).toBe('20.00 below (1.32%)');
    expect(distance('1480', '1490', '0.05')).toBe('10.00 above (0.68%)');
    expect(distance(100, 100.05, '0.05')).toBe('0.05 above (0.05%)');
    expect(distance('1490', '1490.00', '0.05')).toBe('at the price');
  });
  it('is a dash without a last price or a trigger', () => {
    expect(distance(undefined, '1490')).toBe('—');
    expect(distance('1510', undefined)).toBe('—');
    expect(distance('0', '1490')).toBe('—');
    expect(distance('x', '1490')).toBe('—');
  });
});

describe('when a GTT fired', () => {
  it("reads the broker's India-time text and an ISO time alike", () => {
    expect(firedAtMs('23:37:26 27-11-2026')).toBe(Date.parse('2026-11-27T18:07:26Z'));
    expect(firedAtMs('2026-11-27T18:07:26.000Z')).toBe(Date.parse('2026-11-27T18:07:26Z'));
    expect(firedAtMs(undefined)).toBeUndefined();
    expect(firedAtMs('soon')).toBeUndefined();
    expect(firedTime('23:37:26 27-11-2026')).toBe(firedTime('2026-11-27T18:07:26Z'));
    expect(firedTime('2026-11-27T18:07:26Z')).toMatch(/^27 Nov,? 23:37:26 IST$/);
    expect(firedTime(undefined)).toBe('—');
  });
});

const ids = { observedAt: '2026-11-27T05:00:00.000Z', origin: 'watcher' };
const leg = (trigger: string, price: string, priceType = 'LMT') => ({
  trigger,
  side: 'S',
  quantity: 3,
  price,
  priceType,
});

describe('what an event says', () => {
  it("a rejection: the broker's code, words and what to do", () => {
    const text = eventSummary('Order Rejected', {
      ...ids,
      al_id: '42',
      exch: 'NSE',
      tsym: 'M&M-EQ',
      side: 'B',
      quantity: 2,
      order: {
        norenordno: '26112700000007',
        status: 'rejected',
        filledQty: 0,
        rejection: { code: 'RMS_MARGIN', hint: 'add funds or lower the quantity', text: 'Insufficient margin' },
      },
    });
    expect(text).toBe(
      'M&M-EQ (NSE) · buy · qty 2 · order 42 · order 26112700000007 rejected: RMS_MARGIN: Insufficient margin (add funds or lower the quantity)',
    );
  });
  it("an OCO: both legs' triggers, sides, quantities and prices, and which leg fired", () => {
    const placed = eventSummary('GTT Placed', {
      ...ids,
      al_id: '7',
      type: 'oco',
      exch: 'NSE',
      tsym: 'WIPRO-EQ',
      side: 'S',
      target: leg('1600', '1600'),
      stopLoss: leg('1400', '1395', 'SL-LMT'),
    });
    expect(placed).toBe(
      'WIPRO-EQ (NSE) · OCO · target 1600 (sell 3, LMT 1600) · stop 1400 (sell 3, SL-LMT 1395) · order 7',
    );
    const fired = eventSummary('GTT Triggered', {
      ...ids,
      al_id: '7',
      type: 'oco',
      exch: 'NSE',
      tsym: 'WIPRO-EQ',
      side: 'S',
      target: leg('1600', '1600'),
      stopLoss: leg('1400', '1395'),
      firedLeg: 'stopLoss',
      status: 'TRIGGERED',
    });
    expect(fired).toContain('stop leg fired');
    expect(fired).toContain('status TRIGGERED');
  });
  it("a trailing stop's move: the old and the new trigger", () => {
    const text = eventSummary('Plan Step', {
      ...ids,
      planId: 'p1',
      kind: 'trailing-stop',
      state: 'active',
      exch: 'NSE',
      tsym: 'WIPRO-EQ',
      step: 'stop-trailed',
      al_id: '9',
      oldTrigger: '1440',
      newTrigger: '1450',
    });
    expect(text).toBe('WIPRO-EQ (NSE) · order 9 · plan p1 · stop moved 1440 → 1450 · state active');
  });
  it("a price that could not be read is said as such, not as the read's error alone", () => {
    const text = eventSummary('Plan Step', {
      ...ids,
      planId: 'p1',
      kind: 'trailing-stop',
      state: 'active',
      exch: 'NSE',
      tsym: 'WIPRO-EQ',
      step: 'price-unavailable',
      reason: 'BROKER_REJECTED: no data',
    });
    expect(text).toBe(
      'WIPRO-EQ (NSE) · plan p1 · price unavailable: the stop is not trailing (BROKER_REJECTED: no data) · state active',
    );
  });
  it('the kill switch: its mode and counts', () => {
    expect(
      eventSummary('Kill Switch', { ...ids, halted: true, mode: 'keep-exits', cancelled: 2, kept: 1, failed: 0 }),
    ).toBe('on (keep-exits), 2 cancelled, 1 kept');
    expect(eventSummary('Kill Switch', { ...ids, halted: false, changedBy: 'http' })).toBe('off, by http');
  });
});

describe('the timeline', () => {
  const event = (eventId: string, publishedAt: string, origin: string) => ({
    detailType: 'GTT Placed',
    publishedAt,
    detail: { eventId, origin },
  });
  it('is newest first, each eventId once (the first producer kept)', () => {
    const shown = newestFirst([
      event('a', '2026-11-27T04:00:00.000Z', 'gateway'),
      event('b', '2026-11-27T04:00:01.000Z', 'gateway'),
      event('a', '2026-11-27T04:00:02.000Z', 'watcher'),
      event('c', '2026-11-27T04:00:03.000Z', 'watcher'),
    ]);
    expect(shown.map((e) => [e.detail.eventId, e.detail.origin])).toEqual([
      ['c', 'watcher'],
      ['b', 'gateway'],
      ['a', 'gateway'],
    ]);
  });
});
