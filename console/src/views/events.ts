/**
 * Events: the day's timeline, newest first, in IST, filtered by type, a page at a time. The API pages oldest first,
 * so every page since the start of the day is read (bounded) and turned around; an event seen by two producers
 * (the gateway and the watcher, one `eventId`) is shown once.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import type { operations } from '../../../client/generated/openapi.js';
import { allPages, ok } from '../api.js';
import type { ViewProps } from '../app.js';
import { istTime } from '../format.js';
import type { EventRecord } from '../reads.js';
import { Problem, useLoad, type VNode } from '../ui.js';
import { eventSummary, newestFirst } from './event-summary.js';

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
/** How many of the API's pages of 100 the view reads at most. */
const MAX_PAGES = 50;

const tone = (type: string): string =>
  /Rejected|Failed|Unprotected|Expired|Refused|Kill/.test(type)
    ? 'bad'
    : /Filled|Done|Renewed/.test(type)
      ? 'good'
      : '';

export const EventsView = ({ api, query }: ViewProps): VNode => {
  // `#/events?type=GTT%20Placed` (Today's lists link so) opens filtered.
  const [type, setType] = useState<EventType | ''>(() => {
    const asked = query.get('type') ?? '';
    return (TYPES as readonly string[]).includes(asked) ? (asked as EventType) : '';
  });
  const [at, setAt] = useState(0);
  const page = useLoad(async () => {
    let since = '';
    let more = false;
    const read = await allPages(async (cursor) => {
      const got = await ok(
        api.GET('/events', {
          params: { query: { limit: 100, ...(type ? { type } : {}), ...(cursor ? { cursor } : {}) } },
        }),
      );
      since = got.since;
      more = got.nextCursor !== undefined;
      return { items: got.events, nextCursor: got.nextCursor };
    }, MAX_PAGES);
    // More than MAX_PAGES pages: the newest were not read (the API pages oldest first), and the page says so.
    return { since, events: newestFirst(read), more };
  }, [type]);
  const all = page.data?.events ?? [];
  const events: EventRecord[] = all.slice(at, at + PAGE);
  return html`<div class="events">
    <form class="inline" onSubmit=${(e: Event) => e.preventDefault()}>
      <label for="event-type">Type</label>
      <select
        id="event-type"
        value=${type}
        onChange=${(e: Event) => {
          setType((e.target as HTMLSelectElement).value as EventType | '');
          setAt(0);
        }}
      >
        <option value="">Every type</option>
        ${TYPES.map((t) => html`<option value=${t}>${t}</option>`)}
      </select>
      <button type="button" onClick=${page.reload}>Refresh</button>
    </form>
    <${Problem} text=${page.error} />
    ${page.data ? html`<p class="muted">Since ${istTime(page.data.since)}</p>` : null}
    ${
      page.data?.more
        ? html`<p class="problem" role="alert">
            More than ${MAX_PAGES * 100} events today: the newest are not shown. Pick a type to see fewer.
          </p>`
        : null
    }
    ${events.length === 0 && !page.loading ? html`<p>No events${type ? ` of type ${type}` : ''}.</p>` : null}
    <ol class="timeline" aria-label="Events">
      ${events.map(
        (e) =>
          html`<li class=${tone(e.detailType)} data-event-type=${e.detailType}>
            <time datetime=${e.publishedAt}>${istTime(e.publishedAt)}</time>
            <strong>${e.detailType}</strong>
            <span>${eventSummary(e.detailType, e.detail)}</span>
          </li>`,
      )}
    </ol>
    <nav class="pager" aria-label="Event pages">
      <button type="button" disabled=${at === 0} onClick=${() => setAt(Math.max(0, at - PAGE))}>Newer</button>
      <button type="button" disabled=${at + PAGE >= all.length} onClick=${() => setAt(at + PAGE)}>Older</button>
    </nav>
  </div>`;
};
