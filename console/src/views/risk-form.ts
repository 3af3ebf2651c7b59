/**
 * The form under the "Day's limits" card (today-risk.ts): the loss limit and the profit target in rupees, the kill
 * switch's mode when one is crossed, and square-off, sent whole as `PUT /risk` after asking (as the kill switch asks);
 * **Clear the limits** sends `{}`. An amount is sent as the trader typed it (`₹` and the Indian commas taken out), so
 * the gateway judges it: a negative or zero limit is refused with its message beside the field and nothing is written.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import { type Api, ok } from '../api.js';
import { Notice, Problem, useConfirm, type VNode } from '../ui.js';
import { byPrefix, Choice, Field, useFormRun } from './form-kit.js';
import {
  askDetail,
  type Fields,
  fieldsOf,
  limitsSet,
  type Mode,
  riskBodyOf,
  type RiskInput,
  type RiskToday,
  type Settings,
} from './risk-values.js';

const MODES: readonly (readonly [Mode, string])[] = [
  ['keep-exits', 'Keep the exits (keep-exits)'],
  ['cancel-all', 'Cancel everything (cancel-all)'],
];

const FIELD_OF = byPrefix({ dayLossLimit: 'loss', dayProfitTarget: 'target', mode: 'mode', squareOff: 'squareOff' });

export const RiskForm = ({
  api,
  settings,
  today,
  saved,
}: {
  api: Api;
  settings: Settings | undefined;
  today: RiskToday;
  saved: () => void;
}): VNode => {
  const [fields, setFields] = useState<Fields>(() => fieldsOf(settings));
  const form = useFormRun(FIELD_OF);
  const [question, ask] = useConfirm();
  const set = (name: 'loss' | 'target' | 'mode') => (value: string) => setFields({ ...fields, [name]: value });
  const props = (name: 'loss' | 'target' | 'mode') => ({
    id: `risk-${name}`,
    value: fields[name],
    set: set(name),
    errors: form.errors[name],
  });

  const put = (body: RiskInput, said: string, next: Fields) =>
    form.run(async () => {
      await ok(api.PUT('/risk', { body }));
      setFields(next);
      form.setNotice(said);
      saved();
    });
  const submit = (event: Event) => {
    event.preventDefault();
    const body = riskBodyOf(fields);
    ask({
      title: "Set the day's limits?",
      detail: askDetail(body, today.lastCheck?.pnl?.total),
      yes: 'Set the limits',
      onYes: () => put(body, "Day's limits set.", fields),
    });
  };
  const clear = () =>
    ask({
      title: "Clear the day's limits?",
      detail: 'Trading will no longer stop by itself at a loss or a profit. A kill switch already on stays on.',
      yes: 'Clear the limits',
      onYes: () => put({}, "Day's limits cleared: none is set.", fieldsOf(undefined)),
    });

  return html`<div class="risk-form">
    <form class="place" onSubmit=${submit} data-form="risk" aria-label="Set the day's limits">
      <${Field}
        ...${props('loss')}
        label="Loss limit (₹)"
        inputmode="decimal"
        hint="a positive amount: 5000 stops at -₹5,000; empty for none"
      />
      <${Field} ...${props('target')} label="Profit target (₹)" inputmode="decimal" hint="empty for none" />
      <${Choice}
        ...${props('mode')}
        label="When one is crossed"
        options=${MODES}
        hint="the kill switch goes on: keep-exits cancels the entries and keeps OCOs and plan exits"
      />
      <p class="field">
        <label class="check">
          <input
            type="checkbox"
            id="risk-squareOff"
            checked=${fields.squareOff}
            onChange=${(e: Event) => setFields({ ...fields, squareOff: (e.target as HTMLInputElement).checked })}
            aria-invalid=${form.errors.squareOff?.length ? 'true' : undefined}
          />
          ${' Square off: close each open position'}
        </label>
        ${
          form.errors.squareOff?.length
            ? html`<span class="field-error" data-field-error="risk-squareOff"
                >${form.errors.squareOff.join('; ')}</span
              >`
            : null
        }
      </p>
      <p class="actions">
        <button type="submit" disabled=${form.busy}>Set the limits</button>
        ${
          limitsSet(settings)
            ? html`<button type="button" onClick=${clear} disabled=${form.busy}>Clear the limits</button>`
            : null
        }
      </p>
    </form>
    ${question}
    <${Problem} text=${form.problem} />
    <${Notice} text=${form.notice} />
  </div>` as VNode;
};
