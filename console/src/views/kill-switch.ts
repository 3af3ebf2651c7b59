/**
 * Today's kill switch card: its state, the choice of mode before turning it on (cancel-all or keep-exits, each
 * saying what it does), and what the sweep answered: what it cancelled, kept and could not cancel, and when it is
 * not complete, why, until when (India time) and what to do, as `gtt kill-switch on` says it (docs/explanation/compliance.md).
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import { type Api, describeError, ok } from '../api.js';
import { istTime } from '../format.js';
import type { KillSwitch } from '../reads.js';
import { Notice, Problem, useConfirm, useLoad, type VNode } from '../ui.js';

type Mode = 'cancel-all' | 'keep-exits';
type Sweep = NonNullable<KillSwitch['sweep']>;

const MODES: { mode: Mode; label: string; what: string }[] = [
  {
    mode: 'cancel-all',
    label: 'Cancel everything',
    what: 'Every pending GTT and OCO is cancelled, exits included: a position a plan holds is left without its stop.',
  },
  {
    mode: 'keep-exits',
    label: 'Keep the exits',
    what: "Single GTTs and plans' entries are cancelled; OCOs and plans' exits and trailing stops stay at the broker, protecting what you hold.",
  },
];

const ASK_DETAIL: Record<Mode, string> = {
  'cancel-all':
    'Every pending GTT and OCO is cancelled now, and places and modifies are refused until it is turned off.',
  'keep-exits':
    "The entries (single GTTs, plans' entries) are cancelled now; every OCO and plans' exits and stops stay at the broker. Places and modifies are refused until it is turned off.",
};

export const KillSwitchCard = ({ api, changed }: { api: Api; changed: () => void }): VNode => {
  const state = useLoad(() => ok(api.GET('/kill-switch')), []);
  const [mode, setMode] = useState<Mode>('cancel-all');
  const [sweep, setSweep] = useState<Sweep>();
  const [notice, setNotice] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [question, ask] = useConfirm();

  const act = async (what: () => Promise<string>) => {
    setProblem(undefined);
    setNotice(undefined);
    try {
      setNotice(await what());
    } catch (error) {
      setProblem(describeError(error));
    }
    state.reload();
    changed();
  };
  const on = (chosen: Mode) =>
    act(async () => {
      const answer = await ok(api.POST('/kill-switch', { body: { mode: chosen } }));
      setSweep(answer.sweep);
      return `Kill switch on (${chosen}).`;
    });
  const turnOn = () =>
    ask({
      title: `Turn the kill switch on (${mode === 'cancel-all' ? 'cancel everything' : 'keep the exits'})?`,
      detail: ASK_DETAIL[mode],
      yes: 'Turn it on',
      onYes: () => on(mode),
    });
  const turnOff = () =>
    ask({
      title: 'Turn the kill switch off?',
      detail:
        'Places and modifies are accepted again (the API, signals and plans). Orders it cancelled stay cancelled.',
      yes: 'Turn it off',
      onYes: () =>
        act(async () => {
          await ok(api.DELETE('/kill-switch'));
          setSweep(undefined);
          return 'Kill switch off: trading is allowed again.';
        }),
    });

  const k = state.data;
  return html`<section aria-labelledby="kill-title" class="card">
    <h2 id="kill-title">Kill switch</h2>
    <${Problem} text=${state.error ?? problem} />
    <${Notice} text=${notice} />
    ${question} ${k ? html`<${KillSwitchLines} k=${k} />` : null}
    ${sweep ? html`<${SweepLines} sweep=${sweep} />` : null}
    ${
      k?.halted
        ? html`<div class="actions">
            <button type="button" onClick=${turnOff}>Turn the kill switch off</button>
            <button type="button" onClick=${() => void on(k.mode ?? 'cancel-all')}>Sweep again</button>
          </div>`
        : html`<fieldset class="modes">
              <legend>When it goes on</legend>
              ${MODES.map(
                (m) =>
                  html`<div class="mode">
                    <input
                      type="radio"
                      id=${`kill-mode-${m.mode}`}
                      name="kill-mode"
                      value=${m.mode}
                      checked=${mode === m.mode}
                      aria-describedby=${`kill-mode-${m.mode}-what`}
                      onChange=${() => setMode(m.mode)}
                    />
                    <label for=${`kill-mode-${m.mode}`}>${m.label} (${m.mode})</label>
                    <p id=${`kill-mode-${m.mode}-what`} class="muted">${m.what}</p>
                  </div>`,
              )}
            </fieldset>
            <button type="button" class="danger" onClick=${turnOn} disabled=${!k}>Turn the kill switch on</button>`
    }
  </section>`;
};

const KillSwitchLines = ({ k }: { k: KillSwitch }): VNode =>
  html`<dl class="facts">
    <div>
      <dt>State</dt>
      <dd class=${k.halted ? 'bad' : 'good'} data-kill-switch=${k.halted ? 'on' : 'off'}>
        ${k.halted ? `On (${k.mode ?? 'cancel-all'}): places and modifies are refused` : 'Off: trading allowed'}
      </dd>
    </div>
    ${
      k.changedAt
        ? html`<div>
            <dt>Changed</dt>
            <dd>${istTime(k.changedAt)}${k.changedBy ? ` by ${k.changedBy}` : ''}</dd>
          </div>`
        : null
    }
  </dl>`;

const ids = (list: readonly string[]): string => (list.length ? list.join(', ') : 'none');

/** What the sweep did; when not complete, why and what to do (the CLI's `NOT complete` lines). */
const SweepLines = ({ sweep }: { sweep: Sweep }): VNode =>
  html`<div class="sweep" data-sweep-complete=${String(sweep.complete)}>
    <dl class="facts">
      <div>
        <dt>Swept</dt>
        <dd>${istTime(sweep.startedAt)} to ${istTime(sweep.finishedAt)}</dd>
      </div>
      <div>
        <dt>Cancelled</dt>
        <dd data-sweep="cancelled">${ids(sweep.cancelled)}</dd>
      </div>
      ${
        sweep.kept
          ? html`<div>
              <dt>Kept (exits)</dt>
              <dd data-sweep="kept">${ids(sweep.kept)}</dd>
            </div>`
          : null
      }
      ${
        sweep.failed.length
          ? html`<div>
              <dt>Not cancelled</dt>
              <dd data-sweep="failed" class="bad">
                ${sweep.failed.map((f) => `${f.al_id} (${f.code}: ${f.message})`).join('; ')}
              </dd>
            </div>`
          : null
      }
    </dl>
    ${
      sweep.complete
        ? html`<p class="good">Complete: nothing is left pending${sweep.kept ? ' but the kept exits' : ''}.</p>`
        : html`<div class="problem" role="alert" data-sweep-incomplete>
            <p>
              <strong>NOT complete</strong>: the switch is on, but the sweep could not make sure nothing is left
              pending.
            </p>
            ${
              sweep.inFlightUntil
                ? html`<p data-in-flight-until>
                    ${`An order sent before the switch may still land until ${istTime(sweep.inFlightUntil)}: press `}
                    <strong>Sweep again</strong>${' after then to cancel what landed.'}
                  </p>`
                : null
            }
            ${
              sweep.failed.length
                ? html`<p>
                    Cancel the orders not cancelled by hand (Orders, <strong>Cancel</strong>), then check Pending.
                  </p>`
                : null
            }
          </div>`
    }
  </div>`;
