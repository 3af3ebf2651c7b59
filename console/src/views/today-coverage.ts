/**
 * Today's coverage badge (docs/explanation/coverage.md): how many open positions have no stop or OCO for all of
 * them, from `GET /positions/coverage` (read once by Today, shared with the Position cover card, coverage-form.ts),
 * each named with what is uncovered; nothing when every one is covered.
 */
import { html } from 'htm/preact';

import type { CoverageResult } from '../../../functions/base/schemas/coverage.js';
import { type Loaded, Problem, type VNode } from '../ui.js';
import { unprotectedLine } from './coverage-values.js';

export const CoverageBadge = ({ read }: { read: Loaded<CoverageResult> }): VNode => {
  if (read.error) return html`<${Problem} text=${read.error} />`;
  const open = read.data?.positions.filter((p) => p.status !== 'covered') ?? [];
  // A marker only (hidden: it takes no place in Today's grid).
  if (!open.length) return html`<span data-coverage="ok" hidden></span>`;
  return html`<section aria-labelledby="coverage-title" class="card alarm" data-coverage="unprotected">
    <h2 id="coverage-title">
      <span class="badge" data-count="unprotected-positions">${open.length}</span> unprotected
      position${open.length === 1 ? '' : 's'}
    </h2>
    <ul>
      ${open.map((p) => html`<li>${unprotectedLine(p)}</li>`)}
    </ul>
    ${read.data?.note ? html`<p class="hint">${read.data.note}</p>` : null}
  </section>`;
};
