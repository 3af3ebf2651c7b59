/**
 * Signals: the strategies (made from a template for their source in strategy-form.ts, paper or live, their webhook
 * URL rotated) and each one's signals with their fate. A webhook URL holds the strategy's token: it is shown once, as
 * the API shows it.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import type { operations } from '../../../client/generated/openapi.js';
import { sampleAlert } from '../../../client/signals.js';
import { type Api, describeError, ok } from '../api.js';
import type { ViewProps } from '../app.js';
import { istTime } from '../format.js';
import { Notice, Problem, useConfirm, useLoad, type VNode } from '../ui.js';
import { type CreatedStrategy, StrategyForm } from './strategy-form.js';

type Strategy = operations['ListStrategies']['responses'][200]['content']['application/json']['strategies'][number];

export const SignalsView = ({ api }: ViewProps): VNode => {
  const strategies = useLoad(async () => (await ok(api.GET('/strategies'))).strategies, []);
  const [shown, setShown] = useState<{ name: string; url: string; alert: string }>();
  const [notice, setNotice] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [question, ask] = useConfirm();
  const run = async (what: () => Promise<void>) => {
    setProblem(undefined);
    setNotice(undefined);
    try {
      await what();
    } catch (error) {
      setProblem(describeError(error));
    }
    strategies.reload();
  };
  const alertFor = (s: Pick<Strategy, 'source' | 'action'>) => JSON.stringify(sampleAlert(s), null, 2);

  const rotate = (s: Strategy) =>
    ask({
      title: `New webhook URL for ${s.name}?`,
      detail: 'The old URL stops working at once: alerts still sent to it are refused.',
      yes: 'Rotate the URL',
      onYes: () =>
        run(async () => {
          const made = await ok(
            api.POST('/strategies/{strategyId}/token', { params: { path: { strategyId: s.strategyId } } }),
          );
          setShown({ name: s.name, url: made.webhookUrl, alert: alertFor(s) });
        }),
    });
  const setMode = (s: Strategy, mode: 'live' | 'paper') =>
    ask({
      title: mode === 'live' ? `Make ${s.name} live?` : `Make ${s.name} paper?`,
      detail:
        mode === 'live'
          ? 'Its alerts will place real orders at the broker.'
          : 'Its alerts will be checked and dry-run only: nothing is placed.',
      yes: mode === 'live' ? 'Go live' : 'Switch to paper',
      onYes: () =>
        run(async () => {
          await ok(
            api.PATCH('/strategies/{strategyId}', { params: { path: { strategyId: s.strategyId } }, body: { mode } }),
          );
          setNotice(`${s.name} is ${mode} now.`);
        }),
    });

  return html`<div class="signals">
    <${Problem} text=${strategies.error ?? problem} />
    <${Notice} text=${notice} />
    ${question}
    ${
      shown
        ? html`<div class="review" role="status">
            <h2>Webhook URL of ${shown.name}</h2>
            <p>
              Shown this once: paste it in the alert's webhook field. Keep it secret (anyone with it can send alerts).
            </p>
            <pre tabindex="0" data-webhook-url>${shown.url}</pre>
            <p>An alert message in this source's shape:</p>
            <pre tabindex="0">${shown.alert}</pre>
            <button type="button" onClick=${() => setShown(undefined)}>Done</button>
          </div>`
        : null
    }
    <${StrategyForm}
      api=${api}
      created=${(made: CreatedStrategy) => {
        setShown({ name: made.name, url: made.webhookUrl, alert: alertFor(made) });
        strategies.reload();
      }}
    />
    <h2>Strategies</h2>
    ${strategies.data?.length === 0 ? html`<p>No strategies.</p>` : null}
    <ul class="rows" aria-label="Strategies">
      ${(strategies.data ?? []).map(
        (s) =>
          html`<li class="row" data-strategy=${s.strategyId}>
            <p class="row-head">
              <strong>${s.name}</strong> <span class="tag">${s.source}</span>
              <span class=${`state ${s.mode}`}>${s.mode}</span> <span class="muted">${s.strategyId}</span>
            </p>
            <p>
              ${s.action.kind} · at most ${s.maxQty ?? '—'} · ${s.ratePerMinute}/min · URL set ${istTime(s.tokenSetAt)}
            </p>
            <p class="actions">
              <button type="button" onClick=${() => rotate(s)}>
                Rotate URL<span class="sr-only"> of ${s.name}</span>
              </button>
              <button type="button" onClick=${() => setMode(s, s.mode === 'live' ? 'paper' : 'live')}>
                ${s.mode === 'live' ? 'Switch to paper' : 'Go live'}<span class="sr-only"> (${s.name})</span>
              </button>
            </p>
            <details>
              <summary>Signals<span class="sr-only"> of ${s.name}</span></summary>
              <${StrategySignals} api=${api} strategyId=${s.strategyId} />
            </details>
          </li>`,
      )}
    </ul>
  </div>`;
};

const StrategySignals = ({ api, strategyId }: { api: Api; strategyId: string }): VNode => {
  const signals = useLoad(
    async () => (await ok(api.GET('/signals', { params: { query: { strategyId, limit: 20 } } }))).signals,
    [strategyId],
  );
  if (signals.error) return html`<${Problem} text=${signals.error} />`;
  if (!signals.data) return html`<p>Loading…</p>`;
  if (signals.data.length === 0) return html`<p>No signals yet.</p>`;
  return html`<ol class="timeline">
    ${signals.data.map(
      (s) =>
        html`<li
          class=${s.state === 'refused' ? 'bad' : s.state === 'acted' ? 'good' : ''}
          data-signal-state=${s.state}
        >
          <time datetime=${s.receivedAt}>${istTime(s.receivedAt)}</time> <strong>${s.state}</strong>
          ${s.reason ? html`<span>${s.reason}</span>` : null}
          ${(s.results ?? []).map((r) => html`<span>${r.ticker}: ${describeResult(r)}</span>`)}
        </li>`,
    )}
  </ol>`;
};

/** What an alert did: the order it placed, what paper mode would have placed, or why not. */
const describeResult = (r: Record<string, unknown>): string => {
  const text = (k: string) => (typeof r[k] === 'string' || typeof r[k] === 'number' ? String(r[k]) : undefined);
  return text('al_id')
    ? `placed order ${text('al_id')}`
    : (text('error') ?? text('code') ?? text('outcome') ?? JSON.stringify(r).slice(0, 120));
};
