/** Events: the day's timeline (newest first), in IST, filtered by type, a page at a time. */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import type { operations } from '../../../client/generated/openapi.js';
import { ok } from '../api.js';
import type { ViewProps } from '../app.js';
import { istTime } from '../format.js';
import type { EventRecord } from '../reads.js';
import { Problem, useLoad, type VNode } from '../ui.js';

type EventType = NonNullable<NonNullable<operations['ListEvents']['parameters']['query']>['type']>;

const TYPES: readonly EventType[] = [
  'GTT Placed',
  'GTT Modified',
  'GTT Cancelled',
  'GTT Triggered',
  'GTT Removed',
  'Order Filled',
  'Order Rejected',
  'Order Cancelled',
  'Kill Switch',
  'Session Expired',
  'Session Renewed',
  'Plan Armed',
  'Plan Step',
  'Plan Done',
  'Plan Failed',
  'Plan Unprotected',
  'Signal Received',
  'Signal Acted',
  'Signal Refused',
];

const PAGE = 50;

/** One line of what the event says: its symbol, side, trigger, order and state, when it has them. */
const summary = (detail: Record<string, unknown>): string => {
  const text = (key: string) =>
    typeof detail[key] === 'string' || typeof detail[key] === 'number' ? String(detail[key]) : undefined;
  const order = detail.order as { status?: string; filledQty?: number; averagePrice?: string } | undefined;
  return [
    text('tsym') && `${text('tsym')}${text('exch') ? ` (${text('exch')})` : ''}`,
    text('side') && (text('side') === 'B' ? 'buy' : 'sell'),
    text('quantity') && `qty ${text('quantity')}`,
    text('trigger') && `trigger ${text('trigger')}`,
    text('al_id') && `order ${text('al_id')}`,
    text('planId') && `plan ${text('planId')}`,
    text('state'),
    order?.status && `order ${order.status}${order.averagePrice ? ` at ${order.averagePrice}` : ''}`,
    text('reason'),
  ]
    .filter(Boolean)
    .join(' · ');
};

const tone = (type: string): string =>
  /Rejected|Failed|Unprotected|Expired|Refused|Kill/.test(type)
    ? 'bad'
    : /Filled|Done|Renewed/.test(type)
      ? 'good'
      : '';

export const EventsView = ({ api }: ViewProps): VNode => {
  const [type, setType] = useState<EventType | ''>('');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const page = useLoad(
    () =>
      ok(
        api.GET('/events', {
          params: { query: { limit: PAGE, ...(type ? { type } : {}), ...(cursor ? { cursor } : {}) } },
        }),
      ),
    [type, cursor],
  );
  const events: EventRecord[] = page.data?.events ?? [];
  return html`<div class="events">
    <form class="inline" onSubmit=${(e: Event) => e.preventDefault()}>
      <label for="event-type">Type</label>
      <select
        id="event-type"
        value=${type}
        onChange=${(e: Event) => {
          setType((e.target as HTMLSelectElement).value as EventType | '');
          setCursors([undefined]);
        }}
      >
        <option value="">Every type</option>
        ${TYPES.map((t) => html`<option value=${t}>${t}</option>`)}
      </select>
      <button type="button" onClick=${page.reload}>Refresh</button>
    </form>
    <${Problem} text=${page.error} />
    ${page.data ? html`<p class="muted">Since ${istTime(page.data.since)}</p>` : null}
    ${events.length === 0 && !page.loading ? html`<p>No events${type ? ` of type ${type}` : ''}.</p>` : null}
    <ol class="timeline" aria-label="Events">
      ${events.map(
        (e) =>
          html`<li class=${tone(e.detailType)} data-event-type=${e.detailType}>
            <time datetime=${e.publishedAt}>${istTime(e.publishedAt)}</time>
            <strong>${e.detailType}</strong>
            <span>${summary(e.detail)}</span>
          </li>`,
      )}
    </ol>
    <nav class="pager" aria-label="Event pages">
      <button type="button" disabled=${cursors.length < 2} onClick=${() => setCursors(cursors.slice(0, -1))}>
        Newer
      </button>
      <button
        type="button"
        disabled=${!page.data?.nextCursor}
        onClick=${() => setCursors([...cursors, page.data?.nextCursor])}
      >
        Older
      </button>
    </nav>
  </div>`;
};
