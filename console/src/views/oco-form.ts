/**
 * Placing an OCO: a target and a stop that close one position (both legs on the closing side, the first trigger
 * crossed fires its leg). As with a single GTT: a dry run shows the exact request and the rules checked, then
 * "Place this OCO" sends that OCO only, with the Idempotency-Key made at its dry run. The API's refusals are shown
 * beside the field they name; the order placed is read back and shown as the broker holds it.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import type { operations } from '../../../client/generated/openapi.js';
import { type Api, newKey, ok } from '../api.js';
import { price } from '../format.js';
import { type DryRun, EXCHANGES, type PendingOrder } from '../reads.js';
import { Notice, Problem, type VNode } from '../ui.js';
import { Review } from './dry-run-review.js';
import { byPrefix, Choice, Field, PRICE_TYPES, PRODUCTS, useFormRun } from './form-kit.js';

type OcoInput = operations['PlaceOCOOrder']['requestBody']['content']['application/json'];
type Leg = OcoInput['target']['order'];

interface Fields {
  exch: string;
  tsym: string;
  side: 'B' | 'S';
  qty: string;
  prd: string;
  targetTrigger: string;
  targetType: string;
  targetPrice: string;
  stopTrigger: string;
  stopType: string;
  stopPrice: string;
  ltp: string;
}

const START: Fields = {
  exch: 'NSE',
  tsym: '',
  side: 'S',
  qty: '1',
  prd: 'C',
  targetTrigger: '',
  targetType: 'LMT',
  targetPrice: '',
  stopTrigger: '',
  stopType: 'LMT',
  stopPrice: '',
  ltp: '',
};

const legOf = (f: Fields, type: string, prc: string): Leg => ({
  trantype: f.side,
  prctyp: type as Leg['prctyp'],
  qty: f.qty.trim(),
  ...(type === 'LMT' ? { prc: prc.trim() } : {}),
  prd: f.prd as Leg['prd'],
});

/** The body of `POST /gtt-orders/oco` (docs/reference/http-api.md, OCO fields). */
export const ocoOf = (f: Fields): OcoInput => ({
  exch: f.exch as OcoInput['exch'],
  tsym: f.tsym.trim(),
  ...(f.ltp.trim() ? { ltp: f.ltp.trim() } : {}),
  target: { trigger: f.targetTrigger.trim(), order: legOf(f, f.targetType, f.targetPrice) },
  stopLoss: { trigger: f.stopTrigger.trim(), order: legOf(f, f.stopType, f.stopPrice) },
});

const FIELD_OF = byPrefix({
  exch: 'exch',
  tsym: 'tsym',
  ltp: 'ltp',
  target: 'targetTrigger',
  'target.trigger': 'targetTrigger',
  'target.order.prc': 'targetPrice',
  'target.order.prctyp': 'targetType',
  'target.order.qty': 'qty',
  'target.order.prd': 'prd',
  'target.order.trantype': 'side',
  stopLoss: 'stopTrigger',
  'stopLoss.trigger': 'stopTrigger',
  'stopLoss.order.prc': 'stopPrice',
  'stopLoss.order.prctyp': 'stopType',
  'stopLoss.order.qty': 'qty',
  'stopLoss.order.prd': 'prd',
  'stopLoss.order.trantype': 'side',
});

