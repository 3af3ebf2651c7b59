/** Today: the session, the kill switch, the guardrails, and the day's counts. */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import { describeError, ok } from '../api.js';
import type { ViewProps } from '../app.js';
import { istTime } from '../format.js';
import { allPlans, type KillSwitch, pendingOrders, type SessionStatus, triggeredOrders } from '../reads.js';
import { Notice, Problem, useConfirm, useLoad, type VNode } from '../ui.js';

export const TodayView = ({ api }: ViewProps): VNode => {
  const session = useLoad(() => ok(api.GET('/session')), []);
  const killSwitch = useLoad(() => ok(api.GET('/kill-switch')), []);
  const counts = useLoad(async () => {
    const [pending, fired, plans] = await Promise.all([pendingOrders(api), triggeredOrders(api), allPlans(api)]);
    return {
      pending: pending.length,
      fired: fired.length,
      filled: fired.filter((o) => o.order?.status === 'filled').length,
      rejected: fired.filter((o) => o.order?.status === 'rejected').length,
      unprotected: plans.filter((p) => p.state === 'unprotected').length,
    };
  }, []);
  const [question, ask] = useConfirm();
  const [notice, setNotice] = useState<string>();
  const [problem, setProblem] = useState<string>();

  const act = async (what: () => Promise<string>) => {
    setProblem(undefined);
    try {
      setNotice(await what());
    } catch (error) {
      setProblem(describeError(error));
    }
    session.reload();
    killSwitch.reload();
    counts.reload();
  };

  const login = async () => {
    try {
      const start = await ok(api.GET('/session/oauth/start'));
      window.location.assign(start.authorizeUrl);
    } catch (error) {
      setProblem(describeError(error));
    }
  };
  const logout = () =>
    ask({
      title: 'Log out of the broker?',
      detail: 'Pending GTTs stay at the broker; nothing can be placed, changed or cancelled until the next login.',
      yes: 'Log out',
      onYes: () => act(async () => (await ok(api.POST('/session/logout')), 'Logged out of the broker.')),
    });
  const turnOn = () =>
    ask({
      title: 'Turn the kill switch on?',
      detail: 'Every pending GTT and OCO is cancelled now, and places and modifies are refused until it is turned off.',
      yes: 'Turn it on',
      onYes: () =>
        act(async () => {
          const on = await ok(api.POST('/kill-switch', { body: { mode: 'cancel-all' } }));
          const sweep = on.sweep;
          return sweep
            ? `Kill switch on: ${sweep.cancelled.length} cancelled, ${sweep.failed.length} left to cancel by hand.`
            : 'Kill switch on.';
        }),
    });
  const turnOff = () =>
    ask({
      title: 'Turn the kill switch off?',
      detail:
        'Places and modifies are accepted again (the API, signals and plans). Orders it cancelled stay cancelled.',
      yes: 'Turn it off',
      onYes: () =>
        act(async () => (await ok(api.DELETE('/kill-switch')), 'Kill switch off: trading is allowed again.')),
    });

  return html`<div class="today">
    <${Problem} text=${problem} />
    <${Notice} text=${notice} />
    ${question}
    <section aria-labelledby="session-title" class="card">
      <h2 id="session-title">Broker session</h2>
      <${Problem} text=${session.error} />
      ${session.data ? html`<${SessionLines} s=${session.data} />` : null}
      <div class="actions">
        <button type="button" onClick=${login}>Log in at the broker</button>
        <button type="button" onClick=${logout} disabled=${!session.data?.alive}>Log out</button>
      </div>
    </section>
    <section aria-labelledby="kill-title" class="card">
      <h2 id="kill-title">Kill switch</h2>
      <${Problem} text=${killSwitch.error} />
      ${killSwitch.data ? html`<${KillSwitchLines} k=${killSwitch.data} />` : null}
      ${
        killSwitch.data?.halted
          ? html`<button type="button" onClick=${turnOff}>Turn the kill switch off</button>`
          : html`<button type="button" class="danger" onClick=${turnOn} disabled=${!killSwitch.data}>
              Turn the kill switch on
            </button>`
      }
    </section>
    <section aria-labelledby="counts-title" class="card">
      <h2 id="counts-title">Orders</h2>
      <${Problem} text=${counts.error} />
      ${
        counts.data
          ? html`<dl class="counts">
              <div>
                <dt>Pending</dt>
                <dd data-count="pending">${counts.data.pending}</dd>
              </div>
              <div>
                <dt>Fired</dt>
                <dd data-count="fired">${counts.data.fired}</dd>
              </div>
              <div>
                <dt>Filled</dt>
                <dd data-count="filled">${counts.data.filled}</dd>
              </div>
              <div>
                <dt>Rejected</dt>
                <dd data-count="rejected">${counts.data.rejected}</dd>
              </div>
              <div class=${counts.data.unprotected > 0 ? 'alarm' : ''}>
                <dt>Unprotected plans</dt>
                <dd data-count="unprotected">${counts.data.unprotected}</dd>
              </div>
            </dl>`
          : html`<p>${counts.loading ? 'Counting…' : ''}</p>`
      }
    </section>
    ${
      session.data?.guardrails
        ? html`<${Guardrails} g=${session.data.guardrails} rate=${session.data.orderRate} />`
        : null
    }
  </div>`;
};

