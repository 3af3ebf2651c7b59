/** The console's frame: the header with the views' links, and the view the location's hash names. */
import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';

import type { Api } from './api.js';
import type { Session } from './auth/index.js';
import { ChartView } from './views/chart.js';
import { EventsView } from './views/events.js';
import { OrdersView } from './views/orders.js';
import { PlansView } from './views/plans.js';
import { SignalsView } from './views/signals.js';
import { TodayView } from './views/today.js';

export interface ViewProps {
  api: Api;
  /** The hash's query (`#/chart?exch=NSE&tsym=...`). */
  query: URLSearchParams;
}

const VIEWS: { path: string; label: string; view: (props: ViewProps) => VNode }[] = [
  { path: 'today', label: 'Today', view: TodayView },
  { path: 'orders', label: 'Orders', view: OrdersView },
  { path: 'plans', label: 'Plans', view: PlansView },
  { path: 'signals', label: 'Signals', view: SignalsView },
  { path: 'chart', label: 'Chart', view: ChartView },
  { path: 'events', label: 'Events', view: EventsView },
];

const route = (): { path: string; query: URLSearchParams } => {
  const [path = '', query = ''] = window.location.hash.replace(/^#\/?/, '').split('?');
  return { path: VIEWS.some((v) => v.path === path) ? path : 'today', query: new URLSearchParams(query) };
};

export const App = ({ api, session }: { api: Api; session: Session }): VNode => {
  const [where, setWhere] = useState(route);
  useEffect(() => {
    const onHash = () => setWhere(route());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const current = VIEWS.find((v) => v.path === where.path) ?? VIEWS[0]!;
  useEffect(() => {
    document.title = `${current.label} · gtt-gateway console`;
  }, [current]);
  return html`<a class="skip" href="#main" onClick=${skipToMain}>Skip to the view</a>
    <header>
      <p class="brand">gtt-gateway</p>
      <nav aria-label="Views">
        <ul>
          ${VIEWS.map(
            (v) =>
              html`<li>
                <a href=${`#/${v.path}`} aria-current=${v === current ? 'page' : undefined}>${v.label}</a>
              </li>`,
          )}
        </ul>
      </nav>
      ${
        session.user
          ? html`<p class="user">
              ${session.user}
              ${session.signOut ? html`<button type="button" onClick=${session.signOut}>Sign out</button>` : null}
            </p>`
          : null
      }
    </header>
    <main id="main" tabindex="-1">
      <h1>${current.label}</h1>
      <${current.view} api=${api} query=${where.query} key=${current.path} />
    </main>`;
};

/** The skip link moves focus (the hash is the router's, so it must not change). */
const skipToMain = (event: Event) => {
  event.preventDefault();
  document.getElementById('main')?.focus();
};
