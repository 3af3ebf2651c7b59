/**
 * `gtt quote <tsym>`: an instrument's last traded price, today's band, tick and lot (`GET /quotes`), so a trigger
 * can be placed relative to a price the trader sees; and the figures the other alert types watch, those the broker
 * gives (change from the close, average price, open interest, total open interest, volume, 52-week high and low).
 */
import type { Quote, QuoteQuery } from '../../types.js';
import { command, may } from '../command.js';
import { istTime } from '../render.js';

/** The figures' labels, as the --alert names call them. */
const FIGURE_LABELS: readonly (readonly [keyof NonNullable<Quote['figures']>, string, string])[] = [
  ['changePercent', 'change', '%'],
  ['averagePrice', 'atp', ''],
  ['openInterest', 'oi', ''],
  ['totalOpenInterest', 'total-oi', ''],
  ['volume', 'volume', ''],
  ['week52High', '52-week high', ''],
  ['week52Low', '52-week low', ''],
];

const figuresLine = (q: Quote): string[] => {
  const shown = FIGURE_LABELS.flatMap(([key, label, unit]) =>
    q.figures?.[key] === undefined ? [] : [`${label} ${q.figures[key]}${unit}`],
  );
  return shown.length === 0 ? [] : [`watched   ${shown.join('  ')}`];
};

const quoteText = (q: Quote): string =>
  [
    `${q.exch}:${q.tsym}  last ${q.lp ?? (q.priceUnavailable ? `unavailable: ${q.priceUnavailable}` : 'none (the broker has no quote for it today)')}`,
    `band      ${q.band ? `${q.band.lc} - ${q.band.uc}` : 'none given by the broker'}`,
    ...figuresLine(q),
    `tick ${q.tick}  lot ${q.lot}  (token ${q.token}, read ${istTime(q.quotedAt)})`,
  ].join('\n');

export const quote = command({
  name: 'quote',
  args: ['tsym'],
  flags: [may('exch', 'NSE')],
  summary: "an instrument's last traded price, today's price band, its tick and its lot (--exch: NSE unless given)",
  input: (f, args) => ({ exch: (f.str('exch') ?? 'NSE') as QuoteQuery['exch'], tsym: args[0] ?? '' }),
  run: ({ client, callOptions }, { exch, tsym }) => client.quote(exch, tsym, callOptions),
  render: quoteText,
});
