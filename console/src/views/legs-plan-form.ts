/**
 * A new legs plan (docs/reference/plans.md, "Legs as one"): two to four option legs picked from the day's chain (an
 * index, a listed expiry, then each leg's strike, CE or PE, side and lots; `GET /options` names each contract),
 * entered together and closed together on one stop and one target on their net premium. **Dry run** shows each
 * leg's order and the net premium now, in the words the MCP preview uses (option-words.ts); **Create this plan**
 * sends that body only (plan-dry-run.ts, as the option entry's form). The chain is read once the trader opens the
 * form, never as Plans opens.
 */
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';

import { MAX_LEGS, MIN_LEGS } from '../../../functions/base/schemas/option-legs.js';
import { legsPlanSentence } from '../../../functions/base/schemas/option-words.js';
import { type Api, ok } from '../api.js';
import { Notice, Problem, useLoad, type VNode } from '../ui.js';
import { byPrefix, Choice, Field, PRODUCTS, SIDES } from './form-kit.js';
import {
  dryRunLegLines,
  type LegFields,
  LEGS_FIELD_OF,
  LEGS_START,
  type LegsFields,
  legsOnChain,
  legsPlanOf,
  presetLegs,
  strikeChoices,
} from './legs-plan-values.js';
import { type ExitFieldValues, UNDERLYINGS } from './option-plan-values.js';
import { type CreatedPlan, ExitFields, PlanActions, usePlanDryRun } from './plan-dry-run.js';

const FIELD_OF = byPrefix(LEGS_FIELD_OF);

/**
 * The chain of the index and expiry asked (`nearest` first), read again when either changes: the old chain is gone
 * while the new one loads.
 */
const useChain = (api: Api, underlying: string, expiry: string) => {
  const read = useLoad(
    () => ok(api.GET('/options', { params: { query: { underlying, expiry } } })),
    [underlying, expiry],
  );
  if (read.loading) return { chain: undefined, problem: undefined };
  return {
    chain: read.data,
    problem: read.error === undefined ? undefined : `The chain of ${underlying}: ${read.error}`,
  };
};

type Props = { api: Api; created: (plan: CreatedPlan) => void };

/** The form, read from the chain once the trader opens it (Plans opens without a chain read: none may be loaded). */
export const LegsPlanForm = (props: Props): VNode => {
  const [opened, setOpened] = useState(false);
  return html`<section aria-labelledby="new-legs-plan-title">
    <h2 id="new-legs-plan-title">New legs plan</h2>
    <details onToggle=${(e: Event) => (e.currentTarget as HTMLDetailsElement).open && setOpened(true)}>
      <summary>Pick 2 to 4 legs from the day's option chain</summary>
      ${opened ? html`<${LegsForm} ...${props} />` : null}
    </details>
  </section>` as VNode;
};

