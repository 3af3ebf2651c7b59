/**
 * A new option plan (docs/reference/plans.md, "Option entry"): watch an index, and when it crosses a level buy (or
 * sell) the option the pick names, then an OCO exit on the premium. **Dry run** asks the gateway which contract it
 * would pick at the index's price now (`POST /plans?dryRun=true`, nothing sent to the broker); **Create this plan**
 * sends that body only, with the Idempotency-Key made at its dry run (a change to the form asks for a new dry run).
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import { contractWords, optionPlanSentence, resolvedOfDryRun } from '../../../functions/base/schemas/option-words.js';
import type { Api } from '../api.js';
import { Notice, Problem, type VNode } from '../ui.js';
import { byPrefix, Choice, Field, PRODUCTS, SIDES } from './form-kit.js';
import {
  capWords,
  OPTION_FIELD_OF,
  OPTION_START,
  type OptionFields,
  optionPlanOf,
  UNDERLYINGS,
} from './option-plan-values.js';
import { type CreatedPlan, ExitFields, PlanActions, usePlanDryRun } from './plan-dry-run.js';

const FIELD_OF = byPrefix(OPTION_FIELD_OF);

export const OptionPlanForm = ({ api, created }: { api: Api; created: (plan: CreatedPlan) => void }): VNode => {
  const [fields, setFields] = useState<OptionFields>(OPTION_START);
  const body = optionPlanOf(fields);
  const run = usePlanDryRun(api, body, FIELD_OF, created);
  const { form } = run;
  const props = (name: keyof OptionFields) => ({
    id: `option-${name}`,
    value: fields[name],
    set: (value: string) => setFields({ ...fields, [name]: value }),
    errors: form.errors[name],
  });
  const now = run.answer === undefined ? undefined : resolvedOfDryRun(run.answer);
  const cap = capWords(run.answer);
  const mode = fields.strikeMode;
  return html`<section aria-labelledby="new-option-plan-title">
    <h2 id="new-option-plan-title">New option plan</h2>
    <form class="place" onSubmit=${run.dryRun} data-form="option-plan">
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
      <${Field}
        ...${props('maxValue')}
        label="Most the entry may be worth, ₹ (optional)"
        inputmode="decimal"
        hint="quantity × its limit when the index crosses; above it nothing is sent"
      />
      <${ExitFields} bind=${props} of="the premium" percent="% of the fill" />
      <${PlanActions} run=${run} name="option-plan" />
    </form>
    <${Problem} text=${form.problem} />
    <${Notice} text=${form.notice} />
    ${
      run.answer !== undefined
        ? html`<div class="review" data-option-dry-run>
            <h3>Dry run: nothing was sent</h3>
            <p>${optionPlanSentence(body, now)}</p>
            <p>
              ${now ? `It would pick ${contractWords(now, fields.underlying)}.` : 'The gateway did not say which contract it would pick.'}
            </p>
            ${cap ? html`<p data-option-cap>${cap}</p>` : null}
          </div>`
        : null
    }
    ${run.changed ? html`<p class="muted">The form changed since the dry run: run it again to create.</p>` : null}
  </section>` as VNode;
};
