/**
 * The broker's `TPSeries` for GET /quotes/series: its jData (NorenRestApiPy `get_time_price_series`: `{uid, exch,
 * token, st, et, intrv}`, the times epoch seconds, all strings) and its bars, newest first, read into the caller's
 * shape, oldest first, each bar's time ISO UTC and its prices on the instrument's precision.
 */
import { InternalError } from '../contract/errors.js';
import { IST_OFFSET_MS } from '../schemas/india-time.js';
import { BAR_TIME, type SeriesInput, type SeriesRecord, type SeriesResult } from '../schemas/series.js';

export const seriesJData = (input: SeriesInput, session: { uid: string }) => {
  if (!input.rules) throw new InternalError(`no instrument token was read for ${input.exch}:${input.tsym}`);
  return {
    uid: session.uid,
    exch: input.exch,
    token: input.rules.token,
    st: String(Math.floor(Date.parse(input.from) / 1_000)),
    et: String(Math.floor(Date.parse(input.to) / 1_000)),
    intrv: String(input.interval),
  };
};

/** A bar's start, epoch milliseconds: `ssboe` where given, else `time` read as India time. */
export const barTime = (bar: Pick<SeriesRecord, 'ssboe' | 'time'>): number => {
  const ssboe = bar.ssboe?.trim();
  if (ssboe && /^\d+$/.test(ssboe)) return Number(ssboe) * 1_000;
  const [, dd, mm, yyyy, hh, mi, ss] = BAR_TIME.exec(bar.time?.trim() ?? '') ?? [];
  return Date.parse(`${yyyy}-${mm}-${dd}T${hh}:${mi}:${ss}Z`) - IST_OFFSET_MS;
};

export const seriesResultOf = (reply: readonly SeriesRecord[], input: SeriesInput): SeriesResult => {
  const precision = input.rules?.precision ?? 2;
  const price = (text: string) => Number(text).toFixed(precision);
  const bars = reply
    .map((bar) => {
      const volume = Number(bar.intv);
      return {
        at: barTime(bar),
        bar: {
          open: price(bar.into),
          high: price(bar.inth),
          low: price(bar.intl),
          close: price(bar.intc),
          ...(bar.intv !== undefined && bar.intv.trim() !== '' && Number.isFinite(volume) ? { volume } : {}),
        },
      };
    })
    .sort((a, b) => a.at - b.at)
    .map(({ at, bar }) => ({ time: new Date(at).toISOString(), ...bar }));
  return { exch: input.exch, tsym: input.tsym, interval: input.interval, bars };
};
