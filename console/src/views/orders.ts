/** Orders: the pending ones (changed in place, cancelled), the place form, the fired ones with their fate. */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import type { ViewProps } from '../app.js';
import type { VNode } from '../ui.js';
import { PendingOrders } from './pending.js';
import { PlaceForm } from './place-form.js';
import { TriggeredHistory } from './triggered.js';

export const OrdersView = ({ api }: ViewProps): VNode => {
  const [changed, setChanged] = useState(0);
  return html`<div class="orders">
    <p class="actions"><button type="button" onClick=${() => setChanged((n) => n + 1)}>Refresh</button></p>
    <${PendingOrders} api=${api} changed=${changed} />
    <${PlaceForm} api=${api} placed=${() => setChanged((n) => n + 1)} />
    <${TriggeredHistory} api=${api} changed=${changed} />
  </div>`;
};
