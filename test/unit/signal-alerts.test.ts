/** Each source's body read into alerts (functions/signals/alerts.ts), and what a body that cannot be read names. */
import { describe, expect, it } from 'vitest';

import type { SignalAction, SignalSource } from '../../functions/base/schemas/signals.js';
import { readAlerts } from '../../functions/signals/alerts.js';

const GTT: SignalAction = {
  kind: 'gtt',
  order: { prd: 'C', prctyp: 'LMT', ret: 'DAY' },
  trigger: { offset: '0' },
  price: { offset: '0' },
};
const read = (source: SignalSource, body: unknown, action: SignalAction = GTT) =>
  readAlerts({ source, action }, typeof body === 'string' ? body : JSON.stringify(body));
const fields = (r: ReturnType<typeof readAlerts>) => ('problems' in r ? r.problems.map((p) => p.field) : []);

describe('TradingView', () => {
  it('reads action in any case, price as a number or a string, qty and id; ignores other fields', () => {
    expect(
      read('tradingview', { action: 'Sell', ticker: 'NSE:INFY', price: '1500.05', qty: '3', id: 42, interval: '5' }),
    ).toEqual({ alerts: [{ side: 'S', ticker: 'NSE:INFY', price: '1500.05', qty: 3, id: '42' }] });
  });

  it('names every bad field, and the shape expected', () => {
    const r = read('tradingview', { action: 'hold', ticker: 'IN FY', price: -1, qty: 1.5 });
    expect(fields(r)).toEqual(['action', 'ticker', 'price', 'qty']);
    expect('expected' in r && r.expected).toContain('"action": "buy" | "sell"');
    expect(fields(read('tradingview', 'buy INFY'))).toEqual(['(body)']);
    expect(fields(read('tradingview', [{ action: 'buy', ticker: 'INFY' }]))).toEqual(['(body)']);
  });

  it('asks for what the action needs: a symbol unless fixed, a side unless fixed; a kill switch needs nothing', () => {
    expect(fields(read('tradingview', { price: 1 }))).toEqual(['ticker', 'action']);
    const fixed: SignalAction = { ...GTT, order: { ...GTT.order, tsym: 'INFY-EQ', trantype: 'B' } };
    expect(read('tradingview', { price: 1 }, fixed)).toEqual({ alerts: [{ price: '1' }] });
    expect(read('tradingview', {}, { kind: 'kill-switch' })).toEqual({ alerts: [{}] });
  });
});

describe('ChartInk', () => {
  const body = { stocks: 'SBIN, ITC', trigger_prices: '800.5,410', triggered_at: '2:34 pm', scan_name: 's' };
  const buys: SignalAction = { ...GTT, order: { ...GTT.order, trantype: 'B' } };

  it('one alert per stock at its trigger price', () => {
    expect(read('chartink', body, buys)).toEqual({
      alerts: [
        { ticker: 'SBIN', price: '800.5' },
        { ticker: 'ITC', price: '410' },
      ],
    });
  });

  it('a count mismatch, no stocks, or no side in the strategy is named', () => {
    expect(fields(read('chartink', { ...body, trigger_prices: '800.5' }, buys))).toEqual(['trigger_prices']);
    expect(fields(read('chartink', { scan_name: 's' }, buys))).toEqual(['stocks']);
    const r = read('chartink', body);
    expect(fields(r)).toEqual(['[0].action', '[1].action']);
    expect('problems' in r && r.problems[0]!.message).toContain('action.order.trantype');
  });
});

describe('Amibroker and generic JSON', () => {
  it('reads side or action, symbol or ticker, one object or an array', () => {
    expect(
      read('amibroker', [
        { side: 'B', symbol: 'SBIN', exchange: 'nse', price: 800 },
        { action: 'sell', ticker: 'ITC' },
      ]),
    ).toEqual({
      alerts: [
        { side: 'B', ticker: 'SBIN', exchange: 'NSE', price: '800' },
        { side: 'S', ticker: 'ITC' },
      ],
    });
    expect(read('generic', { side: 's', symbol: 'TCS' })).toEqual({ alerts: [{ side: 'S', ticker: 'TCS' }] });
  });

  it('names the element of an array, and refuses an empty or too long one', () => {
    expect(
      fields(
        read('generic', [
          { side: 'B', symbol: 'SBIN' },
          { side: 'X', symbol: 'ITC' },
        ]),
      ),
    ).toEqual(['[1].side']);
    expect(fields(read('generic', []))).toEqual(['(body)']);
    expect(
      fields(
        read(
          'generic',
          Array.from({ length: 21 }, () => ({ side: 'B', symbol: 'SBIN' })),
        ),
      ),
    ).toEqual(['(body)']);
  });
});
