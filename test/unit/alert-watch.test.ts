/**
 * What a single GTT's alert compares its trigger with, read from a quote (functions/base/schemas/alert-watch.ts):
 * the last price for the LTP and 52-week types, the figure of its own for the others, and the reason where the quote
 * lacks it, never the last price in its place; the distance in points (and percent of the value but for a change).
 */
import { describe, expect, it } from 'vitest';

import { watchedFigureKey } from '../../client/cli/commands/last-prices.js';
import { ALERT_TYPES } from '../../functions/base/schemas/alert-types.js';
import { triggerDistance, watchedValue } from '../../functions/base/schemas/alert-watch.js';

const QUOTE = {
  lp: '1530',
  figures: { changePercent: '2.00', averagePrice: '1512.40', openInterest: '150020', volume: '0' },
};

describe('the value an alert watches', () => {
  it.each([
    ['LTP_B_O', 'last price', 1530],
    ['LTP_A_52HIGH', 'last price', 1530],
    ['LTP_B_52LOW', 'last price', 1530],
    [undefined, 'last price', 1530],
    ['CH_PER_A_O', 'change', 2],
    ['ATP_B_O', 'average price', 1512.4],
    ['OI_A_O', 'open interest', 150020],
    ['VOLUME_A_O', 'volume', 0],
  ])('%s watches the %s', (alertType, what, value) => {
    expect(watchedValue(alertType, QUOTE)).toMatchObject({ what, value });
  });

  it('says why where the quote lacks the figure, and does not fall back on the last price', () => {
    expect(watchedValue('TOI_B_O', QUOTE)).toEqual({
      what: 'total open interest',
      unavailable: "the broker's quote gives no total open interest",
    });
    expect(watchedValue('ATP_A_O', { lp: '1530' })).toMatchObject({ unavailable: expect.stringContaining('average') });
    expect(watchedValue('LTP_A_O', { figures: QUOTE.figures })).toMatchObject({
      what: 'last price',
      unavailable: expect.any(String),
    });
  });
});

describe('how far the trigger lies from it', () => {
  it('a price in points and percent of the value, in its decimals', () => {
    expect(triggerDistance('ATP_A_O', '1520', 1512.4, 2)).toEqual({ points: '+7.60', pct: '+0.50' });
  });
  it('a change in percentage points, no percent of a percent', () => {
    expect(triggerDistance('CH_PER_B_O', '-1.5', 2, 2)).toEqual({ points: '-3.50' });
  });
  it('a count in whole units, and no percent of a value of 0', () => {
    expect(triggerDistance('OI_A_O', '160000', 150020)).toEqual({ points: '+9980', pct: '+6.65' });
    expect(triggerDistance('VOLUME_A_O', '250000', 0)).toEqual({ points: '+250000' });
  });

  it("the command line's copy measures every alert type against the same figure as the gateway", () => {
    const figures = {
      changePercent: '2',
      averagePrice: '3',
      openInterest: '4',
      totalOpenInterest: '5',
      volume: '6',
    };
    const quote = { lp: '1', figures };
    for (const type of ALERT_TYPES) {
      const key = watchedFigureKey(type) as keyof typeof figures | undefined;
      expect(watchedValue(type, quote), type).toMatchObject({ text: key === undefined ? '1' : figures[key] });
    }
  });
});