const LegsForm = ({ api, created }: Props): VNode => {
  const [fields, setFields] = useState<LegsFields>(LEGS_START);
  const { chain, problem: chainProblem } = useChain(api, fields.underlying, fields.expiry);
  // Once a chain is read, each leg's strike is one it lists (the ATM for a leg without one).
  useEffect(() => {
    if (chain) setFields((f) => ({ ...f, legs: legsOnChain(f.legs, chain) }));
  }, [chain]);
  const body = legsPlanOf(fields, chain);
  const run = usePlanDryRun(api, body, FIELD_OF, created);
  const { form } = run;
  const bind = (name: keyof ExitFieldValues) => ({
    id: `legs-${name}`,
    value: fields[name],
    set: (value: string) => setFields({ ...fields, [name]: value }),
    errors: form.errors[name],
  });
  const setLegs = (legs: LegFields[]) => setFields({ ...fields, legs });
  const bindLeg = (i: number, name: keyof LegFields) => ({
    id: `legs-leg${i}-${name}`,
    value: fields.legs[i]![name],
    set: (value: string) => setLegs(fields.legs.map((l, j) => (j === i ? { ...l, [name]: value } : l))),
    errors: form.errors[`leg${i}-${name}`],
  });
  const strikes = strikeChoices(chain);
  const preset = (kind: 'straddle' | 'strangle') => chain && setLegs(presetLegs(kind, chain, fields.legs[0]!.lots));
  const sentence = run.answer === undefined ? undefined : legsPlanSentence(run.answer, body.exit);
  return html`<div>
    <form class="place" onSubmit=${run.dryRun} data-form="legs-plan">
      <${Choice}
        id="legs-underlying"
        label="Index"
        value=${fields.underlying}
        set=${(underlying: string) => setFields({ ...fields, underlying, expiry: 'nearest' })}
        options=${UNDERLYINGS.map((u) => [u, u] as const)}
      />
      <${Choice}
        id="legs-expiry"
        label="Expiry"
        value=${chain?.expiry ?? fields.expiry}
        set=${(expiry: string) => setFields({ ...fields, expiry })}
        options=${(chain?.expiries ?? [fields.expiry]).map((e) => [e, e] as const)}
        hint=${chain ? `lot ${chain.lot}, strike step ${chain.strikeStep}${chain.ltp ? `, ${fields.underlying} at ${chain.ltp}` : ''}` : 'reading the chain…'}
      />
      <p class="actions">
        <button type="button" disabled=${!chain} onClick=${() => preset('straddle')}>Straddle at ATM</button>
        <button type="button" disabled=${!chain} onClick=${() => preset('strangle')}>Strangle 2 strikes out</button>
      </p>
      ${fields.legs.map(
        (leg, i) =>
          html`<fieldset class="leg-fields" data-leg=${i + 1}>
            <legend>Leg ${i + 1}</legend>
            <${Choice}
              ...${bindLeg(i, 'strike')}
              label=${`Leg ${i + 1} strike`}
              options=${strikes.length ? strikes : [[leg.strike, leg.strike || 'ATM (chain not read)']]}
            />
            <${Choice}
              ...${bindLeg(i, 'type')}
              label=${`Leg ${i + 1} type`}
              options=${[
                ['CE', 'CE (call)'],
                ['PE', 'PE (put)'],
              ]}
            />
            <${Choice} ...${bindLeg(i, 'side')} label=${`Leg ${i + 1} side`} options=${SIDES} />
            <${Field} ...${bindLeg(i, 'lots')} label=${`Leg ${i + 1} lots`} inputmode="numeric" required />
            ${
              fields.legs.length > MIN_LEGS
                ? html`<button type="button" onClick=${() => setLegs(fields.legs.filter((_, j) => j !== i))}>
                    Remove leg ${i + 1}
                  </button>`
                : null
            }
          </fieldset>`,
      )}
      ${
        fields.legs.length < MAX_LEGS
          ? html`<p class="actions">
              <button type="button" onClick=${() => setLegs([...fields.legs, { ...fields.legs.at(-1)! }])}>
                Add a leg
              </button>
            </p>`
          : null
      }
      <${Choice} ...${bind('prd')} label="Product (every leg)" options=${PRODUCTS} />
      <${ExitFields} bind=${bind} of="the net premium" percent="% of the entry's net" />
      <${PlanActions} run=${run} name="legs-plan" />
    </form>
    <${Problem} text=${form.problem ?? chainProblem} />
    <${Notice} text=${form.notice} />
    ${
      run.answer !== undefined
        ? html`<div class="review" data-legs-dry-run>
            <h3>Dry run: nothing was sent</h3>
            <p>${sentence ?? 'The gateway did not say the legs it would enter.'}</p>
            <ul aria-label="Each leg's order, bought legs first">
              ${dryRunLegLines(run.answer).map((line) => html`<li data-legs-dry-run-leg>${line}</li>`)}
            </ul>
          </div>`
        : null
    }
    ${run.changed ? html`<p class="muted">The form changed since the dry run: run it again to create.</p>` : null}
  </div>` as VNode;
};
