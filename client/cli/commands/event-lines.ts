/**
 * `gtt events`, one line per event: when (India time, with its offset), what, which order, and what a trader reads
 * first: the side, quantity and trigger of an order (an OCO's both legs: trigger, side and quantity); what a fired order
 * became and the price it filled at; the strategy of a signal and the reason it was refused; a plan's state, its
 * step (a trailed stop's old and new trigger) and reason.
 */
import type { EventsPage } from '../../types.js';
import { istTime } from '../render.js';

type Detail = Record<string, unknown>;

const text = (value: unknown): string =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
const field = (label: string, value: unknown): string => (value === undefined ? '' : `${label} ${text(value)}`);

/** The order a fired GTT placed: its status, how much filled and at what price, or why it was refused. */
const firedOrderText = (order: unknown): string => {
  if (typeof order !== 'object' || order === null) return '';
  const o = order as { norenordno?: unknown; status?: unknown; filledQty?: unknown; averagePrice?: unknown };
  const rejection = (order as { rejection?: { code?: unknown; text?: unknown } }).rejection;
  return [
    `order ${text(o.norenordno)} ${text(o.status)}`,
    typeof o.filledQty === 'number' && o.filledQty > 0 ? String(o.filledQty) : '',
    o.averagePrice === undefined ? '' : `@ ${text(o.averagePrice)}`,
    rejection ? `(${text(rejection.code)}: ${text(rejection.text)})` : '',
  ]
    .filter(Boolean)
    .join(' ');
};

/** An OCO's legs: `target 1600 S 1 / stop-loss 1400 S 1` (the fired one marked). */
const legsText = (d: Detail): string => {
  const leg = (name: 'target' | 'stopLoss', label: string): string => {
    const l = d[name] as { trigger?: unknown; side?: unknown; quantity?: unknown } | undefined;
    if (!l) return '';
    const fired = d.firedLeg === name ? ' (fired)' : '';
    return [`${label} ${text(l.trigger)}`, text(l.side), text(l.quantity)].filter(Boolean).join(' ') + fired;
  };
  return [leg('target', 'target'), leg('stopLoss', 'stop-loss')].filter(Boolean).join(' / ');
};

/** A plan's step: the stop moved from its old trigger to its new one, the exit armed, or the price unavailable. */
const stepText = (d: Detail): string =>
  d.step === 'stop-trailed'
    ? `stop ${text(d.oldTrigger)} -> ${text(d.newTrigger)}`
    : d.step === 'price-unavailable'
      ? // The reason says it first since issue 58; an older event's reason started with an error code.
        /^price unavailable/.test(text(d.reason))
        ? ''
        : 'price unavailable'
      : text(d.step);

/** A signal's strategy (by name where it has one) and what became of it. */
const signalText = (d: Detail): string[] => [
  field('strategy', d.strategyName ?? d.strategyId),
  d.mode === 'paper' ? '(paper)' : '',
  Array.isArray(d.tickers) ? d.tickers.map(text).join(',') : '',
  Array.isArray(d.results)
    ? (d.results as Detail[])
        .map((r) => [text(r.tsym ?? r.ticker), r.alId === undefined ? '' : `al_id=${text(r.alId)}`, text(r.detail)])
        .map((parts) => parts.filter(Boolean).join(' '))
        .join('; ')
    : '',
  field('code', d.code),
  field('reason:', d.reason),
];

const eventLine = (e: EventsPage['events'][number]): string => {
  const d = e.detail as Detail;
  const signal = e.detailType.startsWith('Signal ');
  const parts = [
    istTime(e.publishedAt),
    e.detailType.padEnd(15),
    d.al_id === undefined ? '' : `al_id=${text(d.al_id)}`,
    d.planId === undefined ? '' : `plan=${text(d.planId)}`,
    d.exch && d.tsym ? `${text(d.exch)}:${text(d.tsym)}` : '',
    text(d.side),
    field('qty', d.quantity),
    field('trigger', d.trigger),
    legsText(d),
    d.triggeredAt === undefined ? '' : `fired ${istTime(text(d.triggeredAt))}`,
    firedOrderText(d.order),
    field('tag', d.tag),
    d.step === undefined ? '' : stepText(d),
    d.state === undefined || d.step !== undefined ? '' : `state ${text(d.state)}`,
    ...(signal ? signalText(d) : [field('reason:', d.reason)]),
    d.origin === undefined ? '' : `(${text(d.origin)})`,
  ];
  return parts.filter(Boolean).join('  ');
};

export const eventsTable = (r: EventsPage): string =>
  r.events.length ? r.events.map(eventLine).join('\n') : `no events since ${istTime(r.since)}`;
