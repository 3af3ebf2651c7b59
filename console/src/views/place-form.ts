/**
 * Placing an order: a single GTT here, an OCO in oco-form.ts (the trader picks which). For each: the form, a dry run that shows the exact request the gateway would send and the exchange's rules it
 * checked, then the real order, sent only as reviewed (a change to the form asks for a new dry run). The order's
 * Idempotency-Key is made with its dry run, so pressing "Place" twice places it once.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import type { operations } from '../../../client/generated/openapi.js';
import { type Api, describeError, newKey, ok } from '../api.js';
import { type DryRun, EXCHANGES } from '../reads.js';
import { Notice, Problem, type VNode } from '../ui.js';
import { ALERT_OPTIONS, triggerHint, triggerLabel } from './alert-choices.js';
import { Review } from './dry-run-review.js';
import { OcoForm } from './oco-form.js';

type OrderInput = operations['PlaceGTTOrder']['requestBody']['content']['application/json'];

interface Fields {
  exch: OrderInput['exch'];
  tsym: string;
  trantype: OrderInput['trantype'];
  qty: string;
  ai_t: OrderInput['ai_t'];
  d: string;
  prctyp: 'LMT' | 'MKT';
  prc: string;
  prd: OrderInput['prd'];
}

const START: Fields = {
  exch: 'NSE',
  tsym: '',
  trantype: 'B',
  qty: '1',
  ai_t: 'LTP_B_O',
  d: '',
  prctyp: 'LMT',
  prc: '',
  prd: 'C',
};

const orderOf = (f: Fields): OrderInput => ({
  exch: f.exch,
  tsym: f.tsym.trim(),
  trantype: f.trantype,
  qty: f.qty,
  ai_t: f.ai_t,
  d: f.d,
  prctyp: f.prctyp,
  ...(f.prctyp === 'LMT' ? { prc: f.prc } : {}),
  prd: f.prd,
  ret: 'DAY',
});

export const PlaceForm = ({ api, placed }: { api: Api; placed: (alId: string) => void }): VNode => {
  const [kind, setKind] = useState<'gtt' | 'oco'>('gtt');
  const pick = (value: 'gtt' | 'oco') =>
    html`<label
      ><input
        type="radio"
        name="place-kind"
        value=${value}
        checked=${kind === value}
        onChange=${() => setKind(value)}
      />
      ${value === 'gtt' ? ' A single GTT' : ' An OCO: a target and a stop'}</label
    >`;
  return html`<section aria-labelledby="place-title">
    <h2 id="place-title">Place an order</h2>
    <fieldset class="kind">
      <legend>What to place</legend>
      ${pick('gtt')} ${pick('oco')}
    </fieldset>
    ${kind === 'gtt' ? html`<${GttForm} api=${api} placed=${placed} />` : html`<${OcoForm} api=${api} placed=${placed} />`}
  </section>`;
};

const GttForm = ({ api, placed }: { api: Api; placed: (alId: string) => void }): VNode => {
  const [fields, setFields] = useState<Fields>(START);
  const [review, setReview] = useState<{ order: string; dryRun: DryRun; key: string }>();
  const [problem, setProblem] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [busy, setBusy] = useState(false);
  const order = orderOf(fields);
  const reviewed = review?.order === JSON.stringify(order);

  const set =
    (name: keyof Fields) =>
    (event: Event): void =>
      setFields({ ...fields, [name]: (event.target as HTMLInputElement | HTMLSelectElement).value });

  const run = async (what: () => Promise<void>) => {
    setBusy(true);
    setProblem(undefined);
    setNotice(undefined);
    try {
      await what();
    } catch (error) {
      setProblem(describeError(error));
    } finally {
      setBusy(false);
    }
  };

  const dryRun = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      // A dry run sends nothing and takes no key: openapi-fetch leaves an undefined header out.
      const header = { 'Idempotency-Key': undefined as unknown as string };
      const answer = await ok(api.POST('/gtt-orders', { params: { query: { dryRun: true }, header }, body: order }));
      setReview({ order: JSON.stringify(order), dryRun: answer as DryRun, key: newKey() });
    });
  };

  const place = () =>
    void run(async () => {
      if (!review || !reviewed) return;
      const header = { 'Idempotency-Key': review.key };
      const answer = await ok(api.POST('/gtt-orders', { params: { header }, body: order }));
      const alId = 'al_id' in answer ? answer.al_id : '';
      setNotice(`Placed: order ${alId}.`);
      setReview(undefined);
      placed(alId);
    });

  const field = (name: keyof Fields, label: string, extra: Record<string, string> = {}, hint?: string) =>
    html`<p class="field">
      <label for=${`place-${name}`}>${label}</label>
      <input
        id=${`place-${name}`}
        name=${name}
        value=${fields[name]}
        onInput=${set(name)}
        required
        aria-describedby=${hint ? `place-${name}-hint` : undefined}
        ...${extra}
      />
      ${hint ? html`<span class="hint" id=${`place-${name}-hint`}>${hint}</span>` : null}
    </p>`;
  const choice = (name: keyof Fields, label: string, options: readonly (readonly [string, string])[]) =>
    html`<p class="field">
      <label for=${`place-${name}`}>${label}</label>
      <select id=${`place-${name}`} name=${name} value=${fields[name]} onChange=${set(name)}>
        ${options.map(([value, text]) => html`<option value=${value}>${text}</option>`)}
      </select>
    </p>`;

  return html`<div>
    <form class="place" onSubmit=${dryRun} aria-label="A single GTT">
      ${choice(
        'exch',
        'Exchange',
        EXCHANGES.map((e) => [e, e]),
      )}
      ${field('tsym', 'Symbol', { placeholder: 'M&M-EQ', autocomplete: 'off' })}
      ${choice('trantype', 'Side', [
        ['B', 'Buy'],
        ['S', 'Sell'],
      ])}
      ${field('qty', 'Quantity', { inputmode: 'numeric' })} ${choice('ai_t', 'Fires when', ALERT_OPTIONS)}
      ${field('d', triggerLabel(fields.ai_t), { inputmode: 'decimal' }, triggerHint(fields.ai_t))}
      ${choice('prctyp', 'Order type', [
        ['LMT', 'Limit'],
        ['MKT', 'Market (sent as a protected limit)'],
      ])}
      ${fields.prctyp === 'LMT' ? field('prc', 'Limit price', { inputmode: 'decimal' }) : null}
      ${choice('prd', 'Product', [
        ['C', 'Delivery (C)'],
        ['M', 'Margin (M)'],
        ['H', 'Cover (H)'],
      ])}
      <p class="actions">
        <button type="submit" disabled=${busy}>Dry run</button>
        <button type="button" class="primary" disabled=${busy || !reviewed} onClick=${place}>Place this order</button>
      </p>
    </form>
    <${Problem} text=${problem} />
    <${Notice} text=${notice} />
    ${review && reviewed ? html`<${Review} dryRun=${review.dryRun} />` : null}
    ${review && !reviewed ? html`<p class="muted">The form changed since the dry run: run it again to place.</p>` : null}
  </div>`;
};
