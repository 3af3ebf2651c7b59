/**
 * Plans: each bracket, trailing-stop or option plan's state, legs and history; the unprotected first and in red;
 * cancel; a new plan (plan-form.ts), option plan (option-plan-form.ts) or legs plan (legs-plan-form.ts). An option
 * plan shows the index it watches, its level and pick, and once crossed the contract it chose (option-plan-values.ts);
 * a legs plan each leg, the net premium and its exit (legs-plan-values.ts).
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

import { TERMINAL } from '../../../functions/base/schemas/event-types.js';
import { describeError, ok } from '../api.js';
import type { ViewProps } from '../app.js';
import { istTime, price } from '../format.js';
import { allPlans, type Plan } from '../reads.js';
import { Notice, Problem, useConfirm, useLoad, type VNode } from '../ui.js';
import { LegsPlanForm } from './legs-plan-form.js';
import { legsLines } from './legs-plan-values.js';
import { OptionPlanForm } from './option-plan-form.js';
import { optionHead, optionLines, stateBadge } from './option-plan-values.js';
import { PlanForm } from './plan-form.js';

/** The order they are listed in: what needs the trader first. */
const RANK: Record<Plan['state'], number> = {
  unprotected: 0,
  failed: 1,
  'entry-filled': 2,
  'entry-placed': 3,
  'exit-armed': 4,
  armed: 5,
  watching: 6,
  done: 7,
  cancelled: 8,
};

/** A plan's head: its symbol (an option plan's index, level and contract once chosen). */
const Head = ({ plan }: { plan: Plan }): VNode => {
  const option = optionHead(plan);
  return option
    ? html`<strong>${option.underlying}</strong>
        <span data-option-level>${option.level}</span>
        ${option.contract ? html`<strong data-option-contract>${option.contract}</strong>` : null}`
    : html`<strong>${plan.tsym}</strong> <span>${plan.exch}</span>`;
};

/** `Target 1600.00 → 1600.00 (order 123)`: a leg's trigger, the price it sends, its order at the broker. */
const legLine = (name: string, leg: { trigger: string; price: string }, tick?: string, alId?: string): string =>
  `${name} ${price(leg.trigger, tick)} → ${price(leg.price, tick)}${alId ? ` (order ${alId})` : ''}`;

export const PlansView = ({ api }: ViewProps): VNode => {
  const plans = useLoad(() => allPlans(api), []);
  const [question, ask] = useConfirm();
  const [notice, setNotice] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const cancel = (plan: Plan) =>
    ask({
      title: `Cancel plan ${plan.planId}?`,
      detail: 'Its pending orders are cancelled at the broker; a position it holds stays open (close it yourself).',
      yes: 'Cancel the plan',
      no: 'Keep it',
      onYes: async () => {
        try {
          await ok(api.DELETE('/plans/{planId}', { params: { path: { planId: plan.planId } } }));
          setNotice(`Plan ${plan.planId} cancelled.`);
        } catch (error) {
          setProblem(describeError(error));
        }
        plans.reload();
      },
    });
  const sorted = [...(plans.data ?? [])].sort(
    (a, b) => RANK[a.state] - RANK[b.state] || b.updatedAt.localeCompare(a.updatedAt),
  );
  return html`<div class="plans">
    <${Problem} text=${plans.error ?? problem} />
    <${Notice} text=${notice} />
    ${question} ${sorted.length === 0 && !plans.loading ? html`<p>No plans.</p>` : null}
    <ul class="rows" aria-label="Plans">
      ${sorted.map(
        (plan) =>
          html`<li class=${`row plan ${plan.state === 'unprotected' ? 'alarm' : ''}`} data-plan=${plan.planId}>
            <p class="row-head">
              <${Head} plan=${plan} /> <span class="tag">${plan.kind}</span>
              <span
                class=${`state ${plan.state} ${stateBadge(plan.state).tone}`}
                title=${stateBadge(plan.state).meaning}
                data-plan-state=${plan.state}
                >${plan.state}</span
              >
              <span class="muted">${plan.planId}</span>
            </p>
            ${plan.reason ? html`<p>${plan.reason}</p>` : null}
            <ul class="legs" aria-label=${`Legs of ${plan.planId}`}>
              ${optionLines(plan).map((line) => html`<li data-option-line>${line}</li>`)}
              ${legsLines(plan).map((line) => html`<li data-legs-line>${line}</li>`)}
              ${plan.alIds.entry ? html`<li>Entry order ${plan.alIds.entry}</li>` : null}
              ${plan.target ? html`<li>${legLine('Target', plan.target, plan.tick, plan.alIds.exit)}</li>` : null}
              ${plan.stopLoss ? html`<li>${legLine('Stop', plan.stopLoss, plan.tick, plan.alIds.stop)}</li>` : null}
              ${
                plan.trailBy
                  ? html`<li>
                      ${`Trailing by ${plan.trailBy}: stop ${price(plan.trigger, plan.tick)}, best ${price(plan.best, plan.tick)}`}
                    </li>`
                  : null
              }
              ${plan.position ? html`<li>Position: ${plan.position.side === 'B' ? 'long' : 'short'} ${plan.position.qty}</li>` : null}
            </ul>
            <details>
              <summary>History (${plan.history.length})</summary>
              <ol>
                ${plan.history.map((h) => html`<li><time datetime=${h.at}>${istTime(h.at)}</time> ${h.action}</li>`)}
              </ol>
            </details>
            ${
              !TERMINAL.includes(plan.state)
                ? html`<p class="actions">
                    <button type="button" class="danger" onClick=${() => cancel(plan)}>
                      Cancel<span class="sr-only"> plan ${plan.planId}</span>
                    </button>
                  </p>`
                : null
            }
          </li>`,
      )}
    </ul>
    <${PlanForm} api=${api} created=${() => plans.reload()} />
    <${OptionPlanForm} api=${api} created=${() => plans.reload()} />
    <${LegsPlanForm} api=${api} created=${() => plans.reload()} />
  </div>`;
};
