/**
 * Today's "Day's limits" card (docs/how-to/set-a-day-loss-limit.md): the account's loss limit and profit target from
 * `GET /risk`, in rupees the Indian way, the kill switch's mode when one is crossed and whether open positions are
 * squared off; then today's state as the watcher's last check left it: clear (the last P&L seen and how far it is
 * from each limit), HIT (the limit, the P&L it was crossed at and when, the switch, the event, each square-off order
 * or the error that refused it) or UNCHECKED (why). No limit set says so and how to set one. The form to set them is
 * risk-form.ts, below the state.
 */
import { html } from 'htm/preact';

import { type Api, ok } from '../api.js';
import { istTime, money, price, rupees, side } from '../format.js';
import { Problem, useLoad, type VNode } from '../ui.js';
import { RiskForm } from './risk-form.js';
import { limitsSet, type RiskToday as Today, roomLeft, type Settings } from './risk-values.js';

type Hit = NonNullable<Today['hit']>;

const MODE_WORDS: Record<Settings['mode'], string> = {
  'keep-exits': 'kill switch on, keeping the exits (keep-exits)',
  'cancel-all': 'kill switch on, cancelling everything (cancel-all)',
};

const LIMIT_NAMES: Record<Hit['limit'], string> = {
  dayLossLimit: 'the loss limit',
  dayProfitTarget: 'the profit target',
};

/** A P&L's class: gains green, losses red, nothing plain. */
const tone = (n: number): string => (n > 0 ? 'good' : n < 0 ? 'bad' : '');

const Fact = ({ term, children, ...extra }: { term: string; children: unknown } & Record<string, unknown>): VNode =>
  html`<div>
    <dt>${term}</dt>
    <dd ...${extra}>${children}</dd>
  </div>` as VNode;

const LimitLines = ({ s }: { s: Settings }): VNode =>
  html`<dl class="facts" data-risk="limits">
    <${Fact} term="Loss limit" data-risk-limit="loss">
      ${s.dayLossLimit === undefined ? 'none' : `${money(s.dayLossLimit)}: stops at ${rupees(-s.dayLossLimit)}`}
    <//>
    <${Fact} term="Profit target" data-risk-limit="target">
      ${s.dayProfitTarget === undefined ? 'none' : `${money(s.dayProfitTarget)}: stops at ${rupees(s.dayProfitTarget)}`}
    <//>
    <${Fact} term="When crossed" data-risk-mode=${s.mode}>${MODE_WORDS[s.mode]}<//>
    <${Fact} term="Square-off" data-risk-square-off=${String(s.squareOff)}>
      ${s.squareOff ? 'Yes: each open position closed by a protected limit order' : 'No: positions stay open'}
    <//>
    <${Fact} term="Set">${istTime(s.updatedAt)} by ${s.updatedBy}<//>
  </dl>` as VNode;

/** The P&L as the check saw it: the total, coloured, and what it is made of. */
const pnlWords = (pnl: { realised: number; unrealised: number; total: number }) =>
  html`<span class=${tone(pnl.total)} data-pnl>${rupees(pnl.total)}</span>${' '}<span class="muted"
      >(realised ${rupees(pnl.realised)}, unrealised ${rupees(pnl.unrealised)})</span
    >`;

const SquareOffLine = ({ o }: { o: NonNullable<Hit['squareOff']>[number] }): VNode =>
  html`<li data-square-off=${`${o.exch}:${o.tsym}:${o.product}`}>
    ${`${side(o.side)} ${o.qty} ${o.exch}:${o.tsym}${o.price ? ` at ${price(o.price)}` : ''}: `}
    ${
      o.error
        ? html`<span class="bad" data-square-off-error>refused: ${o.error}</span>`
        : o.norenordno
          ? html`<span data-square-off-order=${o.norenordno}>order ${o.norenordno}</span>`
          : html`<span class="muted">not sent yet (the next run sends it)</span>`
    }
  </li>` as VNode;

