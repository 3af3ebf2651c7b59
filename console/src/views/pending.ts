/** The pending GTTs and OCOs, a page at a time as the API pages them: each trigger changed in place, or cancelled. */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import { triggerDistance, watchedValue } from '../../../functions/base/schemas/alert-watch.js';
import { type Api, ApiError, describeError, ok } from '../api.js';
import { distance, price, side } from '../format.js';
import { quotesFor, symbolKey } from '../market.js';
import type { PendingOrder, Quote } from '../reads.js';
import { Notice, Pager, Problem, useConfirm, useCursors, useLoad, type VNode } from '../ui.js';

const PAGE = 20;

/** Which trigger is being changed: a single GTT's, or an OCO's target or stop. */
type Leg = 'trigger' | 'target' | 'stopLoss';
interface Editing {
  alId: string;
  leg: Leg;
  etag: string | undefined;
  value: string;
}

const LEG_LABEL: Record<Leg, string> = { trigger: 'trigger', target: 'target trigger', stopLoss: 'stop trigger' };

const triggerOf = (order: PendingOrder, leg: Leg): string =>
  leg === 'target'
    ? (order.target?.trigger ?? '')
    : leg === 'stopLoss'
      ? (order.stopLoss?.trigger ?? '')
      : (order.trigger ?? order.d);

export const PendingOrders = ({ api, changed }: { api: Api; changed: number }): VNode => {
  const { cursors, setCursors, cursor } = useCursors();
  const page = useLoad(
    () => ok(api.GET('/gtt-orders', { params: { query: { limit: PAGE, ...(cursor ? { cursor } : {}) } } })),
    [cursor, changed],
  );
  // One quote per distinct symbol of the page, read again with the page.
  const quotes = useLoad(() => quotesFor(api, page.data?.orders ?? []), [page.data]);
  const [editing, setEditing] = useState<Editing>();
  const [notice, setNotice] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [question, ask] = useConfirm();

  /** Opens the order's trigger for editing, with the order's ETag read now (`keep`: leave the message shown). */
  const startEdit = async (order: PendingOrder, leg: Leg, keep = false) => {
    if (!keep) {
      setProblem(undefined);
      setNotice(undefined);
    }
    try {
      const read = await api.GET('/gtt-orders/{alId}', { params: { path: { alId: order.al_id } } });
      const fresh = (await ok(Promise.resolve(read))) as unknown as PendingOrder;
      const etag = read.response.headers.get('etag') ?? undefined;
      setEditing({ alId: order.al_id, leg, etag, value: triggerOf(fresh, leg) });
    } catch (error) {
      setProblem(describeError(error));
    }
  };

  const save = async (event: Event) => {
    event.preventDefault();
    if (!editing) return;
    const ifMatch = editing.etag ? { 'If-Match': editing.etag } : {};
    const path = { alId: editing.alId };
    try {
      if (editing.leg === 'trigger')
        await ok(api.PATCH('/gtt-orders/{alId}', { params: { path, header: ifMatch }, body: { d: editing.value } }));
      else
        await ok(
          api.PATCH('/gtt-orders/oco/{alId}', {
            params: { path, header: ifMatch },
            body: { [editing.leg]: { trigger: editing.value } },
          }),
        );
      setNotice(`Order ${editing.alId}: ${LEG_LABEL[editing.leg]} is now ${editing.value}.`);
      setEditing(undefined);
      page.reload();
    } catch (error) {
      if (error instanceof ApiError && error.status === 412)
        setProblem(
          `Order ${editing.alId} changed since you opened it (nothing was sent). Its current values are shown: check them and save again.`,
        );
      else setProblem(describeError(error));
      if (error instanceof ApiError && error.status === 412) {
        const order = page.data?.orders.find((o) => o.al_id === editing.alId);
        if (order) await startEdit(order, editing.leg, true);
        page.reload();
      }
    }
  };

  const cancel = (order: PendingOrder) =>
    ask({
      title: `Cancel order ${order.al_id}?`,
      detail: `${side(order.trantype)} ${order.qty} ${order.tsym} (${order.exch}); it is removed at the broker and cannot be brought back.`,
      yes: 'Cancel the order',
      no: 'Keep it',
      onYes: async () => {
        try {
          await ok(api.DELETE('/gtt-orders/{alId}', { params: { path: { alId: order.al_id } } }));
          setNotice(`Order ${order.al_id} cancelled.`);
        } catch (error) {
          setProblem(describeError(error));
        }
        page.reload();
      },
    });

  const orders = page.data?.orders ?? [];
  return html`<section aria-labelledby="pending-title">
    <h2 id="pending-title">Pending</h2>
    <${Problem} text=${page.error ?? problem} />
    <${Notice} text=${notice} />
    ${question} ${orders.length === 0 && !page.loading ? html`<p>No pending GTT or OCO.</p>` : null}
    <ul class="rows" aria-label="Pending orders">
      ${orders.map(
        (order) =>
          html`<li class="row" data-al-id=${order.al_id}>
            <p class="row-head">
              <strong>${order.tsym}</strong> <span>${order.exch}</span>
              <span>${side(order.trantype)} ${order.qty}</span>
              <span class="tag">${order.type === 'oco' ? 'OCO' : 'GTT'}</span>
              <span class="muted">${order.al_id}</span>
              ${order.tag ? html`<span class="muted" data-order-tag>tag ${order.tag}</span>` : null}
            </p>
            <p class="market">Last <span data-last-price>${lastOf(quotes.data, order)}</span></p>
            ${legsOf(order).map(
              (leg) =>
                html`<p class="leg">
                  ${
                    editing?.alId === order.al_id && editing.leg === leg
                      ? html`<form class="inline" onSubmit=${save}>
                          <label for=${`edit-${order.al_id}`}>New ${LEG_LABEL[leg]}</label>
                          <input
                            id=${`edit-${order.al_id}`}
                            inputmode="decimal"
                            required
                            value=${editing.value}
                            onInput=${(e: Event) => setEditing({ ...editing, value: (e.target as HTMLInputElement).value })}
                          />
                          <button type="submit">Save</button>
                          <button type="button" onClick=${() => setEditing(undefined)}>Cancel edit</button>
                        </form>`
                      : html`<span data-leg=${leg}>${legText(order, leg)}</span>
                          <span class="distance" data-distance=${leg}>${distanceText(quotes.data, order, leg)}</span>
                          <button type="button" onClick=${() => void startEdit(order, leg)}>
                            Change ${LEG_LABEL[leg]}<span class="sr-only"> of ${order.al_id}</span>
                          </button>`
                  }
                </p>`,
            )}
            <p class="actions">
              <a href=${`#/chart?exch=${order.exch}&tsym=${encodeURIComponent(order.tsym)}`}>Chart</a>
              <button type="button" class="danger" onClick=${() => cancel(order)}>
                Cancel<span class="sr-only"> order ${order.al_id}</span>
              </button>
            </p>
          </li>`,
      )}
    </ul>
    <${Pager} label="Pending pages" cursors=${cursors} setCursors=${setCursors} next=${page.data?.nextCursor} />
  </section>`;
};

