/**
 * One line of what an event says, as the Events view shows it: the symbol, side, quantity and trigger of a single
 * order; both legs of an OCO (trigger, side, quantity, price); which leg fired; what a fired order became (the price
 * it filled at, or the broker's reason for a rejection); a trailing stop's old and new trigger, or that its price
 * could not be read; a plan's state and reason; the kill switch's mode and counts (shapes: base/schemas/events.ts). And
 * the timeline's order: newest first, each eventId once.
 */
import type { EventDetail, EventLeg, FiredOrder } from '../../../functions/base/schemas/events.js';

type Detail = Record<string, unknown>;

const str = (value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
const sideWord = (s: unknown): string | undefined => (s === 'B' ? 'buy' : s === 'S' ? 'sell' : str(s));

/** `target 1600 (sell 1, LMT 1600)`. */
const legText = (name: string, leg: EventLeg | undefined): string | undefined =>
  leg
    ? `${name} ${leg.trigger} (${[sideWord(leg.side), leg.quantity].join(' ')}, ${leg.priceType}${leg.price && leg.price !== '0' ? ` ${leg.price}` : ''}${leg.triggerPrice ? ` trg ${leg.triggerPrice}` : ''})`
    : undefined;

/** `order 26112700000123 filled 2 at 1480.00`, or `order ... rejected: RMS_LIMIT: Insufficient margin (add funds)`. */
const firedOrderText = (order: FiredOrder | undefined): string | undefined => {
  if (!order) return undefined;
  const head = `order ${order.norenordno} ${order.status}`;
  if (order.rejection)
    return `${head}: ${order.rejection.code}: ${order.rejection.text}${order.rejection.hint ? ` (${order.rejection.hint})` : ''}`;
  return order.filledQty > 0
    ? `${head} ${order.filledQty}${order.averagePrice ? ` at ${order.averagePrice}` : ''}`
    : head;
};

const planStep = (d: EventDetail<'Plan Step'>): string | undefined =>
  d.step === 'stop-trailed'
    ? `stop moved ${d.oldTrigger ?? '?'} → ${d.newTrigger ?? '?'}`
    : d.step === 'price-unavailable'
      ? `price unavailable: the stop is not trailing${d.reason ? ` (${d.reason})` : ''}`
      : d.step === 'exit-armed'
        ? 'exit OCO live'
        : undefined;

const killSwitch = (d: EventDetail<'Kill Switch'>): string =>
  d.halted
    ? [
        `on${d.mode ? ` (${d.mode})` : ''}`,
        d.cancelled !== undefined && `${d.cancelled} cancelled`,
        d.kept !== undefined && `${d.kept} kept`,
        d.failed ? `${d.failed} still pending: cancel by hand` : undefined,
        d.changedBy && `by ${d.changedBy}`,
      ]
        .filter(Boolean)
        .join(', ')
    : `off${d.changedBy ? `, by ${d.changedBy}` : ''}`;

export const eventSummary = (type: string, detail: Detail): string => {
  if (type === 'Kill Switch') return killSwitch(detail as EventDetail<'Kill Switch'>);
  const d = detail as Detail & {
    target?: EventLeg;
    stopLoss?: EventLeg;
    order?: FiredOrder;
    firedLeg?: 'target' | 'stopLoss';
    position?: { side: string; qty: number };
  };
  const oco = d.type === 'oco' || d.target !== undefined || d.stopLoss !== undefined;
  const stepped = type === 'Plan Step' ? planStep(detail as EventDetail<'Plan Step'>) : undefined;
  return [
    str(d.tsym) && `${str(d.tsym)}${str(d.exch) ? ` (${str(d.exch)})` : ''}`,
    oco && 'OCO',
    !oco && sideWord(d.side),
    !oco && str(d.quantity) && `qty ${str(d.quantity)}`,
    !oco && str(d.trigger) && `trigger ${str(d.trigger)}`,
    legText('target', d.target),
    legText('stop', d.stopLoss),
    d.firedLeg && `${d.firedLeg === 'target' ? 'target' : 'stop'} leg fired`,
    str(d.al_id) && `order ${str(d.al_id)}`,
    str(d.planId) && `plan ${str(d.planId)}`,
    str(d.tag) && `tag ${str(d.tag)}`,
    str(d.strategyName) && `strategy ${str(d.strategyName)}`,
    str(d.summary),
    stepped,
    str(d.state) && `state ${str(d.state)}`,
    str(d.status) && `status ${str(d.status)}`,
    firedOrderText(d.order),
    d.position && `open position: ${d.position.side === 'B' ? 'long' : 'short'} ${d.position.qty}`,
    // A price-unavailable step's reason is in its own words above.
    d.step !== 'price-unavailable' && str(d.reason),
    str(d.code) && `code ${str(d.code)}`,
  ]
    .filter(Boolean)
    .join(' · ');
};

/** An event as `GET /events` lists it. */
interface Timed {
  publishedAt: string;
  detail: Record<string, unknown>;
}

/**
 * The events newest first (by `publishedAt`; of two at the same moment, the later listed first), each `eventId` once
 * (the first producer's: the gateway's when both saw it).
 */
export const newestFirst = <E extends Timed>(events: readonly E[]): E[] => {
  const seen = new Set<string>();
  const once = events.filter((e) => {
    const id = typeof e.detail.eventId === 'string' ? e.detail.eventId : undefined;
    if (id === undefined) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  const at = (e: E) => Date.parse(e.publishedAt) || 0;
  return once
    .map((e, i) => ({ e, i }))
    .sort((a, b) => at(b.e) - at(a.e) || b.i - a.i)
    .map(({ e }) => e);
};
