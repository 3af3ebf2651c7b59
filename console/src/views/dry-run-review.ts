/** A dry run's answer as the trader reviews it: the exact `jData` the gateway would send and the rules it checked. */
import { html } from 'htm/preact';

import type { DryRun } from '../reads.js';
import type { VNode } from '../ui.js';

export const Review = ({ dryRun }: { dryRun: DryRun }): VNode => {
  const rules = 'exchangeRules' in dryRun ? dryRun.exchangeRules : undefined;
  return html`<div class="review" aria-labelledby="review-title">
    <h3 id="review-title">Dry run: nothing was sent</h3>
    <p>
      The gateway would send <code>${dryRun.request.method} ${dryRun.request.url}</code> with this <code>jData</code>:
    </p>
    <pre data-dry-run="jData" tabindex="0">${JSON.stringify(dryRun.request.jData, null, 2)}</pre>
    ${
      rules
        ? html`<h4>Rules checked</h4>
            <dl class="facts" data-dry-run="rules">
              <div>
                <dt>Instrument</dt>
                <dd>${rules.instrument}</dd>
              </div>
              <div>
                <dt>Tick</dt>
                <dd>${rules.tick}</dd>
              </div>
              <div>
                <dt>Lot</dt>
                <dd>${rules.lot}</dd>
              </div>
              <div>
                <dt>Precision</dt>
                <dd>${rules.precision}</dd>
              </div>
              <div>
                <dt>Price band</dt>
                <dd>
                  ${typeof rules.band === 'string' ? rules.band : `${rules.band.lc}–${rules.band.uc} (${rules.band.width})`}
                </dd>
              </div>
              <div>
                <dt>Freeze quantity</dt>
                <dd>${rules.freeze}</dd>
              </div>
            </dl>`
        : html`<p>No exchange rules were checked for this order.</p>`
    }
  </div>`;
};