const legsOf = (order: PendingOrder): Leg[] =>
  order.type === 'oco' ? (['target', 'stopLoss'] as const).filter((leg) => order[leg]) : ['trigger'];

/** The family's alert types that watch something else than the last price (docs/explanation/broker-wire.md). */
const OTHER_ALERTS: Readonly<Record<string, { what: string; price: boolean; unit: string }>> = {
  CH_PER: { what: 'Change from the close', price: false, unit: '%' },
  ATP: { what: 'Average price', price: true, unit: '' },
  OI: { what: 'Open interest', price: false, unit: '' },
  TOI: { what: 'Total open interest', price: false, unit: '' },
  VOLUME: { what: 'Volume', price: false, unit: '' },
};

const legText = (order: PendingOrder, leg: Leg): string => {
  const tick = order.ti;
  if (leg === 'trigger') {
    const rises = /_A_/.test(order.ai_t ?? '');
    const other = OTHER_ALERTS[(order.ai_t ?? '').replace(/_[AB]_.*$/, '')];
    const when = other
      ? `${other.what} ${other.price ? price(triggerOf(order, leg), tick) : triggerOf(order, leg)}${other.unit} (fires when it ${rises ? 'rises' : 'falls'} to it)`
      : `Trigger ${price(triggerOf(order, leg), tick)} (fires when the price ${rises ? 'rises' : 'falls'} to it)`;
    return `${when}, then ${order.prctyp} ${price(order.prc, tick)}`;
  }
  const one = order[leg];
  return `${leg === 'target' ? 'Target' : 'Stop'} ${price(one?.trigger, tick)}, then ${one?.order.prctyp ?? ''} ${price(one?.order.prc, tick)}`;
};

const quoteOf = (quotes: Map<string, Quote> | undefined, order: PendingOrder): Quote | undefined =>
  quotes?.get(symbolKey(order.exch, order.tsym));

/** The symbol's last price in the order's tick, or "—" (no quote, or one about another instrument). */
const lastOf = (quotes: Map<string, Quote> | undefined, order: PendingOrder): string =>
  price(quoteOf(quotes, order)?.lp, order.ti);

/**
 * How far the leg's trigger is from what its alert watches: the last price (`20.00 below (1.32%)`), or for another
 * alert type its own figure of the quote (`22.50 below the average price 1512.50 (1.49%)`), or that the quote lacks
 * it; never a distance from the last price for a trigger that is not compared with it.
 */
const distanceText = (quotes: Map<string, Quote> | undefined, order: PendingOrder, leg: Leg): string => {
  const quote = quoteOf(quotes, order);
  const alertType = leg === 'trigger' ? order.ai_t : undefined;
  const watched = quote && watchedValue(alertType, quote);
  if (!quote || !watched || watched.what === 'last price')
    return quote?.lp === undefined ? '' : `trigger ${distance(quote.lp, triggerOf(order, leg), order.ti)}`;
  if ('unavailable' in watched) return `the quote gives no ${watched.what}`;
  const { points, pct } = triggerDistance(alertType, String(triggerOf(order, leg) ?? ''), watched.value);
  if (points === undefined) return '';
  const n = Number(points);
  const percent = watched.what === 'change';
  const where =
    n === 0 ? 'at' : `${points.replace(/^[+-]/, '')}${percent ? ' points' : ''} ${n > 0 ? 'above' : 'below'}`;
  return `trigger ${where} the ${watched.what} ${watched.text}${percent ? '%' : ''}${pct ? ` (${pct.replace(/^[+-]/, '')}%)` : ''}`;
};
