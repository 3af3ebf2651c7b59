/**
 * `gtt series <tsym>`: an instrument's price bars of today (or `--from`/`--to`), `--interval` minutes each
 * (`GET /quotes/series`), one line a bar, oldest first, in India time.
 */
import type { Series, SeriesQuery } from '../../types.js';
import { command, may } from '../command.js';
import { istTime } from '../render.js';

const seriesText = (s: Series): string => {
  const head = `${s.exch}:${s.tsym}  ${s.interval}-minute bars`;
  if (s.bars.length === 0) return `${head}: none in the span (no price moved)`;
  const lines = s.bars.map(
    (b) =>
      `${istTime(b.time).slice(0, 16)}  O ${b.open}  H ${b.high}  L ${b.low}  C ${b.close}` +
      (b.volume === undefined ? '' : `  V ${b.volume}`),
  );
  return [`${head} (India time):`, ...lines].join('\n');
};

export const series = command({
  name: 'series',
  args: ['tsym'],
  flags: [may('exch', 'NSE'), may('interval', '1'), may('from', 'ISO'), may('to', 'ISO')],
  summary: "an instrument's price bars of today, oldest first (--interval minutes: 1, 3, 5, 10, 15, 30, 60, 120, 240)",
  input: (f, args): SeriesQuery => {
    const optional = (name: 'interval' | 'from' | 'to') => {
      const value = f.str(name);
      return value === undefined ? {} : { [name]: value };
    };
    return {
      exch: (f.str('exch') ?? 'NSE') as SeriesQuery['exch'],
      tsym: args[0] ?? '',
      ...optional('interval'),
      ...optional('from'),
      ...optional('to'),
    };
  },
  run: ({ client, callOptions }, query) => client.series(query, callOptions),
  render: seriesText,
});
