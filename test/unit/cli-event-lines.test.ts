/**
 * `gtt events` lines (client/cli/commands/event-lines.ts): India time with its offset first; a signal's strategy and
 * why it was refused; what a fired order became and the price it filled at.
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
            triggeredAt: '10:51:01 27-11-2026',
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

  it('no events: since when, in India time', () => {
    expect(eventsTable(page([]))).toBe('no events since 2026-11-27 00:00:00 +05:30');
  });
});
