/**
 * A new plan (docs/reference/plans.md): a bracket (an entry GTT, then an OCO exit of what filled) or a trailing stop (a stop GTT
 * that follows the price). The API has no dry run for plans: it checks the whole plan before it places anything (the
 * ticks, each leg's side, the exit's OCO rules and the guardrails) and names each field it refuses, shown beside it.
 * The request is shown as it will be sent; its Idempotency-Key stays the same while the form does, so pressing
 * "Create" twice creates one plan.
 */
import { html } from 'htm/preact';
import { useRef, useState } from 'preact/hooks';

import type { operations } from '../../../client/generated/openapi.js';
import { type Api, newKey, ok } from '../api.js';
import { price } from '../format.js';
import { EXCHANGES } from '../reads.js';
import { Notice, Problem, type VNode } from '../ui.js';
import { ALERT_OPTIONS, triggerHint, triggerLabel } from './alert-choices.js';
import { byPrefix, Choice, Field, PRICE_TYPES, PRODUCTS, useFormRun } from './form-kit.js';
import type { CreatedPlan } from './plan-dry-run.js';

type PlanInput = operations['CreatePlan']['requestBody']['content']['application/json'];
interface Fields {
  kind: 'bracket' | 'trailing-stop';
  exch: string;
  tsym: string;
  side: 'B' | 'S';
  qty: string;
  prd: string;
  ai_t: string;
  d: string;
  prctyp: string;
  prc: string;
  targetTrigger: string;
  targetPrice: string;
  stopTrigger: string;
  stopPrice: string;
  trailBy: string;
  step: string;
  tag: string;
}

const START: Fields = {
  kind: 'bracket',
  exch: 'NSE',
  tsym: '',
  side: 'B',
  qty: '1',
  prd: 'C',
  ai_t: 'LTP_B_O',
  d: '',
  prctyp: 'LMT',
  prc: '',
  targetTrigger: '',
  targetPrice: '',
  stopTrigger: '',
  stopPrice: '',
  trailBy: '',
  step: '',
  tag: '',
};

/** The body of `POST /plans`. A trailing stop fires as the price moves against the position: a sell stop below. */
export const planOf = (f: Fields): PlanInput => {
  const order = {
    exch: f.exch,
    tsym: f.tsym.trim(),
    qty: f.qty.trim(),
    trantype: f.side,
    prctyp: f.prctyp,
    ...(f.prctyp === 'LMT' ? { prc: f.prc.trim() } : {}),
    prd: f.prd,
    ret: 'DAY',
    ai_t: f.kind === 'bracket' ? f.ai_t : f.side === 'S' ? 'LTP_B_O' : 'LTP_A_O',
    d: f.d.trim(),
  };
  const tag = f.tag.trim() ? { tag: f.tag.trim() } : {};
  return f.kind === 'bracket'
    ? {
        kind: 'bracket',
        entry: order,
        target: { trigger: f.targetTrigger.trim(), price: f.targetPrice.trim() },
        stopLoss: { trigger: f.stopTrigger.trim(), price: f.stopPrice.trim() },
        ...tag,
      }
    : {
        kind: 'trailing-stop',
        order,
        trailBy: f.trailBy.trim(),
        ...(f.step.trim() ? { step: f.step.trim() } : {}),
        ...tag,
      };
};

const ORDER_FIELDS = { exch: 'exch', tsym: 'tsym', qty: 'qty', trantype: 'side', prd: 'prd', ai_t: 'ai_t', d: 'd' };
const FIELD_OF = byPrefix({
  ...Object.fromEntries(
    Object.entries({ ...ORDER_FIELDS, prc: 'prc', prctyp: 'prctyp' }).flatMap(([api, form]) => [
      [`entry.${api}`, form],
      [`order.${api}`, form],
    ]),
  ),
  target: 'targetTrigger',
  'target.trigger': 'targetTrigger',
  'target.price': 'targetPrice',
  stopLoss: 'stopTrigger',
  'stopLoss.trigger': 'stopTrigger',
  'stopLoss.price': 'stopPrice',
  trailBy: 'trailBy',
  step: 'step',
  tag: 'tag',
});

