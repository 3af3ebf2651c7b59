/**
 * A new option plan (docs/reference/plans.md, "Option entry"): watch an index, and when it crosses a level buy (or
 * sell) the option the pick names, then an OCO exit on the premium. **Dry run** asks the gateway which contract it
 * would pick at the index's price now (`POST /plans?dryRun=true`, nothing sent to the broker); **Create this plan**
 * sends that body only, with the Idempotency-Key made at its dry run (a change to the form asks for a new dry run).
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import type { operations } from '../../../client/generated/openapi.js';
import { contractWords, optionPlanSentence, resolvedOfDryRun } from '../../../functions/base/schemas/option-words.js';
import { type Api, newKey, ok } from '../api.js';
import { Notice, Problem, type VNode } from '../ui.js';
import { byPrefix, Choice, Field, PRODUCTS, SIDES, useFormRun } from './form-kit.js';
import { OPTION_FIELD_OF, OPTION_START, type OptionFields, optionPlanOf, UNDERLYINGS } from './option-plan-values.js';

type CreatedPlan = operations['CreatePlan']['responses'][201]['content']['application/json'];

const FIELD_OF = byPrefix(OPTION_FIELD_OF);

export const OptionPlanForm = ({ api, created }: { api: Api; created: (plan: CreatedPlan) => void }): VNode => {
  const [fields, setFields] = useState<OptionFields>(OPTION_START);
  const [review, setReview] = useState<{ body: string; answer: unknown; key: string }>();
  const form = useFormRun(FIELD_OF);
  const body = optionPlanOf(fields);
  const text = JSON.stringify(body, null, 2);
  const reviewed = review?.body === text;
  const props = (name: keyof OptionFields) => ({
    id: `option-${name}`,
    value: fields[name],
    set: (value: string) => setFields({ ...fields, [name]: value }),
    errors: form.errors[name],
  });
  // A dry run takes no key: openapi-fetch leaves an undefined header out (as place-form.ts's).
  const post = (query: { dryRun?: boolean }, key: string | undefined) =>
    api.POST('/plans', { params: { query, header: { 'Idempotency-Key': key as string } }, body });
  const dryRun = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      setReview(undefined);
      const answer = await ok(post({ dryRun: true }, undefined));
      setReview({ body: text, answer, key: newKey() });
    });
  };
  const create = () =>
    void form.run(async () => {
      if (!review || !reviewed) return;
      const plan = await ok(post({}, review.key));
      form.setNotice(`Plan ${plan.planId} created: ${plan.state}.`);
      setReview(undefined);
      created(plan);
    });
  const now = review && reviewed ? resolvedOfDryRun(review.answer) : undefined;
  const mode = fields.strikeMode;
  return html`<section aria-labelledby="new-option-plan-title">
    <h2 id="new-option-plan-title">New option plan</h2>
    <form class="place" onSubmit=${dryRun} data-form="option-plan">
      <${Choice} ...${props('underlying')} label="Index" options=${UNDERLYINGS.map((u) => [u, u] as const)} />
      <${Choice}
        ...${props('direction')}
        label="When it goes"
        options=${[
          ['above', 'Above'],
          ['below', 'Below'],
        ]}
      />
      <${Field} ...${props('level')} label="Level of the index" inputmode="decimal" placeholder="24500" required />
      <${Choice}
        ...${props('expiry')}
        label="Expiry"
        options=${[
          ['nearest', 'Nearest'],
          ['next-month', 'Next month'],
          ['date', 'A date'],
        ]}
      />
      ${fields.expiry === 'date' ? html`<${Field} ...${props('expiryDate')} label="Expiry date" placeholder="2026-12-31" required />` : null}
      <${Choice}
        ...${props('strikeMode')}
        label="Strike"
        options=${[
          ['ATM', 'ATM: nearest the index'],
          ['above', 'ATM+n: strikes above'],
          ['below', 'ATM-n: strikes below'],
          ['number', 'A strike'],
        ]}
      />
      ${
        mode === 'ATM'
          ? null
          : html`<${Field}
              ...${props('strike')}
              label=${mode === 'number' ? 'Strike price' : 'How many strikes away'}
              inputmode="numeric"
              required
            />`
      }
      <${Choice}
        ...${props('type')}
        label="Option type"
        options=${[
          ['CE', 'CE (call)'],
          ['PE', 'PE (put)'],
        ]}
      />
      <${Field}
        ...${props('lots')}
        label="Lots"
        inputmode="numeric"
        hint="the quantity is lots × the lot size"
        required
      />
      <${Choice} ...${props('side')} label="Side" options=${SIDES} />
      <${Choice} ...${props('prd')} label="Product" options=${PRODUCTS} />
      <${Field} ...${props('stop')} label="Stop on the premium" inputmode="decimal" required />
      <${Choice}
        ...${props('stopUnit')}
        label="Stop in"
        options=${[
          ['points', 'points'],
          ['%', '% of the fill'],
        ]}
      />
      <${Field} ...${props('target')} label="Target on the premium" inputmode="decimal" required />
      <${Choice}
        ...${props('targetUnit')}
        label="Target in"
        options=${[
          ['%', '% of the fill'],
          ['points', 'points'],
        ]}
      />
      <${Field} ...${props('tag')} label="Tag (optional)" autocomplete="off" />
      <details class="request">
        <summary>The request</summary>
        <pre tabindex="0" data-option-plan-request>POST /plans ${text}</pre>
      </details>
      <p class="actions">
        <button type="submit" disabled=${form.busy}>Dry run</button>
        <button type="button" class="primary" disabled=${form.busy || !reviewed} onClick=${create}>
          Create this plan
        </button>
      </p>
    </form>
    <${Problem} text=${form.problem} />
    <${Notice} text=${form.notice} />
    ${
      review && reviewed
        ? html`<div class="review" data-option-dry-run>
            <h3>Dry run: nothing was sent</h3>
            <p>${optionPlanSentence(body, now)}</p>
            <p>
              ${now ? `It would pick ${contractWords(now, fields.underlying)}.` : 'The gateway did not say which contract it would pick.'}
            </p>
          </div>`
        : null
    }
    ${review && !reviewed ? html`<p class="muted">The form changed since the dry run: run it again to create.</p>` : null}
  </section>` as VNode;
};
