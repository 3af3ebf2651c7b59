/**
 * Signals: the strategies (made from a template for their source, paper or live, their webhook URL rotated) and each
 * one's signals with their fate. A webhook URL holds the strategy's token: it is shown once, as the API shows it.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import type { operations } from '../../../client/generated/openapi.js';
import { sampleAlert } from '../../../client/signals.js';
import { type Api, describeError, newKey, ok } from '../api.js';
import type { ViewProps } from '../app.js';
import { istTime } from '../format.js';
import { EXCHANGES } from '../reads.js';
import { Notice, Problem, useConfirm, useLoad, type VNode } from '../ui.js';

type StrategyInput = operations['CreateStrategy']['requestBody']['content']['application/json'];
type Strategy = operations['ListStrategies']['responses'][200]['content']['application/json']['strategies'][number];
type Source = StrategyInput['source'];

const SOURCES: readonly [Source, string][] = [
  ['tradingview', 'TradingView'],
  ['chartink', 'ChartInk'],
  ['amibroker', 'AmiBroker'],
  ['generic', 'Any JSON (generic)'],
];

/** A source's template: a GTT half a percent below the alert's price, paper first. */
const template = (source: Source, exch: string, qty: number): StrategyInput => ({
  name: `${source}-dips`,
  source,
  mode: 'paper',
  maxQty: qty,
  action: {
    kind: 'gtt',
    order: { exch: exch as 'NSE', prd: 'C', qty },
    trigger: { offset: '-0.5%' },
    price: { offset: '-0.5%' },
  },
});

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

  const create = (input: StrategyInput) =>
    run(async () => {
      const made = await ok(
        api.POST('/strategies', { params: { header: { 'Idempotency-Key': newKey() } }, body: input }),
      );
      setShown({ name: made.name, url: made.webhookUrl, alert: alertFor(made) });
    });
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
    <${CreateStrategy} create=${create} />
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

const CreateStrategy = ({ create }: { create: (input: StrategyInput) => Promise<void> }): VNode => {
  const [source, setSource] = useState<Source>('tradingview');
  const [exch, setExch] = useState('NSE');
  const [qty, setQty] = useState('1');
  const [name, setName] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    const input = template(source, exch, Math.max(1, Math.floor(Number(qty)) || 1));
    void create({ ...input, name: name.trim() || input.name });
  };
  return html`<section aria-labelledby="new-strategy-title">
    <h2 id="new-strategy-title">New strategy from a template</h2>
    <p class="muted">
      A GTT half a percent below the alert's price, in paper mode (nothing is placed until you go live).
    </p>
    <form class="place" onSubmit=${submit}>
      <p class="field">
        <label for="strategy-source">Source</label>
        <select
          id="strategy-source"
          value=${source}
          onChange=${(e: Event) => setSource((e.target as HTMLSelectElement).value as Source)}
        >
          ${SOURCES.map(([value, text]) => html`<option value=${value}>${text}</option>`)}
        </select>
      </p>
      <p class="field">
        <label for="strategy-name">Name</label>
        <input
          id="strategy-name"
          value=${name}
          placeholder=${`${source}-dips`}
          onInput=${(e: Event) => setName((e.target as HTMLInputElement).value)}
        />
      </p>
      <p class="field">
        <label for="strategy-exch">Exchange</label>
        <select
          id="strategy-exch"
          value=${exch}
          onChange=${(e: Event) => setExch((e.target as HTMLSelectElement).value)}
        >
          ${EXCHANGES.map((e) => html`<option value=${e}>${e}</option>`)}
        </select>
      </p>
      <p class="field">
        <label for="strategy-qty">Quantity</label>
        <input
          id="strategy-qty"
          inputmode="numeric"
          value=${qty}
          onInput=${(e: Event) => setQty((e.target as HTMLInputElement).value)}
        />
      </p>
      <p class="actions"><button type="submit">Create</button></p>
    </form>
  </section>`;
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
