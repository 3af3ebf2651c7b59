/**
 * Chart: a symbol's last price, polled from `GET /quotes` every few seconds, drawn with lightweight-charts, with a
 * labelled price line for every pending trigger, target and stop of that symbol, and reference lines for the day's
 * band (`uc`, `lc`) and its open, high, low and previous close (those the quote gives). It opens with the points
 * polled earlier in this tab's session (chart-history.ts, the seam for a broker time series). The lines are listed
 * under the chart (a canvas says nothing to a screen reader), read back from the chart's own series; beside it, the
 * symbols that have pending orders (chart-symbols.ts).
 */
import { html } from 'htm/preact';
import {
  type AutoscaleInfo,
  createChart,
  type IChartApi,
  type ISeriesApi,
  LineSeries,
  LineStyle,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'preact/hooks';

import { type Api, describeError, ok } from '../api.js';
import type { ViewProps } from '../app.js';
import { istTime, price, tickDecimals } from '../format.js';
import { type Exch, EXCHANGES, pendingOrders, type Quote, triggersOf } from '../reads.js';
import { Problem, type VNode } from '../ui.js';
import { historyOf, keepPoint } from './chart-history.js';
import { chartHref, OrderSymbols } from './chart-symbols.js';

const POLL_MS = 2_000;

interface Line {
  label: string;
  price: string;
}

/**
 * The symbol of `#/chart?tsym=...`, also when typed with a bare `&` (`tsym=M&M-EQ` reads as `tsym=M` and a key
 * `M-EQ`: the keys after `tsym` that are not the chart's own are put back).
 */
const symbolOf = (query: URLSearchParams): string => {
  let tsym: string | undefined;
  for (const [key, value] of query) {
    if (key === 'tsym') tsym = value;
    else if (tsym !== undefined && key !== 'exch') tsym += `&${key}${value ? `=${value}` : ''}`;
  }
  return (tsym ?? '').trim();
};

export const ChartView = ({ api, query }: ViewProps): VNode => {
  const exch = (EXCHANGES as readonly string[]).includes(query.get('exch') ?? '') ? (query.get('exch') as Exch) : 'NSE';
  const tsym = symbolOf(query);
  const [form, setForm] = useState({ exch, tsym });
  // The symbol box follows the location: a link (a pending order's, a symbol's below) fills it.
  useEffect(() => setForm({ exch, tsym }), [exch, tsym]);
  const show = (event: Event) => {
    event.preventDefault();
    window.location.hash = chartHref(form.exch, form.tsym.trim());
  };
  return html`<div class="chart-view">
    <form class="inline" onSubmit=${show}>
      <label for="chart-exch">Exchange</label>
      <select
        id="chart-exch"
        value=${form.exch}
        onChange=${(e: Event) => setForm({ ...form, exch: (e.target as HTMLSelectElement).value as Exch })}
      >
        ${EXCHANGES.map((e) => html`<option value=${e}>${e}</option>`)}
      </select>
      <label for="chart-tsym">Symbol</label>
      <input
        id="chart-tsym"
        required
        value=${form.tsym}
        placeholder="M&M-EQ"
        onInput=${(e: Event) => setForm({ ...form, tsym: (e.target as HTMLInputElement).value })}
      />
      <button type="submit">Show</button>
    </form>
    ${tsym ? html`<${SymbolChart} api=${api} exch=${exch} tsym=${tsym} key=${`${exch}:${tsym}`} />` : html`<p>Pick a symbol to chart.</p>`}
    <${OrderSymbols} api=${api} current=${`${exch}:${tsym}`} />
  </div>`;
};

const CLOCK = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});

/** The chart's times (UTC seconds) on India's clock. */
const istClock = (t: Time): string => (typeof t === 'number' ? CLOCK.format(new Date(t * 1000)) : String(t));

/** The day's reference lines of a quote: its band and the open, high, low and previous close it gives. */
const referencesOf = (q: Quote | undefined): Line[] => {
  const lines: Line[] = [];
  if (q?.band) lines.push({ label: 'Upper band', price: q.band.uc }, { label: 'Lower band', price: q.band.lc });
  const day = q?.day;
  if (day?.open) lines.push({ label: 'Open', price: day.open });
  if (day?.high) lines.push({ label: 'High', price: day.high });
  if (day?.low) lines.push({ label: 'Low', price: day.low });
  if (day?.close) lines.push({ label: 'Previous close', price: day.close });
  return lines;
};

