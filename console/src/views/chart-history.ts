/**
 * What the chart opens with: the points it polled for this symbol earlier in this tab's session, kept in
 * `sessionStorage` per symbol (a reload or reopening the chart shows them; closing the tab ends them). This is the
 * seam for a broker time series: `historyOf` is where one would be read and merged with these points.
 */
export interface Point {
  /** UTC seconds. */
  time: number;
  value: number;
}

/** At most this many points per symbol (two hours at one every 2 s). */
export const KEPT_POINTS = 3_600;

const keyOf = (exch: string, tsym: string) => `gtt-chart:${exch}:${tsym}`;

const isPoint = (p: unknown): p is Point =>
  typeof p === 'object' &&
  p !== null &&
  Number.isFinite((p as Point).time) &&
  Number.isFinite((p as Point).value) &&
  (p as Point).value > 0;

/** The points kept for a symbol, oldest first, one per second at most (what a line series takes). */
export const keptPoints = (exch: string, tsym: string): Point[] => {
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

/**
 * The history the chart opens with. Today: the points kept this session. A broker time series (TPSeries) would be
 * read here and the kept points laid after its last one.
 */
export const historyOf = async (exch: string, tsym: string): Promise<Point[]> =>
  Promise.resolve(keptPoints(exch, tsym));