const SessionLines = ({ s }: { s: SessionStatus }): VNode =>
  html`<dl class="facts">
    <div>
      <dt>State</dt>
      <dd class=${s.alive ? 'good' : 'bad'} data-session=${s.alive ? 'alive' : 'down'}>
        ${s.alive ? 'Logged in' : `Not usable${s.code ? ` (${s.code})` : ''}`}
      </dd>
    </div>
    <div>
      <dt>Account</dt>
      <dd>${s.uid ?? '—'}${s.actid && s.actid !== s.uid ? ` / ${s.actid}` : ''}</dd>
    </div>
    <div>
      <dt>Since</dt>
      <dd>${s.since ? `${istTime(s.since)}${s.method ? ` (${s.method})` : ''}` : '—'}</dd>
    </div>
    ${
      s.loggedOutAt
        ? html`<div>
            <dt>Logged out</dt>
            <dd>${istTime(s.loggedOutAt)}</dd>
          </div>`
        : null
    }
    ${
      s.reason
        ? html`<div>
            <dt>Why</dt>
            <dd>${s.reason}</dd>
          </div>`
        : null
    }
    <div>
      <dt>Checked</dt>
      <dd>${istTime(s.checkedAt)}</dd>
    </div>
  </dl>`;

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

const Guardrails = ({
  g,
  rate,
}: {
  g: NonNullable<SessionStatus['guardrails']>;
  rate: SessionStatus['orderRate'];
}): VNode =>
  html`<section aria-labelledby="guardrails-title" class="card">
    <h2 id="guardrails-title">Guardrails</h2>
    <dl class="facts">
      ${
        rate
          ? html`<div>
              <dt>Order rate (the governor)</dt>
              <dd data-order-rate>${`at most ${rate.perSecond} a second, ${rate.perMinute} a minute`}</dd>
            </div>`
          : null
      }
      <div>
        <dt>Read only</dt>
        <dd>${g.readOnly ? 'Yes: no orders' : 'No'}</dd>
      </div>
      <div>
        <dt>Largest quantity</dt>
        <dd>${g.maxQty}</dd>
      </div>
      <div>
        <dt>Largest order value</dt>
        <dd>${g.maxOrderValue}</dd>
      </div>
      ${
        g.exchanges?.length
          ? html`<div>
              <dt>Exchanges</dt>
              <dd>${g.exchanges.join(', ')}</dd>
            </div>`
          : null
      }
      ${
        g.products?.length
          ? html`<div>
              <dt>Products</dt>
              <dd>${g.products.join(', ')}</dd>
            </div>`
          : null
      }
      ${
        g.priceTypes?.length
          ? html`<div>
              <dt>Price types</dt>
              <dd>${g.priceTypes.join(', ')}</dd>
            </div>`
          : null
      }
      ${
        g.symbolsAllow?.length
          ? html`<div>
              <dt>Symbols</dt>
              <dd>${g.symbolsAllow.join(', ')}</dd>
            </div>`
          : null
      }
    </dl>
  </section>`;
