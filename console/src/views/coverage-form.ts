/**
 * Today's "Position cover" card (docs/explanation/coverage.md): the coverage settings `GET /positions/coverage`
 * answers (watch: each watcher run checks every open position and raises Position Unprotected once; autoCover: an
 * OCO at the trader's distances for an uncovered one, placed once) with the day's counts, and the form that sets them
 * whole with `PUT /positions/coverage` after asking (as the kill switch asks). The distances go as typed (points, or
 * `2%` of the average price), so the gateway judges them: a refusal is shown beside its field and nothing is written.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import type { CoverageResult } from '../../../functions/base/schemas/coverage.js';
import { type Api, ok } from '../api.js';
import { istTime } from '../format.js';
import { type Loaded, Notice, Problem, useConfirm, type VNode } from '../ui.js';
import { byPrefix, Field, useFormRun } from './form-kit.js';

type Settings = CoverageResult['settings'];

interface Fields {
  watch: boolean;
  auto: boolean;
  target: string;
  stop: string;
}

const FIELD_OF = byPrefix({
  watch: 'watch',
  autoCover: 'target',
  'autoCover.target': 'target',
  'autoCover.stop': 'stop',
});

const fieldsOf = (s: Settings | undefined): Fields => ({
  watch: s?.watch ?? false,
  auto: s?.autoCover !== undefined,
  target: s?.autoCover?.target ?? '',
  stop: s?.autoCover?.stop ?? '',
});

/** `2%` of the average price, or `10 points`. */
const distanceWords = (d: string): string => (d.endsWith('%') ? `${d} of the average price` : `${d} points`);

const SettingsLines = ({ s, totals }: { s: Settings; totals: CoverageResult['totals'] }): VNode =>
  html`<dl class="facts">
    <div>
      <dt>Watch</dt>
      <dd data-coverage-watch=${String(s.watch)}>
        ${s.watch ? 'On: each watcher run checks every open position; an uncovered one raises Position Unprotected once' : 'Off: no run checks them, no event'}
      </dd>
    </div>
    <div>
      <dt>autoCover</dt>
      <dd data-coverage-auto=${s.autoCover ? 'on' : 'off'}>
        ${
          s.autoCover
            ? `An OCO for each uncovered position: target ${distanceWords(s.autoCover.target)}, stop ${distanceWords(s.autoCover.stop)}${s.watch ? '' : ' (acts only with watch on)'}`
            : 'Off: nothing is placed for you'
        }
      </dd>
    </div>
    ${
      s.changedAt
        ? html`<div>
            <dt>Changed</dt>
            <dd>${istTime(s.changedAt)}${s.changedBy ? ` by ${s.changedBy}` : ''}</dd>
          </div>`
        : null
    }
    <div>
      <dt>Now</dt>
      <dd data-coverage-totals>
        ${`${totals.open} open: ${totals.covered} covered, ${totals.partly} partly, ${totals.targetOnly} target only, ${totals.uncovered} uncovered`}
      </dd>
    </div>
  </dl>` as VNode;

const Check = ({
  id,
  label,
  checked,
  set,
}: {
  id: string;
  label: string;
  checked: boolean;
  set: (on: boolean) => void;
}) =>
  html`<p class="field">
    <label class="check">
      <input
        type="checkbox"
        id=${id}
        checked=${checked}
        onChange=${(e: Event) => set((e.target as HTMLInputElement).checked)}
      />
      ${` ${label}`}
    </label>
  </p>`;

const CoverageForm = ({ api, settings, saved }: { api: Api; settings: Settings; saved: () => void }): VNode => {
  const [fields, setFields] = useState<Fields>(() => fieldsOf(settings));
  const form = useFormRun(FIELD_OF);
  const [question, ask] = useConfirm();
  const text = (name: 'target' | 'stop') => ({
    id: `coverage-${name}`,
    value: fields[name],
    set: (value: string) => setFields({ ...fields, [name]: value }),
    errors: form.errors[name],
    disabled: !fields.auto,
  });
  const submit = (event: Event) => {
    event.preventDefault();
    const body = {
      watch: fields.watch,
      ...(fields.auto ? { autoCover: { target: fields.target.trim(), stop: fields.stop.trim() } } : {}),
    };
    ask({
      title: 'Save the coverage settings?',
      detail: [
        fields.watch
          ? 'Each watcher run checks every open position and raises Position Unprotected once for one not covered.'
          : 'No run checks the positions (the badge still shows them).',
        fields.auto
          ? 'For each position not covered, an OCO at these distances is placed once through the order core, as any order (guardrails, the kill switch).'
          : '',
      ]
        .filter(Boolean)
        .join(' '),
      yes: 'Save',
      onYes: () =>
        form.run(async () => {
          await ok(api.PUT('/positions/coverage', { body }));
          form.setNotice('Coverage settings saved.');
          saved();
        }),
    });
  };
  return html`<div>
    <form class="place" onSubmit=${submit} data-form="coverage" aria-label="Coverage settings">
      <${Check}
        id="coverage-watch"
        label="Watch: check every open position each run"
        checked=${fields.watch}
        set=${(on: boolean) => setFields({ ...fields, watch: on })}
      />
      <${Check}
        id="coverage-auto"
        label="autoCover: place an OCO for an uncovered position"
        checked=${fields.auto}
        set=${(on: boolean) => setFields({ ...fields, auto: on })}
      />
      <${Field} ...${text('target')} label="Target distance" hint="points (10) or of the average price (2%)" />
      <${Field} ...${text('stop')} label="Stop distance" hint="points (10) or of the average price (1.5%)" />
      <p class="actions"><button type="submit" disabled=${form.busy}>Save coverage settings</button></p>
    </form>
    ${question}
    <${Problem} text=${form.problem} />
    <${Notice} text=${form.notice} />
  </div>` as VNode;
};

/** The card: the settings and the day's counts from the read Today shares with the badge, then the form. */
export const CoverageSettingsCard = ({ api, read }: { api: Api; read: Loaded<CoverageResult> }): VNode =>
  html`<section aria-labelledby="coverage-settings-title" class="card wide">
    <h2 id="coverage-settings-title">Position cover</h2>
    <${Problem} text=${read.error} />
    ${read.data ? html`<${SettingsLines} s=${read.data.settings} totals=${read.data.totals} />` : null}
    ${read.data ? html`<${CoverageForm} api=${api} settings=${read.data.settings} saved=${read.reload} />` : null}
  </section>` as VNode;
