/**
 * Today's positions: the broker's PositionBook as `GET /positions` answers it, read once each time Today opens. Each
 * position on a line (open ones first, as the gateway orders them): its symbol (a link to its chart), long or short
 * and how many, the average and last price, the unrealised P&L, and the realised; a closed one says so with what it
 * realised. Then the day's realised, unrealised and total, in rupees the Indian way. No position is said in words.
 */
import { html } from 'htm/preact';

import type { PositionsResult } from '../../../functions/base/schemas/positions.js';
import { type Api, ok } from '../api.js';
import { price, rupees } from '../format.js';
import { Problem, useLoad, type VNode } from '../ui.js';

type Position = PositionsResult['positions'][number];

/** The broker's product codes as traders name them; another code as given. */
const PRODUCTS: Record<string, string> = { C: 'CNC', I: 'MIS', M: 'NRML', H: 'CO', B: 'BO' };

/** A P&L's class: gains green, losses red, nothing plain. */
const tone = (n: number): string => (n > 0 ? 'good' : n < 0 ? 'bad' : '');

const netWords = (qty: number): string => (qty > 0 ? `Long ${qty}` : qty < 0 ? `Short ${-qty}` : 'Closed');

const PositionLine = ({ p }: { p: Position }): VNode =>
  html`<li data-position=${`${p.exch}:${p.tsym}:${p.product}`}>
    <a href=${`#/chart?exch=${p.exch}&tsym=${encodeURIComponent(p.tsym)}`}>${p.tsym}</a>
    <span class="muted">${PRODUCTS[p.product] ?? p.product}</span>
    <span data-net-qty=${p.netQty}>${netWords(p.netQty)}</span>
    ${p.netQty === 0 ? null : html`<span data-average>at ${price(p.averagePrice, '0.01')}</span>`}
    <span data-last>last ${price(p.lastPrice, '0.01')}</span>
    ${
      p.netQty === 0
        ? null
        : html`<span data-unrealised class=${tone(p.unrealised)}>unrealised ${rupees(p.unrealised)}</span>`
    }
    <span data-realised class=${tone(p.realised)}>realised ${rupees(p.realised)}</span>
  </li>` as VNode;

const Totals = ({ t }: { t: PositionsResult['totals'] }): VNode =>
  html`<dl class="facts">
    <div>
      <dt>Realised</dt>
      <dd data-total="realised" class=${tone(t.realised)}>${rupees(t.realised)}</dd>
    </div>
    <div>
      <dt>Unrealised</dt>
      <dd data-total="unrealised" class=${tone(t.unrealised)}>${rupees(t.unrealised)}</dd>
    </div>
    <div>
      <dt>Day's total</dt>
      <dd data-total="total" class=${tone(t.total)}>${rupees(t.total)}</dd>
    </div>
  </dl>` as VNode;

export const PositionsCard = ({ api }: { api: Api }): VNode => {
  const read = useLoad(() => ok(api.GET('/positions')), []);
  const data = read.data;
  return html`<section aria-labelledby="positions-title" class="card">
    <h2 id="positions-title">Positions${data ? ` (${data.totals.open} open)` : ''}</h2>
    <${Problem} text=${read.error} />
    ${read.loading && !data ? html`<p>Reading the broker's positions…</p>` : null}
    ${
      data && data.positions.length === 0
        ? html`<p class="muted" data-positions="none">No positions today: nothing has filled at the broker.</p>`
        : null
    }
    ${
      data && data.positions.length > 0
        ? html`<ul class="day-list" aria-label="Positions" data-positions="list">
              ${data.positions.map((p) => html`<${PositionLine} p=${p} />`)}
            </ul>
            <${Totals} t=${data.totals} />`
        : null
    }
  </section>` as VNode;
};