const HitLines = ({ hit }: { hit: Hit }): VNode =>
  html`<${Fact} term="Crossed">
      <span data-risk-hit=${hit.limit}>${LIMIT_NAMES[hit.limit]} (${rupees(hit.threshold)})</span> at ${istTime(hit.at)}
    <//>
    <${Fact} term="P&L then">${pnlWords(hit.pnl)}<//>
    <${Fact} term="Kill switch" data-risk-halted=${String(hit.halted)}>
      ${hit.halted ? `turned on (${hit.mode})` : 'not turned on yet (the next run turns it)'}
    <//>
    <${Fact} term="Event">${hit.eventSent ? 'Risk Limit Hit sent' : 'not sent yet'}<//>
    ${
      hit.squareOff
        ? html`<${Fact} term="Square-off">
            ${
              hit.squareOff.length
                ? html`<ul class="day-list" aria-label="Square-off orders">
                    ${hit.squareOff.map((o) => html`<${SquareOffLine} o=${o} />`)}
                  </ul>`
                : 'no open position to close'
            }
          <//>`
        : null
    }` as VNode;

const STATE_WORDS: Record<Today['state'], string> = {
  clear: 'Clear: no limit crossed',
  hit: 'HIT: trading stopped for the day',
  unchecked: 'UNCHECKED: the positions could not be read, nothing decided',
};

const TodayLines = ({ today, s }: { today: Today; s: Settings | undefined }): VNode => {
  const last = today.lastCheck;
  return html`<dl class="facts" data-risk="today">
    <${Fact}
      term=${`Today (${today.day})`}
      class=${today.state === 'clear' ? 'good' : 'bad'}
      data-risk-state=${today.state}
    >
      ${STATE_WORDS[today.state]}
    <//>
    ${today.state === 'unchecked' ? html`<${Fact} term="Why" data-risk-reason>${today.reason ?? '—'}<//>` : null}
    ${today.hit ? html`<${HitLines} hit=${today.hit} />` : null}
    ${
      last?.pnl
        ? html`<${Fact} term="Last P&L" data-risk-last>${pnlWords(last.pnl)} at ${istTime(last.at)}<//>`
        : html`<${Fact} term="Last P&L">
            ${
              last
                ? `none: the last check (${istTime(last.at)}) could not read the positions`
                : 'not checked yet today: the watcher checks each run while a limit is set'
            }
          <//>`
    }
    ${
      today.state === 'clear' && last?.pnl && limitsSet(s)
        ? html`<${Fact} term="Room" data-risk-room>${roomLeft(last.pnl.total, s).join('; ')}<//>`
        : null
    }
  </dl>` as VNode;
};

export const RiskCard = ({ api }: { api: Api }): VNode => {
  const read = useLoad(() => ok(api.GET('/risk')), []);
  const data = read.data;
  return html`<section aria-labelledby="risk-title" class="card wide">
    <h2 id="risk-title">Day's limits</h2>
    <${Problem} text=${read.error} />
    ${read.loading && !data ? html`<p>Reading the day's limits…</p>` : null}
    ${
      data && !limitsSet(data.settings)
        ? html`<p data-risk="none">
            ${"No day's limit is set: trading does not stop by itself at a loss. Set a loss limit below, or "}
            <code>npm run gtt -- risk-set --loss 5000</code>.
          </p>`
        : null
    }
    ${data && limitsSet(data.settings) ? html`<${LimitLines} s=${data.settings} />` : null}
    ${
      data && (limitsSet(data.settings) || data.today.state !== 'clear' || data.today.lastCheck)
        ? html`<${TodayLines} today=${data.today} s=${data.settings} />`
        : null
    }
    ${data ? html`<${RiskForm} api=${api} settings=${data.settings} today=${data.today} saved=${read.reload} />` : null}
  </section>` as VNode;
};
