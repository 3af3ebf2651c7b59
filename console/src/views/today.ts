/**
 * Today: the session, the kill switch (kill-switch.ts), the day's limits (today-risk.ts), the day's counts, the
 * positions (today-positions.ts) and their cover (today-coverage.ts, coverage-form.ts: one read for both), the lists
 * of orders placed, fired and rejected (today-lists.ts), and the guardrails with what the day's orders used of them,
 * sums in rupees the Indian way.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import { describeError, ok } from '../api.js';
import type { ViewProps } from '../app.js';
import { istTime, money } from '../format.js';
import { allPlans, pendingOrders, type SessionStatus, triggeredOrders } from '../reads.js';
import { Notice, Problem, useConfirm, useLoad, type VNode } from '../ui.js';
import { CoverageSettingsCard } from './coverage-form.js';
import { KillSwitchCard } from './kill-switch.js';
import { CoverageBadge } from './today-coverage.js';
import { DayLists, limitsUsed, readDay } from './today-lists.js';
import { PositionsCard } from './today-positions.js';
import { RiskCard } from './today-risk.js';

export const TodayView = ({ api }: ViewProps): VNode => {
  const session = useLoad(() => ok(api.GET('/session')), []);
  const day = useLoad(() => readDay(api), []);
  const coverage = useLoad(() => ok(api.GET('/positions/coverage')), []);
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
    counts.reload();
  };
  const changed = () => {
    counts.reload();
    day.reload();
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
    <${CoverageBadge} read=${coverage} />
    <${KillSwitchCard} api=${api} changed=${changed} />
    <${RiskCard} api=${api} />
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
    <${PositionsCard} api=${api} />
    <${CoverageSettingsCard} api=${api} read=${coverage} />
    <${Problem} text=${day.error} />
    ${day.data ? html`<${DayLists} day=${day.data} />` : null}
    ${
      session.data?.guardrails
        ? html`<${Guardrails}
            g=${session.data.guardrails}
            rate=${session.data.orderRate}
            used=${day.data ? limitsUsed(day.data.placed) : undefined}
          />`
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

/** `₹1,500 of ₹25,00,000 (0.06%)`: what the day's largest order used of a limit; the limit alone when it is off. */
const usedOf = (used: number | undefined, limit: string, format: (n: number | string) => string): string =>
  used === undefined || !(Number(limit) > 0)
    ? format(limit)
    : `${format(limit)}; today's largest ${format(used)} (${((used / Number(limit)) * 100).toFixed(2)}%)`;

const Guardrails = ({
  g,
  rate,
  used,
}: {
  g: NonNullable<SessionStatus['guardrails']>;
  rate: SessionStatus['orderRate'];
  used: { qty: number; value: number } | undefined;
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
        <dd data-limit="qty">${usedOf(used?.qty, g.maxQty, String)}</dd>
      </div>
      <div>
        <dt>Largest order value</dt>
        <dd data-limit="value">${usedOf(used?.value, g.maxOrderValue, money)}</dd>
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
