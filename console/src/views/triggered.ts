/**
 * The triggered history: each fired GTT and what became of the order it placed, the latest to fire first (every
 * page of the API's list read, then sorted by when each fired), a page at a time.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import { allPages, type Api, ok } from '../api.js';
import { firedAtMs, firedTime, price, side } from '../format.js';
import type { TriggeredOrder } from '../reads.js';
import { Problem, useLoad, type VNode } from '../ui.js';

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

/** Where it fired: a single GTT's trigger, or the OCO leg that fired and its trigger. */
const firedWhere = (o: TriggeredOrder): string => {
  if (o.type !== 'oco') return `Fired at ${price(o.trigger ?? o.d, o.ti)}`;
  const leg = o.firedLeg ? o[o.firedLeg] : undefined;
  if (o.firedLeg && leg)
    return `${o.firedLeg === 'target' ? 'Target' : 'Stop'} leg fired at ${price(leg.trigger, o.ti)} (${side(leg.order.trantype)} ${leg.order.qty ?? o.qty})`;
  return `Fired (the broker did not say which leg): target ${price(o.target?.trigger, o.ti)}, stop ${price(o.stopLoss?.trigger, o.ti)}`;
};

/** The latest to fire first; those without a time last, by id. */
const byFiredTime = (a: TriggeredOrder, b: TriggeredOrder): number =>
  (firedAtMs(b.triggeredAt) ?? -Infinity) - (firedAtMs(a.triggeredAt) ?? -Infinity) ||
  b.al_id.localeCompare(a.al_id, 'en', { numeric: true });

export const TriggeredHistory = ({ api, changed }: { api: Api; changed: number }): VNode => {
  const [at, setAt] = useState(0);
  const all = useLoad(async () => {
    let unavailable = false;
    const orders = await allPages(async (cursor) => {
      const page = await ok(
        api.GET('/gtt-orders/triggered', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }),
      );
      unavailable ||= page.orderBookUnavailable === true;
      return { items: page.orders, nextCursor: page.nextCursor };
    });
    return { orders: [...orders].sort(byFiredTime), orderBookUnavailable: unavailable };
  }, [changed]);
  const orders = (all.data?.orders ?? []).slice(at, at + PAGE);
  return html`<section aria-labelledby="triggered-title">
    <h2 id="triggered-title">Fired</h2>
    <${Problem} text=${all.error} />
    ${
      all.data?.orderBookUnavailable
        ? html`<p class="muted">The broker's order book could not be read: fates are missing.</p>`
        : null
    }
    ${orders.length === 0 && !all.loading ? html`<p>Nothing fired yet.</p>` : null}
    <ul class="rows" aria-label="Fired orders">
      ${orders.map((o) => {
        const fate = fateOf(o);
        return html`<li class="row" data-al-id=${o.al_id}>
          <p class="row-head">
            <strong>${o.tsym}</strong> <span>${o.exch}</span> <span>${side(o.trantype)} ${o.qty}</span>
            <span class="muted">${o.al_id}</span>
          </p>
          <p data-fired>${firedWhere(o)}, ${firedTime(o.triggeredAt)}</p>
          <p class=${`fate ${fate.tone}`} data-fate=${o.order?.status ?? 'unknown'}>${fate.text}</p>
        </li>`;
      })}
    </ul>
    <nav class="pager" aria-label="Fired pages">
      <button type="button" disabled=${at === 0} onClick=${() => setAt(Math.max(0, at - PAGE))}>Previous page</button>
      <span>Page ${at / PAGE + 1}</span>
      <button type="button" disabled=${at + PAGE >= (all.data?.orders.length ?? 0)} onClick=${() => setAt(at + PAGE)}>
        Next page
      </button>
    </nav>
  </section>`;
};
