/**
 * What the chart opens with: the day's price bars from the broker (`GET /quotes/series`, one-minute bars of today),
 * and after them the points it polled for this symbol earlier in this tab's session, kept in `sessionStorage` per
 * symbol (a reload or reopening the chart shows them; closing the tab ends them).
 */
import { type Api, ok } from '../api.js';
import type { Exch } from '../reads.js';

interface Point {
  /** UTC seconds. */
  time: number;
  value: number;
}

/** At most this many points per symbol (two hours at one every 2 s). */
const KEPT_POINTS = 3_600;

const keyOf = (exch: string, tsym: string) => `gtt-chart:${exch}:${tsym}`;

const isPoint = (p: unknown): p is Point =>
  typeof p === 'object' &&
  p !== null &&
  Number.isFinite((p as Point).time) &&
  Number.isFinite((p as Point).value) &&
  (p as Point).value > 0;

/** The points kept for a symbol, oldest first, one per second at most (what a line series takes). */
const keptPoints = (exch: string, tsym: string): Point[] => {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(keyOf(exch, tsym)) ?? '[]');
    const points = Array.isArray(parsed) ? parsed.filter(isPoint) : [];
    return points.filter((p, n) => n === 0 || p.time > points[n - 1]!.time);
  } catch {
    return [];
  }
};

/** Keeps one more point (a storage that is full or refused keeps what it has: the chart goes on). */
export const keepPoint = (exch: string, tsym: string, point: Point): void => {
  const points = keptPoints(exch, tsym);
  const last = points[points.length - 1];
  if (last && point.time <= last.time) return;
  points.push(point);
  try {
    sessionStorage.setItem(keyOf(exch, tsym), JSON.stringify(points.slice(-KEPT_POINTS)));
  } catch {
    // Storage full or off: the points stay on the chart for as long as it is open.
  }
};

/** A bar as the series route answers it. */
export interface Bar {
  time: string;
  open: string;
  close: string;
}

/**
 * The points of one-minute bars: each bar's open at its start and its close at its last second (not after `now`, UTC
 * seconds, so the polls that follow come after it), oldest first.
 */
const pointsOfBars = (bars: readonly Bar[], now: number): Point[] => {
  const points: Point[] = [];
  for (const bar of bars) {
    const start = Math.floor(Date.parse(bar.time) / 1000);
    if (!Number.isFinite(start) || start >= now) continue;
    points.push({ time: start, value: Number(bar.open) });
    const end = Math.min(start + 59, now - 1);
    if (end > start) points.push({ time: end, value: Number(bar.close) });
  }
  return points.filter(isPoint);
};

/**
 * The day's bars' points before the first point kept this session, then the kept points (a poll saw its price at its
 * second; a bar only says where its minute opened and closed), one per second, in time order.
 */
const mergedPoints = (fromBars: readonly Point[], kept: readonly Point[]): Point[] => {
  const first = kept[0]?.time ?? Infinity;
  const merged = [...fromBars.filter((p) => p.time < first), ...kept];
  return merged.filter((p, n) => n === 0 || p.time > merged[n - 1]!.time);
};

export interface History {
  points: Point[];
  /** How many came from the day's bars, and how many from the points polled this session. */
  fromSeries: number;
  fromSession: number;
  /** Why the day's bars could not be read (the chart then opens with the session's points alone). */
  problem?: string;
}

/** The history the chart opens with: today's one-minute bars, then the points kept this session after them. */
export const historyOf = async (api: Api, exch: Exch, tsym: string): Promise<History> => {
  const kept = keptPoints(exch, tsym);
  try {
    const series = await ok(api.GET('/quotes/series', { params: { query: { exch, tsym, interval: '1' } } }));
    const fromBars = pointsOfBars(series.bars, Math.floor(Date.now() / 1000));
    const points = mergedPoints(fromBars, kept);
    return { points, fromSeries: points.length - kept.length, fromSession: kept.length };
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    return { points: kept, fromSeries: 0, fromSession: kept.length, problem };
  }
};
