/**
 * Today's lists: the orders placed, fired and rejected since the start of the day (India time), read from the
 * events history (`GET /events`, every page, each `eventId` once), each with a link to its symbol's chart and the
 * list's own link to the Events view; and what the day's orders used of the guardrails' limits.
 */
import { html } from 'htm/preact';

import type { EventLeg } from '../../../functions/base/schemas/events.js';
import { allPages, type Api, ok } from '../api.js';
import { istTime, price, side } from '../format.js';
import type { EventRecord } from '../reads.js';
import type { VNode } from '../ui.js';
import { newestFirst } from './event-summary.js';

type Detail = Record<string, unknown> & {
  al_id?: string;
  exch?: string;
  tsym?: string;
  side?: string;
  quantity?: number;
  trigger?: string;
  price?: string;
  target?: EventLeg;
  stopLoss?: EventLeg;
  firedLeg?: 'target' | 'stopLoss';
  order?: { status?: string; averagePrice?: string; rejection?: { code: string; text: string; hint: string } };
};

export interface Day {
  placed: EventRecord[];
  fired: EventRecord[];
  rejected: EventRecord[];
}

/** The day's events of the three lists, newest first. */
export const readDay = async (api: Api): Promise<Day> => {
  const events = newestFirst(
    await allPages(async (cursor) => {
      const page = await ok(api.GET('/events', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }));
      return { items: page.events, nextCursor: page.nextCursor };
    }),
  );
  const of = (type: string) => events.filter((e) => e.detailType === type);
  return { placed: of('GTT Placed'), fired: of('GTT Triggered'), rejected: of('Order Rejected') };
};

/** The largest quantity and order value (quantity × price, each leg of an OCO) of the orders placed today. */
export const limitsUsed = (placed: readonly EventRecord[]): { qty: number; value: number } => {
  let qty = 0;
  let value = 0;
  for (const e of placed) {
    const d = e.detail as Detail;
    const legs =
      d.target || d.stopLoss
        ? [d.target, d.stopLoss].filter((l): l is EventLeg => l !== undefined)
        : [{ quantity: d.quantity ?? 0, price: d.price ?? '', trigger: d.trigger ?? '' }];
    for (const leg of legs) {
      qty = Math.max(qty, leg.quantity);
      const at = Number(leg.price) > 0 ? Number(leg.price) : Number(leg.trigger);
      if (Number.isFinite(at)) value = Math.max(value, leg.quantity * at);
    }
  }
  return { qty, value };
};

/** One line: `M&M-EQ buy 1, trigger 1490.00` (an OCO: both triggers). */
const orderWords = (d: Detail): string =>
  d.target || d.stopLoss
    ? `OCO ${side(d.target?.side)} ${d.target?.quantity ?? d.stopLoss?.quantity ?? ''}, target ${price(d.target?.trigger)}, stop ${price(d.stopLoss?.trigger)}`
    : `${side(d.side)} ${d.quantity ?? ''}, trigger ${price(d.trigger)}`;

const firedWords = (d: Detail): string => {
  const leg = d.firedLeg ? d[d.firedLeg] : undefined;
  const where = leg
    ? `${d.firedLeg === 'target' ? 'target' : 'stop'} leg at ${price(leg.trigger)}`
    : `at ${price(d.trigger)}`;
  const fate = d.order?.status
    ? `, ${d.order.status}${d.order.averagePrice ? ` at ${price(d.order.averagePrice)}` : ''}`
    : '';
  return `fired ${where}${fate}`;
};

const rejectedWords = (d: Detail): string =>
  `${side(d.side)} ${d.quantity ?? ''}${d.firedLeg ? ` (${d.firedLeg === 'target' ? 'target' : 'stop'} leg)` : ''}: ${
    d.order?.rejection ? `${d.order.rejection.code}: ${d.order.rejection.text} (${d.order.rejection.hint})` : 'rejected'
  }`;

const LISTS: { key: keyof Day; title: string; type: string; none: string; words: (d: Detail) => string }[] = [
  { key: 'placed', title: 'Placed today', type: 'GTT Placed', none: 'Nothing placed today.', words: orderWords },
  { key: 'fired', title: 'Fired today', type: 'GTT Triggered', none: 'Nothing fired today.', words: firedWords },
  {
    key: 'rejected',
    title: 'Rejected today',
    type: 'Order Rejected',
    none: 'Nothing rejected today.',
    words: rejectedWords,
  },
];

const SHOWN = 10;

export const DayLists = ({ day }: { day: Day }): VNode =>
  html`${LISTS.map(
    (list) =>
      html`<section
        aria-labelledby=${`day-${list.key}`}
        class=${`card${list.key === 'rejected' && day.rejected.length ? ' alarm' : ''}`}
      >
        <h2 id=${`day-${list.key}`}>${list.title} (${day[list.key].length})</h2>
        ${day[list.key].length === 0 ? html`<p class="muted">${list.none}</p>` : null}
        <ul class="day-list" aria-label=${list.title} data-day=${list.key}>
          ${day[list.key].slice(0, SHOWN).map((e) => {
            const d = e.detail as Detail;
            return html`<li data-al-id=${d.al_id}>
              <time datetime=${e.publishedAt}>${istTime(e.publishedAt).replace(/^\d+ \w+, /, '')}</time>
              <a href=${`#/chart?exch=${d.exch ?? ''}&tsym=${encodeURIComponent(d.tsym ?? '')}`}>${d.tsym}</a>
              <span>${list.words(d)}</span>
              <span class="muted">order ${d.al_id}</span>
            </li>`;
          })}
        </ul>
        <p><a href=${`#/events?type=${encodeURIComponent(list.type)}`}>Every ${list.type} event</a></p>
      </section>`,
  )}` as VNode;
