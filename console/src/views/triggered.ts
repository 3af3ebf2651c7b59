/** The triggered history: each fired GTT and what became of the order it placed. */
import { html } from 'htm/preact';

import { type Api, ok } from '../api.js';
import { istTime, price, side } from '../format.js';
import type { TriggeredOrder } from '../reads.js';
import { Pager, Problem, useCursors, useLoad, type VNode } from '../ui.js';

const PAGE = 20;

const fateOf = (o: TriggeredOrder): { text: string; tone: string } => {
  const order = o.order;
  if (!order) return { text: 'Fired; the order it placed is not in the order book yet', tone: 'muted' };
  const tick = o.ti;
  switch (order.status) {
    case 'filled':
      return { text: `Filled ${order.filledQty} at ${price(order.averagePrice, tick)}`, tone: 'good' };
    case 'partially-filled':
      return {
        text: `Partly filled: ${order.filledQty} of ${order.qty} at ${price(order.averagePrice, tick)}`,
        tone: 'warn',
      };
    case 'rejected':
      return {
        text: `Rejected: ${order.rejection ? `${order.rejection.text} (${order.rejection.hint})` : order.brokerStatus}`,
        tone: 'bad',
      };
    case 'cancelled':
      return { text: 'Cancelled at the broker', tone: 'muted' };
    default:
      return { text: `Open at ${price(order.price, tick)} (${order.brokerStatus})`, tone: 'warn' };
  }
};

export const TriggeredHistory = ({ api, changed }: { api: Api; changed: number }): VNode => {
  const { cursors, setCursors, cursor } = useCursors();
  const page = useLoad(
    () => ok(api.GET('/gtt-orders/triggered', { params: { query: { limit: PAGE, ...(cursor ? { cursor } : {}) } } })),
    [cursor, changed],
  );
  const orders = page.data?.orders ?? [];
  return html`<section aria-labelledby="triggered-title">
    <h2 id="triggered-title">Fired</h2>
    <${Problem} text=${page.error} />
    ${
      page.data?.orderBookUnavailable
        ? html`<p class="muted">The broker's order book could not be read: fates are missing.</p>`
        : null
    }
    ${orders.length === 0 && !page.loading ? html`<p>Nothing fired yet.</p>` : null}
    <ul class="rows" aria-label="Fired orders">
      ${orders.map((o) => {
        const fate = fateOf(o);
        return html`<li class="row" data-al-id=${o.al_id}>
          <p class="row-head">
            <strong>${o.tsym}</strong> <span>${o.exch}</span> <span>${side(o.trantype)} ${o.qty}</span>
            <span class="muted">${o.al_id}</span>
          </p>
          <p>Fired at ${price(o.trigger ?? o.d, o.ti)}, ${istTime(o.triggeredAt)}</p>
          <p class=${`fate ${fate.tone}`} data-fate=${o.order?.status ?? 'unknown'}>${fate.text}</p>
        </li>`;
      })}
    </ul>
    <${Pager} label="Fired pages" cursors=${cursors} setCursors=${setCursors} next=${page.data?.nextCursor} />
  </section>`;
};