const SymbolChart = ({ api, exch, tsym }: { api: Api; exch: Exch; tsym: string }): VNode => {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<{ chart: IChartApi; series: ISeriesApi<'Line'> } | undefined>(undefined);
  const [quote, setQuote] = useState<Quote>();
  const [lines, setLines] = useState<Line[]>([]);
  const [references, setReferences] = useState<Line[]>([]);
  const [problem, setProblem] = useState<string>();
  const [history, setHistory] = useState<{ series: number; kept: number; values: string }>({
    series: 0,
    kept: 0,
    values: '',
  });
  // The lines' prices: the price scale keeps them in view, not only the prices drawn so far.
  const linePrices = useRef<number[]>([]);

  useEffect(() => {
    const made = createChart(box.current!, {
      autoSize: true,
      layout: { attributionLogo: false },
      timeScale: {
        timeVisible: true,
        secondsVisible: true,
        barSpacing: 24,
        rightOffset: 3,
        tickMarkFormatter: (t: Time) => istClock(t),
      },
      localization: { timeFormatter: (t: Time) => istClock(t) },
    });
    const series = made.addSeries(LineSeries, {
      color: '#1f4e79',
      lineWidth: 2,
      pointMarkersVisible: true,
      autoscaleInfoProvider: (original: () => AutoscaleInfo | null) => {
        const info = original();
        const prices = linePrices.current;
        if (prices.length === 0) return info;
        const low = Math.min(...prices, info?.priceRange?.minValue ?? Infinity);
        const high = Math.max(...prices, info?.priceRange?.maxValue ?? -Infinity);
        return { priceRange: { minValue: low, maxValue: high }, ...(info?.margins ? { margins: info.margins } : {}) };
      },
    });
    chart.current = { chart: made, series };
    return () => {
      made.remove();
      chart.current = undefined;
    };
  }, []);

  // The pending orders' triggers of this symbol, as price lines (read again with every few quotes).
  useEffect(() => {
    let live = true;
    const drawLines = async (q: Quote) => {
      const orders = await pendingOrders(api, { exch, tsym });
      const wanted = orders.flatMap(triggersOf);
      const refs = referencesOf(q);
      const series = chart.current?.series;
      if (!live || !series) return;
      linePrices.current = [...wanted, ...refs].map((line) => Number(line.price));
      for (const line of series.priceLines()) series.removePriceLine(line);
      for (const line of wanted)
        series.createPriceLine({
          price: Number(line.price),
          title: line.label,
          color: line.label.startsWith('Stop') ? '#b00020' : line.label.startsWith('Target') ? '#0a7d32' : '#8a5a00',
          lineStyle: LineStyle.Dashed,
          lineWidth: 1,
          axisLabelVisible: true,
        });
      for (const line of refs)
        series.createPriceLine({
          price: Number(line.price),
          title: line.label,
          color: line.label.endsWith('band') ? '#6e4b9e' : '#55606b',
          lineStyle: LineStyle.Dotted,
          lineWidth: 1,
          axisLabelVisible: false,
        });
      // What the chart now holds, read back from the series.
      const held = series.priceLines().map((l) => ({ label: l.options().title, price: String(l.options().price) }));
      const isRef = new Set(refs.map((r) => r.label));
      setLines(held.filter((l) => !isRef.has(l.label)));
      setReferences(held.filter((l) => isRef.has(l.label)));
    };
    let last = 0;
    const poll = async () => {
      try {
        const q = await ok(api.GET('/quotes', { params: { query: { exch, tsym } } }));
        if (!live) return;
        setQuote(q);
        setProblem(undefined);
        const now = Math.floor(Date.now() / 1000);
        if (q.lp !== undefined && now > last && chart.current) {
          chart.current.series.update({ time: now as UTCTimestamp, value: Number(q.lp) });
          keepPoint(exch, tsym, { time: now, value: Number(q.lp) });
          last = now;
        }
        chart.current?.series.applyOptions({
          priceFormat: { type: 'price', precision: tickDecimals(q.tick), minMove: Number(q.tick) || 0.01 },
        });
        await drawLines(q);
      } catch (error) {
        if (live) setProblem(describeError(error));
      }
    };
    let timer: number | undefined;
    // The history first (the series takes points in time order), then a point every poll after it.
    void historyOf(api, exch, tsym).then(({ points, fromSeries, fromSession, problem: unread }) => {
      if (!live) return;
      chart.current?.series.setData(points.map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
      last = points[points.length - 1]?.time ?? 0;
      // What the chart now holds, read back from the series.
      const held = (chart.current?.series.data() ?? []).map((d) => ('value' in d ? String(d.value) : ''));
      setHistory({ series: fromSeries, kept: fromSession, values: held.join(' ') });
      if (unread) setProblem(`The day's price bars could not be read: ${unread}`);
      void poll();
      timer = window.setInterval(() => void poll(), POLL_MS);
    });
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [api, exch, tsym]);

  const tick = quote?.tick;
  return html`<section aria-labelledby="chart-title">
    <h2 id="chart-title">${tsym} <span class="muted">${exch}</span></h2>
    <${Problem} text=${problem} />
    <p class="last" aria-live="polite">
      ${'Last price: '}
      <strong data-last-price=${quote?.lp ?? ''}
        >${quote?.lp === undefined ? 'no quote yet' : price(quote.lp, tick)}</strong
      >
      ${quote?.quotedAt ? html`<span class="muted"> at ${istTime(quote.quotedAt)}</span>` : null}
    </p>
    <div
      class="chart"
      ref=${box}
      role="img"
      aria-label=${`Last price of ${tsym} with ${lines.length} order lines`}
    ></div>
    <p
      class="muted"
      data-kept-points=${history.kept}
      data-series-points=${history.series}
      data-history=${history.values}
    >
      ${history.series === 0 ? 'No price bars today yet. ' : `Opened with ${history.series} points of today's bars. `}
      ${history.kept === 0 ? 'No earlier points this session.' : `Opened with ${history.kept} points polled earlier this session.`}
    </p>
    <h3 id="lines-title">Lines on the chart</h3>
    ${lines.length === 0 ? html`<p>No pending order of ${tsym}.</p>` : null}
    <ul aria-labelledby="lines-title" class="price-lines">
      ${lines.map((l) => html`<li data-price-line=${l.label}>${l.label}: ${price(l.price, tick)}</li>`)}
    </ul>
    <h3 id="references-title">The day's reference lines</h3>
    ${references.length === 0 ? html`<p>The quote gives no band, open, high, low or previous close yet.</p>` : null}
    <ul aria-labelledby="references-title" class="price-lines reference-lines">
      ${references.map((l) => html`<li data-reference-line=${l.label}>${l.label}: ${price(l.price, tick)}</li>`)}
    </ul>
  </section>`;
};
