/**
 * What the console's forms share: a labelled field or choice that shows the API's validation message for it beside
 * it (`aria-invalid`, `aria-describedby`), and a runner that sends one call at a time and sorts a refusal's
 * `details` (`[{field, message}]`, the field a dotted path of the body) onto the form's fields. A message whose field
 * the form does not have stays in the form's problem line, so nothing the API said is dropped.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import { ApiError, describeError } from '../api.js';
import type { VNode } from '../ui.js';
import { type FieldErrors, sortDetails } from './field-errors.js';

export { byPrefix, type FieldErrors, sortDetails } from './field-errors.js';

export interface FormRun {
  busy: boolean;
  problem: string | undefined;
  notice: string | undefined;
  errors: FieldErrors;
  setNotice: (text: string | undefined) => void;
  /** Runs one call; a refusal's field messages go beside their fields, the rest to the problem line. */
  run: (what: () => Promise<void>) => Promise<void>;
}

export const useFormRun = (fieldOf: (apiField: string) => string | undefined): FormRun => {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [errors, setErrors] = useState<FieldErrors>({});
  const run = async (what: () => Promise<void>) => {
    setBusy(true);
    setProblem(undefined);
    setNotice(undefined);
    setErrors({});
    try {
      await what();
    } catch (error) {
      const sorted = error instanceof ApiError ? sortDetails(error.details, fieldOf) : { errors: {}, rest: [] };
      setErrors(sorted.errors);
      const marked = Object.keys(sorted.errors).length;
      setProblem(
        error instanceof ApiError && marked > 0
          ? `${error.code}: ${marked === 1 ? 'one field was refused' : `${marked} fields were refused`}, see beside ${marked === 1 ? 'it' : 'them'}.${sorted.rest.length ? ` ${sorted.rest.join('; ')}` : ''}`
          : describeError(error),
      );
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, notice, errors, setNotice, run };
};

interface FieldProps {
  id: string;
  label: string;
  value: string;
  set: (value: string) => void;
  errors?: string[] | undefined;
  hint?: string;
}

const described = (id: string, errors: string[] | undefined, hint: string | undefined) =>
  [hint ? `${id}-hint` : '', errors?.length ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

const Messages = ({ id, errors, hint }: { id: string; errors?: string[] | undefined; hint?: string | undefined }) =>
  html`${hint ? html`<span class="hint" id=${`${id}-hint`}>${hint}</span>` : null}
  ${errors?.length ? html`<span class="field-error" id=${`${id}-error`} data-field-error=${id}>${errors.join('; ')}</span>` : null}`;

/** A text input with its label and the API's message for it. */
export const Field = ({ id, label, value, set, errors, hint, ...extra }: FieldProps & Record<string, unknown>): VNode =>
  html`<p class="field">
    <label for=${id}>${label}</label>
    <input
      id=${id}
      value=${value}
      onInput=${(e: Event) => set((e.target as HTMLInputElement).value)}
      aria-invalid=${errors?.length ? 'true' : undefined}
      aria-describedby=${described(id, errors, hint)}
      ...${extra}
    />
    <${Messages} id=${id} errors=${errors} hint=${hint} />
  </p>` as VNode;

/** A select with its label and the API's message for it. */
export const Choice = ({
  id,
  label,
  value,
  set,
  errors,
  hint,
  options,
}: FieldProps & { options: readonly (readonly [string, string])[] }): VNode =>
  html`<p class="field">
    <label for=${id}>${label}</label>
    <select
      id=${id}
      value=${value}
      onChange=${(e: Event) => set((e.target as HTMLSelectElement).value)}
      aria-invalid=${errors?.length ? 'true' : undefined}
      aria-describedby=${described(id, errors, hint)}
    >
      ${options.map(([v, text]) => html`<option value=${v}>${text}</option>`)}
    </select>
    <${Messages} id=${id} errors=${errors} hint=${hint} />
  </p>` as VNode;

export const SIDES = [
  ['B', 'Buy'],
  ['S', 'Sell'],
] as const;
export const PRODUCTS = [
  ['C', 'Delivery (C)'],
  ['M', 'Margin (M)'],
  ['H', 'Cover (H)'],
] as const;
export const PRICE_TYPES = [
  ['LMT', 'Limit'],
  ['MKT', 'Market (sent as a protected limit)'],
] as const;