export const PlanForm = ({ api, created }: { api: Api; created: (plan: CreatedPlan) => void }): VNode => {
  const [fields, setFields] = useState<Fields>(START);
  const [made, setMade] = useState<CreatedPlan>();
  const form = useFormRun(FIELD_OF);
  const body = planOf(fields);
  const text = JSON.stringify(body, null, 2);
  // One key per request: the same form sent again is the same plan (200 with it), a changed form a new one.
  const key = useRef<{ text: string; key: string } | undefined>(undefined);
  if (key.current?.text !== text) key.current = { text, key: newKey() };
  const bracket = fields.kind === 'bracket';
  const props = (name: keyof Fields) => ({
    id: `plan-${name}`,
    value: fields[name],
    // A new kind starts on its usual side: a bracket buys (opens a long), a trailing stop sells (protects one).
    set: (value: string) =>
      setFields({ ...fields, [name]: value, ...(name === 'kind' ? { side: value === 'bracket' ? 'B' : 'S' } : {}) }),
    errors: form.errors[name],
  });
  const submit = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      setMade(undefined);
      const plan = await ok(api.POST('/plans', { params: { header: { 'Idempotency-Key': key.current!.key } }, body }));
      form.setNotice(`Plan ${plan.planId} created: ${plan.state}.`);
      setMade(plan);
      created(plan);
    });
  };
  return html`<section aria-labelledby="new-plan-title">
    <h2 id="new-plan-title">New plan</h2>
    <form class="place" onSubmit=${submit} data-form="plan">
      <${Choice}
        ...${props('kind')}
        label="Kind"
        options=${[
          ['bracket', 'Bracket: an entry, then a target and a stop'],
          ['trailing-stop', 'Trailing stop for a position you hold'],
        ]}
      />
      <${Choice} ...${props('exch')} label="Exchange" options=${EXCHANGES.map((e) => [e, e] as const)} />
      <${Field} ...${props('tsym')} label="Symbol" placeholder="M&M-EQ" autocomplete="off" required />
      <${Choice}
        ...${props('side')}
        label=${bracket ? 'Entry side' : 'Side of the stop'}
        options=${
          bracket
            ? [
                ['B', 'Buy: opens a long'],
                ['S', 'Sell: opens a short'],
              ]
            : [
                ['S', 'Sell: protects a long'],
                ['B', 'Buy: protects a short'],
              ]
        }
      />
      <${Field} ...${props('qty')} label="Quantity" inputmode="numeric" required />
      <${Choice} ...${props('prd')} label="Product" options=${PRODUCTS} />
      ${bracket ? html`<${Choice} ...${props('ai_t')} label="Entry fires when" options=${ALERT_OPTIONS} />` : null}
      <${Field}
        ...${props('d')}
        label=${bracket ? triggerLabel(fields.ai_t, 'Entry trigger') : 'Stop trigger'}
        hint=${bracket ? triggerHint(fields.ai_t) : "a price on the instrument's tick: the stop follows the price"}
        inputmode="decimal"
        required
      />
      <${Choice}
        ...${props('prctyp')}
        label=${bracket ? 'Entry order type' : 'Stop order type'}
        options=${PRICE_TYPES}
      />
      ${
        fields.prctyp === 'LMT'
          ? html`<${Field}
              ...${props('prc')}
              label=${bracket ? 'Entry limit price' : 'Stop limit price'}
              inputmode="decimal"
              required
            />`
          : null
      }
      ${
        bracket
          ? html`<${Field} ...${props('targetTrigger')} label="Target trigger" inputmode="decimal" required />
              <${Field} ...${props('targetPrice')} label="Target price" inputmode="decimal" required />
              <${Field} ...${props('stopTrigger')} label="Stop-loss trigger" inputmode="decimal" required />
              <${Field} ...${props('stopPrice')} label="Stop-loss price" inputmode="decimal" required />`
          : html`<${Field}
                ...${props('trailBy')}
                label="Trail by"
                inputmode="decimal"
                hint="the stop's distance from the best price seen"
                required
              />
              <${Field}
                ...${props('step')}
                label="Step (optional)"
                inputmode="decimal"
                hint="the least move; one tick if empty"
              />`
      }
      <${Field} ...${props('tag')} label="Tag (optional)" autocomplete="off" />
      <details class="request">
        <summary>The request</summary>
        <p class="muted">
          Plans have no dry run: the gateway checks the whole plan before it places anything, and nothing is placed if a
          check fails.
        </p>
        <pre tabindex="0" data-plan-request>POST /plans ${text}</pre>
      </details>
      <p class="actions"><button type="submit" class="primary" disabled=${form.busy}>Create the plan</button></p>
    </form>
    <${Problem} text=${form.problem} />
    <${Notice} text=${form.notice} />
    ${made ? html`<${Made} plan=${made} />` : null}
  </section>` as VNode;
};

/** The plan as the gateway answered it: its state, its first GTT at the broker and its legs. */
const Made = ({ plan }: { plan: CreatedPlan }): VNode =>
  html`<div class="review" data-made-plan=${plan.planId}>
    <h3>Plan ${plan.planId}: ${plan.kind} ${plan.tsym} ${plan.exch}, ${plan.state}</h3>
    <ul>
      ${plan.alIds.entry ? html`<li>Entry order ${plan.alIds.entry} at the broker</li>` : null}
      ${plan.alIds.stop ? html`<li>Stop order ${plan.alIds.stop} at the broker</li>` : null}
      ${plan.target ? html`<li>Target ${price(plan.target.trigger, plan.tick)} → ${price(plan.target.price, plan.tick)}</li>` : null}
      ${plan.stopLoss ? html`<li>Stop ${price(plan.stopLoss.trigger, plan.tick)} → ${price(plan.stopLoss.price, plan.tick)}</li>` : null}
      ${plan.trailBy ? html`<li>Trailing by ${plan.trailBy}: stop ${price(plan.trigger, plan.tick)}</li>` : null}
    </ul>
  </div>` as VNode;
