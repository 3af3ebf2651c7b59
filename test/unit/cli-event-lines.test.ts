/**
 * `gtt events` lines (client/cli/commands/event-lines.ts): India time with its offset first; a signal's strategy and
 * why it was refused; what a fired order became and the price it filled at; an OCO's both legs (trigger, side,
 * quantity), a trailed stop's old and new trigger, a price that could not be read said as such (issue 58, item 4).
 */
import { describe, expect, it } from 'vitest';

import { eventsTable } from '../../client/cli/commands/event-lines.js';
import type { EventsPage } from '../../client/types.js';

const page = (events: { detailType: string; publishedAt: string; detail: Record<string, unknown> }[]): EventsPage => ({
  events,
  since: '2026-11-26T18:30:00.000Z',
});

describe('gtt events, one line each', () => {
  it("a refused signal names its strategy, the alert's symbols, the code and the reason", () => {
    const text = eventsTable(
      page([
        {
          detailType: 'Signal Refused',
          publishedAt: '2026-11-27T05:21:02.114Z',
          detail: {
            signalId: 's-1',
            strategyId: 'st-9',
            strategyName: 'nifty-breakout',
            source: 'chartink',
            tickers: ['SBIN', 'INFY'],
            code: 'VALIDATION_FAILED',
            reason: 'the strategy has no order.trantype: ChartInk never sends a side',
          },
        },
      ]),
    );
    expect(text).toBe(
      '2026-11-27 10:51:02 +05:30  Signal Refused   strategy nifty-breakout  SBIN,INFY  code VALIDATION_FAILED  ' +
        'reason: the strategy has no order.trantype: ChartInk never sends a side',
    );
  });

  it('an acted signal says what it placed; without a name the strategy id', () => {
    const text = eventsTable(
      page([
        {
          detailType: 'Signal Acted',
          publishedAt: '2026-11-27T05:21:02Z',
          detail: { strategyId: 'st-9', mode: 'paper', results: [{ ticker: 'SBIN', tsym: 'SBIN-EQ', alId: '1' }] },
        },
      ]),
    );
    expect(text).toBe('2026-11-27 10:51:02 +05:30  Signal Acted     strategy st-9  (paper)  SBIN-EQ al_id=1');
  });

  it('a filled order shows the fill and its price; a triggered GTT when it fired, in India time', () => {
    const text = eventsTable(
      page([
        {
          detailType: 'GTT Triggered',
          publishedAt: '2026-11-27T05:21:03Z',
          detail: {
            al_id: '26112700000001',
            exch: 'NSE',
            tsym: 'SBIN-EQ',
            side: 'B',
            quantity: 1,
            trigger: '800',
            triggeredAt: '2026-11-27T05:21:01.000Z',
            status: 'TRIGGERED',
          },
        },
        {
          detailType: 'Order Filled',
          publishedAt: '2026-11-27T05:21:04Z',
          detail: {
            al_id: '26112700000001',
            exch: 'NSE',
            tsym: 'SBIN-EQ',
            side: 'B',
            quantity: 1,
            order: { norenordno: '26112750000001', status: 'filled', filledQty: 1, averagePrice: '799.5' },
            origin: 'watcher',
          },
        },
      ]),
    ).split('\n');
    expect(text[0]).toBe(
      '2026-11-27 10:51:03 +05:30  GTT Triggered    al_id=26112700000001  NSE:SBIN-EQ  B  qty 1  trigger 800  ' +
        'fired 2026-11-27 10:51:01 +05:30',
    );
    expect(text[1]).toBe(
      '2026-11-27 10:51:04 +05:30  Order Filled     al_id=26112700000001  NSE:SBIN-EQ  B  qty 1  ' +
        'order 26112750000001 filled 1 @ 799.5  (watcher)',
    );
  });

  it("an OCO shows both legs' triggers, sides and quantities, the fired one marked", () => {
    const leg = (trigger: string) => ({ trigger, side: 'S', quantity: 5, price: trigger, priceType: 'LMT' });
    const detail = {
      al_id: '26112700000002',
      type: 'oco',
      exch: 'NSE',
      tsym: 'INFY-EQ',
      side: 'S',
      target: leg('1600'),
      stopLoss: leg('1400'),
      origin: 'gateway',
    };
    const [placed, fired] = eventsTable(
      page([
        { detailType: 'GTT Placed', publishedAt: '2026-11-27T05:21:03Z', detail },
        {
          detailType: 'GTT Triggered',
          publishedAt: '2026-11-27T05:21:04Z',
          detail: { ...detail, firedLeg: 'stopLoss', status: 'TRIGGERED', origin: 'watcher' },
        },
      ]),
    ).split('\n');
    expect(placed).toBe(
      '2026-11-27 10:51:03 +05:30  GTT Placed       al_id=26112700000002  NSE:INFY-EQ  S  ' +
        'target 1600 S 5 / stop-loss 1400 S 5  (gateway)',
    );
    expect(fired).toContain('target 1600 S 5 / stop-loss 1400 S 5 (fired)');
  });

  it("a trailed stop shows its old and new trigger, not the plan's state; a price unavailable says so", () => {
    const plan = { planId: 'pl1', kind: 'trailing-stop', state: 'armed', exch: 'NSE', tsym: 'WIPRO-EQ' };
    const [trailed, unavailable, older] = eventsTable(
      page([
        {
          detailType: 'Plan Step',
          publishedAt: '2026-11-27T05:21:03Z',
          detail: { ...plan, step: 'stop-trailed', al_id: '7', oldTrigger: '1400', newTrigger: '1420' },
        },
        {
          detailType: 'Plan Step',
          publishedAt: '2026-11-27T05:21:04Z',
          detail: {
            ...plan,
            step: 'price-unavailable',
            reason: 'price unavailable: the broker has no quote for NSE:WIPRO-EQ yet; the stop stays at 1420',
          },
        },
        {
          detailType: 'Plan Step',
          publishedAt: '2026-11-27T05:21:05Z',
          detail: { ...plan, step: 'price-unavailable', reason: 'BROKER_UNAVAILABLE: HTTP 503' },
        },
      ]),
    ).split('\n');
    expect(trailed).toBe(
      '2026-11-27 10:51:03 +05:30  Plan Step        al_id=7  plan=pl1  NSE:WIPRO-EQ  stop 1400 -> 1420',
    );
    expect(unavailable).toBe(
      '2026-11-27 10:51:04 +05:30  Plan Step        plan=pl1  NSE:WIPRO-EQ  ' +
        'reason: price unavailable: the broker has no quote for NSE:WIPRO-EQ yet; the stop stays at 1420',
    );
    expect(older).toContain('price unavailable  reason: BROKER_UNAVAILABLE: HTTP 503');
    expect([trailed, unavailable, older].join('\n')).not.toContain('state armed');
  });

  it('no events: since when, in India time', () => {
    expect(eventsTable(page([]))).toBe('no events since 2026-11-27 00:00:00 +05:30');
  });
});
