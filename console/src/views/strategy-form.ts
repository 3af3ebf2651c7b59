/**
 * A new strategy from its source's template: a GTT at an offset from the alert's price, in paper mode. The side is
 * the alert's, or fixed here; a ChartInk alert carries none, so a ChartInk strategy must fix it (the API refuses it
 * otherwise, naming `action.order.trantype`). The API's refusals are shown beside the field they name.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import type { operations } from '../../../client/generated/openapi.js';
import { type Api, newKey, ok } from '../api.js';
import { EXCHANGES } from '../reads.js';
import { Notice, Problem, type VNode } from '../ui.js';
import { byPrefix, Choice, Field, useFormRun } from './form-kit.js';

type StrategyInput = operations['CreateStrategy']['requestBody']['content']['application/json'];
export type CreatedStrategy = operations['CreateStrategy']['responses'][201]['content']['application/json'];
type Source = StrategyInput['source'];

const SOURCES: readonly [Source, string][] = [
  ['tradingview', 'TradingView'],
  ['chartink', 'ChartInk'],
  ['amibroker', 'AmiBroker'],
  ['generic', 'Any JSON (generic)'],
];

interface Fields {
  source: Source;
  name: string;
  exch: string;
  side: '' | 'B' | 'S';
  qty: string;
  trigger: string;
  price: string;
}

const START: Fields = {
  source: 'tradingview',
  name: '',
  exch: 'NSE',
  side: '',
  qty: '1',
  trigger: '-0.5%',
  price: '-0.5%',
};

/** The body of `POST /strategies`: the template with the form's values (the quantity is also the most per alert). */
export const strategyOf = (f: Fields): StrategyInput => {
  const qty = Number(f.qty);
  const whole = Number.isInteger(qty) && qty > 0;
  return {
    name: f.name.trim() || `${f.source}-dips`,
    source: f.source,
    mode: 'paper',
    ...(whole ? { maxQty: qty } : {}),
    action: {
      kind: 'gtt',
      order: {
        exch: f.exch as 'NSE',
        prd: 'C',
        // A quantity the API must judge is sent as typed (it names the field); the type says number.
        qty: (whole ? qty : f.qty) as number,
        ...(f.side ? { trantype: f.side } : {}),
      },
      trigger: { offset: f.trigger.trim() },
      price: { offset: f.price.trim() },
    },
  };
};

const FIELD_OF = byPrefix({
  name: 'name',
  source: 'source',
  maxQty: 'qty',
  'action.order.qty': 'qty',
  'action.order.exch': 'exch',
  'action.order.trantype': 'side',
  'action.trigger': 'trigger',
  'action.price': 'price',
});

export const StrategyForm = ({ api, created }: { api: Api; created: (made: CreatedStrategy) => void }): VNode => {
  const [fields, setFields] = useState<Fields>(START);
  const form = useFormRun(FIELD_OF);
  const set = (name: keyof Fields) => (value: string) => setFields({ ...fields, [name]: value });
  const chartink = fields.source === 'chartink';
  const submit = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      const made = await ok(
        api.POST('/strategies', { params: { header: { 'Idempotency-Key': newKey() } }, body: strategyOf(fields) }),
      );
      form.setNotice(`Strategy ${made.name} created (${made.strategyId}), in paper mode.`);
      created(made);
    });
  };
  const props = (name: keyof Fields) => ({
    id: `strategy-${name}`,
    value: fields[name],
    set: set(name),
    errors: form.errors[name],
  });
  return html`<section aria-labelledby="new-strategy-title">
    <h2 id="new-strategy-title">New strategy from a template</h2>
    <p class="muted">A GTT at an offset from the alert's price, in paper mode (nothing is placed until you go live).</p>
    <form class="place" onSubmit=${submit} data-form="strategy">
      <${Choice} ...${props('source')} label="Source" options=${SOURCES} />
      <${Field} ...${props('name')} label="Name" placeholder=${`${fields.source}-dips`} />
      <${Choice} ...${props('exch')} label="Exchange" options=${EXCHANGES.map((e) => [e, e] as const)} />
      <${Choice}
        ...${props('side')}
        label="Side"
        options=${chartink ? [['', 'Choose: ChartInk alerts carry no side'], ...SIDE_FIXED] : SIDE_OPTIONS}
        hint=${chartink ? 'Required: every ChartInk alert is placed on this side.' : undefined}
      />
      <${Field} ...${props('qty')} label="Quantity" inputmode="numeric" />
      <${Field} ...${props('trigger')} label="Trigger offset" hint="from the alert's price: -0.5% or -5" />
      <${Field} ...${props('price')} label="Limit price offset" hint="from the alert's price: -0.5% or -5" />
      <p class="actions"><button type="submit" disabled=${form.busy}>Create</button></p>
    </form>
    <${Problem} text=${form.problem} />
    <${Notice} text=${form.notice} />
  </section>` as VNode;
};

const SIDE_FIXED = [
  ['B', 'Buy'],
  ['S', 'Sell'],
] as const;
const SIDE_OPTIONS = [['', "The alert's (buy or sell)"], ...SIDE_FIXED] as const;
