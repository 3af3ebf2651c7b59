/**
 * The form under the "Day's limits" card (today-risk.ts): the loss limit and the profit target in rupees, the kill
 * switch's mode when one is crossed, and square-off, sent whole as `PUT /risk` after asking (as the kill switch asks);
 * **Clear the limits** sends `{}`. An amount is sent as the trader typed it (`₹` and the Indian commas taken out), so
 * the gateway judges it: a negative or zero limit is refused with its message beside the field and nothing is written.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import type { operations } from '../../../client/generated/openapi.js';
import type { RiskResult } from '../../../functions/base/schemas/risk.js';
import { type Api, ok } from '../api.js';
import { rupees } from '../format.js';
import { Notice, Problem, useConfirm, type VNode } from '../ui.js';
import { byPrefix, Choice, Field, useFormRun } from './form-kit.js';

type RiskInput = operations['SetRiskLimits']['requestBody']['content']['application/json'];
type Settings = NonNullable<RiskResult['settings']>;
type Mode = Settings['mode'];

/** Whether any limit is set (`PUT /risk {}` stores settings with neither). */
export const limitsSet = (s: Settings | undefined): s is Settings =>
  s !== undefined && (s.dayLossLimit !== undefined || s.dayProfitTarget !== undefined);

interface Fields {
  loss: string;
  target: string;
  mode: Mode;
  squareOff: boolean;
}

const MODES: readonly (readonly [Mode, string])[] = [
  ['keep-exits', 'Keep the exits (keep-exits)'],
  ['cancel-all', 'Cancel everything (cancel-all)'],
];

const FIELD_OF = byPrefix({ dayLossLimit: 'loss', dayProfitTarget: 'target', mode: 'mode', squareOff: 'squareOff' });

const fieldsOf = (s: Settings | undefined): Fields => ({
  loss: s?.dayLossLimit === undefined ? '' : String(s.dayLossLimit),
  target: s?.dayProfitTarget === undefined ? '' : String(s.dayProfitTarget),
  mode: s?.mode ?? 'keep-exits',
  squareOff: s?.squareOff ?? false,
});

/** An amount as typed: empty is left out; `₹5,000` is 5000; what is not a number goes as typed, for the API to name. */
const amountOf = (text: string): number | string | undefined => {
  const plain = text.replace(/[₹,\s]/g, '');
  if (plain === '') return undefined;
  const n = Number(plain);
  return Number.isFinite(n) ? n : text.trim();
};

/** The body of `PUT /risk` from the form. */
export const riskBodyOf = (f: Fields): RiskInput => {
  const loss = amountOf(f.loss);
  const target = amountOf(f.target);
  // An amount the API must judge is sent as typed (it names the field); the type says number.
  return {
    ...(loss === undefined ? {} : { dayLossLimit: loss as number }),
    ...(target === undefined ? {} : { dayProfitTarget: target as number }),
    mode: f.mode,
    squareOff: f.squareOff,
  };
};

/** What the question says will happen: each limit that reads as one, the mode, square-off. */
const askDetail = (body: RiskInput, lastTotal: number | undefined): string => {
  const stops = [
    typeof body.dayLossLimit === 'number' && body.dayLossLimit > 0
      ? `at or below ${rupees(-body.dayLossLimit)}`
      : undefined,
    typeof body.dayProfitTarget === 'number' && body.dayProfitTarget > 0
      ? `at or above ${rupees(body.dayProfitTarget)}`
      : undefined,
  ].filter(Boolean);
  const past =
    lastTotal !== undefined &&
    ((typeof body.dayLossLimit === 'number' && body.dayLossLimit > 0 && lastTotal <= -body.dayLossLimit) ||
      (typeof body.dayProfitTarget === 'number' && body.dayProfitTarget > 0 && lastTotal >= body.dayProfitTarget));
  return [
    stops.length ? `Trading stops once the day's P&L is ${stops.join(' or ')}:` : 'Once a limit is crossed,',
    body.mode === 'cancel-all'
      ? 'the kill switch goes on and cancels every pending order'
      : 'the kill switch goes on and cancels the entries, keeping the exits',
    body.squareOff ? 'and each open position is closed by a protected limit order.' : '(open positions stay open).',
    past ? `The last P&L seen (${rupees(lastTotal)}) is past it already: the next watcher run stops trading.` : '',
  ]
    .filter(Boolean)
    .join(' ');
};

export const RiskForm = ({
  api,
  settings,
  today,
  saved,
}: {
  api: Api;
  settings: Settings | undefined;
  today: RiskResult['today'];
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
