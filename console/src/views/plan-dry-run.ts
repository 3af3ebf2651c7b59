/**
 * What the two option plan forms share (option-plan-form.ts, legs-plan-form.ts): **Dry run** asks the gateway what
 * the plan would do now (`POST /plans?dryRun=true`, nothing stored or sent to the broker); **Create this plan** sends
 * that body only, with the Idempotency-Key made at its dry run (a change to the form asks for a new dry run). And the
 * exit's fields: the stop and target on the premium, in points or %, and the tag.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import type { operations } from '../../../client/generated/openapi.js';
import { type Api, newKey, ok } from '../api.js';
import type { VNode } from '../ui.js';
import { Choice, Field, type FormRun, useFormRun } from './form-kit.js';

/** The plan `POST /plans` created. */
export type CreatedPlan = operations['CreatePlan']['responses'][201]['content']['application/json'];
type PlanBody = operations['CreatePlan']['requestBody']['content']['application/json'];

interface PlanDryRun {
  form: FormRun;
  /** The body as sent, written out (the request shown, and what the dry run was of). */
  text: string;
  /** The dry run's answer while the form is as it was then; undefined before one or after a change. */
  answer: unknown;
  /** The form changed since its dry run. */
  changed: boolean;
  dryRun: (event: Event) => void;
  create: () => void;
}

export const usePlanDryRun = (
  api: Api,
  body: PlanBody,
  fieldOf: (apiField: string) => string | undefined,
  created: (plan: CreatedPlan) => void,
): PlanDryRun => {
  const [review, setReview] = useState<{ body: string; answer: unknown; key: string }>();
  const form = useFormRun(fieldOf);
  const text = JSON.stringify(body, null, 2);
  const reviewed = review?.body === text;
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
  return {
    form,
    text,
    answer: review && reviewed ? review.answer : undefined,
    changed: !!review && !reviewed,
    dryRun,
    create,
  };
};

/** The request the form sends, and its two buttons: a dry run, then the plan created from it. */
export const PlanActions = ({ run, name }: { run: PlanDryRun; name: string }): VNode =>
  html`<details class="request">
      <summary>The request</summary>
      <pre tabindex="0" data-request=${name}>POST /plans ${run.text}</pre>
    </details>
    <p class="actions">
      <button type="submit" disabled=${run.form.busy}>Dry run</button>
      <button type="button" class="primary" disabled=${run.form.busy || run.answer === undefined} onClick=${run.create}>
        Create this plan
      </button>
    </p>` as VNode;

/** A field bound to the form's state: its id, value, setter and the API's messages for it. */
interface Bound {
  id: string;
  value: string;
  set: (value: string) => void;
  errors: string[] | undefined;
}

/** The exit's fields: the stop and target on `of` (the premium), in points or `percent` (% of the fill), the tag. */
export const ExitFields = ({
  bind,
  of,
  percent,
}: {
  bind: (name: 'stop' | 'stopUnit' | 'target' | 'targetUnit' | 'tag') => Bound;
  of: string;
  percent: string;
}): VNode =>
  html`<${Field} ...${bind('stop')} label=${`Stop on ${of}`} inputmode="decimal" required />
    <${Choice}
      ...${bind('stopUnit')}
      label="Stop in"
      options=${[
        ['points', 'points'],
        ['%', percent],
      ]}
    />
    <${Field} ...${bind('target')} label=${`Target on ${of}`} inputmode="decimal" required />
    <${Choice}
      ...${bind('targetUnit')}
      label="Target in"
      options=${[
        ['%', percent],
        ['points', 'points'],
      ]}
    />
    <${Field} ...${bind('tag')} label="Tag (optional)" autocomplete="off" />` as VNode;