export const OcoForm = ({ api, placed }: { api: Api; placed: (alId: string) => void }): VNode => {
  const [fields, setFields] = useState<Fields>(START);
  const [review, setReview] = useState<{ order: string; dryRun: DryRun; key: string }>();
  const [made, setMade] = useState<PendingOrder>();
  const form = useFormRun(FIELD_OF);
  const order = ocoOf(fields);
  const reviewed = review?.order === JSON.stringify(order);
  const props = (name: keyof Fields) => ({
    id: `oco-${name}`,
    value: fields[name],
    set: (value: string) => setFields({ ...fields, [name]: value }),
    errors: form.errors[name],
  });

  const dryRun = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      setMade(undefined);
      // A dry run sends nothing and takes no key: openapi-fetch leaves an undefined header out.
      const header = { 'Idempotency-Key': undefined as unknown as string };
      const answer = await ok(
        api.POST('/gtt-orders/oco', { params: { query: { dryRun: true }, header }, body: order }),
      );
      setReview({ order: JSON.stringify(order), dryRun: answer as DryRun, key: newKey() });
    });
  };
  const place = () =>
    void form.run(async () => {
      if (!review || !reviewed) return;
      const answer = await ok(
        api.POST('/gtt-orders/oco', { params: { header: { 'Idempotency-Key': review.key } }, body: order }),
      );
      const alId = 'al_id' in answer ? answer.al_id : '';
      form.setNotice(`Placed: OCO ${alId}.`);
      setReview(undefined);
      placed(alId);
      const held = await ok(api.GET('/gtt-orders/{alId}', { params: { path: { alId } } }));
      setMade(held as PendingOrder);
    });

  const leg = (name: 'target' | 'stop', title: string) =>
    html`<fieldset class="leg-fields">
      <legend>${title}</legend>
      <${Field} ...${props(`${name}Trigger`)} label=${`${title} trigger`} inputmode="decimal" required />
      <${Choice} ...${props(`${name}Type`)} label=${`${title} order type`} options=${PRICE_TYPES} />
      ${
        fields[`${name}Type`] === 'LMT'
          ? html`<${Field} ...${props(`${name}Price`)} label=${`${title} limit price`} inputmode="decimal" required />`
          : null
      }
    </fieldset>`;

  return html`<div>
    <form class="place" onSubmit=${dryRun} aria-label="An OCO" data-form="oco">
      <${Choice} ...${props('exch')} label="Exchange" options=${EXCHANGES.map((e) => [e, e] as const)} />
      <${Field} ...${props('tsym')} label="Symbol" placeholder="M&M-EQ" autocomplete="off" required />
      <${Choice}
        ...${props('side')}
        label="Side of both legs"
        options=${[
          ['S', 'Sell: closes a long (target above the stop)'],
          ['B', 'Buy: closes a short (target below the stop)'],
        ]}
      />
      <${Field} ...${props('qty')} label="Quantity" inputmode="numeric" required />
      <${Choice} ...${props('prd')} label="Product" options=${PRODUCTS} />
      <${Field}
        ...${props('ltp')}
        label="Price now (optional)"
        inputmode="decimal"
        hint="checked to lie between the triggers; not sent to the broker"
      />
      ${leg('target', 'Target')} ${leg('stop', 'Stop')}
      <p class="actions">
        <button type="submit" disabled=${form.busy}>Dry run</button>
        <button type="button" class="primary" disabled=${form.busy || !reviewed} onClick=${place}>
          Place this OCO
        </button>
      </p>
    </form>
    <${Problem} text=${form.problem} />
    <${Notice} text=${form.notice} />
    ${made ? html`<${Placed} order=${made} />` : null}
    ${review && reviewed ? html`<${Review} dryRun=${review.dryRun} />` : null}
    ${review && !reviewed ? html`<p class="muted">The form changed since the dry run: run it again to place.</p>` : null}
  </div>`;
};

/** The OCO as the gateway now lists it: both legs, their triggers, orders and quantity. */
const Placed = ({ order }: { order: PendingOrder }): VNode => {
  type Held = NonNullable<PendingOrder['target']>;
  const line = (name: string, leg: Held | undefined) =>
    leg
      ? html`<li data-placed-leg=${name}>
          ${`${name === 'target' ? 'Target' : 'Stop'} ${price(leg.trigger)}: ${leg.order.trantype === 'B' ? 'buy' : 'sell'} ${leg.order.qty ?? '—'} ${leg.order.prctyp === 'LMT' ? `at ${price(leg.order.prc)}` : (leg.order.prctyp ?? '')}`}
        </li>`
      : null;
  return html`<div class="review" data-placed=${order.al_id}>
    <h3>OCO ${order.al_id} at the broker: ${order.tsym} ${order.exch}</h3>
    <ul>
      ${line('target', order.target)} ${line('stopLoss', order.stopLoss)}
    </ul>
  </div>`;
};
