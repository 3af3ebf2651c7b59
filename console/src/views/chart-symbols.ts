/** The symbols that have pending orders, each a link that opens its chart (how many orders beside it). */
import { html } from 'htm/preact';

import type { Api } from '../api.js';
import { pendingOrders } from '../reads.js';
import { Problem, useLoad, type VNode } from '../ui.js';

export const chartHref = (exch: string, tsym: string) => `#/chart?exch=${exch}&tsym=${encodeURIComponent(tsym)}`;

export const OrderSymbols = ({ api, current }: { api: Api; current: string }): VNode => {
  const orders = useLoad(() => pendingOrders(api), []);
  const counts = new Map<string, { exch: string; tsym: string; n: number }>();
  for (const o of orders.data ?? []) {
    const key = `${o.exch}:${o.tsym}`;
    counts.set(key, { exch: o.exch, tsym: o.tsym, n: (counts.get(key)?.n ?? 0) + 1 });
  }
  const symbols = [...counts.values()].sort((a, b) => a.tsym.localeCompare(b.tsym));
  return html`<nav aria-labelledby="order-symbols-title" class="order-symbols">
    <h2 id="order-symbols-title">Symbols with pending orders</h2>
    <${Problem} text=${orders.error} />
    ${!orders.loading && symbols.length === 0 ? html`<p>No pending orders.</p>` : null}
    <ul>
      ${symbols.map(
        (s) =>
          html`<li data-order-symbol=${`${s.exch}:${s.tsym}`}>
            <a href=${chartHref(s.exch, s.tsym)} aria-current=${current === `${s.exch}:${s.tsym}` ? 'page' : undefined}
              >${s.tsym}</a
            >
            <span class="muted">${s.exch}, ${s.n} ${s.n === 1 ? 'order' : 'orders'}</span>
          </li>`,
      )}
    </ul>
  </nav>` as VNode;
};
