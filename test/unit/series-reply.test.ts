/**
 * GET /quotes/series' reading of the broker's TPSeries bars (functions/base/schemas/series.ts,
 * functions/base/broker/series.ts): keys in any case, numbers as strings or numbers, the bar's time from `ssboe` or
 * from `time` in India time, oldest first on the instrument's precision; and the input's defaults and refusals.
 */
import { describe, expect, it } from 'vitest';

import { barTime, seriesJData, seriesResultOf } from '../../functions/base/broker/series.js';
import { indiaDayStart, seriesInput, seriesReply } from '../../functions/base/schemas/series.js';

const rules = { token: '2031', tick: '0.05', lot: 1, precision: 2 };
const input = { exch: 'NSE' as const, tsym: 'M&M-EQ', interval: 5, from: '', to: '', rules };

describe('the TPSeries reply', () => {
  it('reads keys in any case and numbers as numbers, oldest first, times as UTC ISO', () => {
    const reply = seriesReply.parse([
      { stat: 'Ok', Time: '07-12-2026 09:20:00', INTO: 3020, inth: '3020', Intl: 3015, intc: '3015', intv: '2' },
      { stat: 'Ok', time: '07-12-2026 09:15:00', into: '3000', inth: 3010.5, intl: '2995', intc: 3002.25, V: '4' },
    ]);
    expect(seriesResultOf(reply, input)).toEqual({
      exch: 'NSE',
      tsym: 'M&M-EQ',
      interval: 5,
      bars: [
        { time: '2026-12-07T03:45:00.000Z', open: '3000.00', high: '3010.50', low: '2995.00', close: '3002.25' },
        {
          time: '2026-12-07T03:50:00.000Z',
          open: '3020.00',
          high: '3020.00',
          low: '3015.00',
          close: '3015.00',
          volume: 2,
        },
      ],
    });
  });

  it('takes ssboe (epoch seconds) over time where both are given', () => {
    expect(barTime({ ssboe: '1796615100', time: '01-01-2020 09:15:00' })).toBe(1_796_615_100_000);
    expect(barTime({ time: '02-06-2020 15:46:23' })).toBe(Date.parse('2020-06-02T10:16:23Z'));
  });

  it('refuses a bar with no time and one whose price is not a number', () => {
    expect(seriesReply.safeParse([{ into: '1', inth: '1', intl: '1', intc: '1' }]).success).toBe(false);
    expect(seriesReply.safeParse([{ ssboe: '1', into: 'x', inth: '1', intl: '1', intc: '1' }]).success).toBe(false);
  });
});

describe('the series input', () => {
  it('defaults to 1-minute bars of today in India time, and sends epoch seconds', () => {
    const before = Date.now();
    const parsed = seriesInput.parse({ exch: 'NSE', tsym: 'M&M-EQ' });
    expect(parsed.interval).toBe(1);
    expect(Date.parse(parsed.from)).toBe(indiaDayStart(Date.parse(parsed.to)));
    expect(Date.parse(parsed.to)).toBeGreaterThanOrEqual(before - 1);
    const jData = seriesJData({ ...parsed, rules }, { uid: 'U1' });
    expect(jData).toEqual({
      uid: 'U1',
      exch: 'NSE',
      token: '2031',
      st: String(Math.floor(Date.parse(parsed.from) / 1000)),
      et: String(Math.floor(Date.parse(parsed.to) / 1000)),
      intrv: '1',
    });
    // 00:00 IST is 18:30 UTC the day before.
    expect(new Date(indiaDayStart(Date.parse('2026-12-07T10:00:00Z'))).toISOString()).toBe('2026-12-06T18:30:00.000Z');
  });

  it.each([
    [{ interval: '2' }, ['interval'], 'interval must be one of 1, 3, 5, 10, 15, 30, 60, 120, 240'],
    [{ from: '2026-12-07T10:00:00Z', to: '2026-12-07T09:00:00Z' }, ['from'], 'from must not be after to'],
    [{ to: '7 Dec' }, ['to'], 'to must be an ISO time'],
  ])('refuses %j naming the field', (extra, path, message) => {
    const parsed = seriesInput.safeParse({ exch: 'NSE', tsym: 'M&M-EQ', ...extra });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path, message: expect.stringContaining(message) });
  });
});
