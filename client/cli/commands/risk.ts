/**
 * `gtt risk` and `gtt risk-set`: the day's loss limit and profit target (`GET /risk`, `PUT /risk`): the settings, and
 * today's state as the watcher's last check saw it (clear, hit with the P&L and the square-off orders, or unchecked
 * with why), in rupees the Indian way and India time.
 */
import type { CallInput, OperationResult } from '../../types.js';
import { command, may } from '../command.js';
import { UsageError } from '../flags.js';
import { istTime } from '../render.js';
import { signedRupees } from './positions.js';

export type RiskView = OperationResult<'GetRiskLimits'>;
type SetBody = NonNullable<CallInput<'SetRiskLimits'>['body']>;
type Pnl = { realised: number; unrealised: number; total: number };

const pnlText = (p: Pnl): string =>
  `${signedRupees(p.total)} (realised ${signedRupees(p.realised)}, unrealised ${signedRupees(p.unrealised)})`;

const settingsLine = (s: RiskView['settings']): string => {
  if (!s || (s.dayLossLimit === undefined && s.dayProfitTarget === undefined)) return 'limits      none set';
  const parts = [
    ...(s.dayLossLimit === undefined ? [] : [`loss ${signedRupees(s.dayLossLimit)}`]),
    ...(s.dayProfitTarget === undefined ? [] : [`target ${signedRupees(s.dayProfitTarget)}`]),
    `then the kill switch ${s.mode}`,
    s.squareOff ? 'and every open position closed' : 'positions left open',
  ];
  return `limits      ${parts.join(', ')} (set ${istTime(s.updatedAt)} by ${s.updatedBy})`;
};

export const riskText = (r: RiskView): string => {
  const t = r.today;
  const lines = [settingsLine(r.settings)];
  if (t.state === 'hit' && t.hit) {
    const which = t.hit.limit === 'dayLossLimit' ? 'day loss limit' : 'day profit target';
    lines.push(
      `today       ${t.day}: HIT at ${istTime(t.hit.at)}: ${which} (${signedRupees(t.hit.threshold)}) crossed at ${pnlText(t.hit.pnl)}; kill switch ${t.hit.halted ? `on (${t.hit.mode})` : 'NOT turned on'}`,
    );
    for (const o of t.hit.squareOff ?? [])
      lines.push(
        `square-off  ${o.side === 'S' ? 'sell' : 'buy'} ${o.qty} ${o.exch}:${o.tsym} (${o.product})${o.price ? ` at ${o.price}` : ''}: ${o.error ? `NOT placed: ${o.error}` : (o.norenordno ?? 'on its way')}`,
      );
  } else if (t.state === 'unchecked') {
    lines.push(`today       ${t.day}: UNCHECKED: ${t.reason ?? 'the positions could not be read'}`);
  } else lines.push(`today       ${t.day}: clear`);
  if (t.lastCheck)
    lines.push(`last check  ${istTime(t.lastCheck.at)}${t.lastCheck.pnl ? `: P&L ${pnlText(t.lastCheck.pnl)}` : ''}`);
  return lines.join('\n');
};

export const risk = command({
  name: 'risk',
  flags: [],
  summary:
    "the day's loss limit and profit target, and today's state: clear, hit (the P&L, the square-off) or unchecked",
  run: async ({ client, callOptions }) => (await client.call('GetRiskLimits', {}, callOptions)) as RiskView,
  render: riskText,
});

/** `--off`: the limits cleared (`PUT /risk {}`). */
const CLEAR: RiskBody = {};
type RiskBody = { dayLossLimit?: number; dayProfitTarget?: number; mode?: string; squareOff?: boolean };

const RISK_MODES = ['keep-exits', 'cancel-all'];

export const riskSet = command({
  name: 'risk-set',
  flags: [
    may('loss', 'RUPEES'),
    may('target', 'RUPEES'),
    may('mode', 'keep-exits|cancel-all'),
    may('square-off'),
    may('off'),
  ],
  summary:
    "set the day's limits: --loss 5000 stops trading once the day's P&L is -₹5,000 or worse, --target 10000 at " +
    '+₹10,000; --mode how the kill switch goes on (keep-exits, the default, or cancel-all); --square-off also closes ' +
    'every open position; --off clears them',
  input: (f): RiskBody => {
    if (f.values.off === true) {
      if (f.str('loss') !== undefined || f.str('target') !== undefined)
        f.problem('--off clears the limits: give it alone, or --loss/--target without it');
      return CLEAR;
    }
    const loss = f.decimal('loss', false);
    const target = f.decimal('target', false);
    const mode = f.str('mode')?.trim().toLowerCase();
    if (mode !== undefined && !RISK_MODES.includes(mode))
      f.problem(`--mode must be keep-exits or cancel-all, got ${JSON.stringify(f.str('mode'))}`);
    return {
      ...(loss === undefined ? {} : { dayLossLimit: Number(loss) }),
      ...(target === undefined ? {} : { dayProfitTarget: Number(target) }),
      ...(mode === undefined ? {} : { mode }),
      ...(f.values['square-off'] === true ? { squareOff: true } : {}),
    };
  },
  run: async ({ client, callOptions }, body) => {
    // One of --loss, --target or --off is needed: a group the usage cannot mark as needed, so checked here, before
    // any call (a usage error, exit 2).
    if (body !== CLEAR && body.dayLossLimit === undefined && body.dayProfitTarget === undefined)
      throw new UsageError('give --loss RUPEES, --target RUPEES or both (or --off to clear the limits)', 'risk-set');
    return (await client.call('SetRiskLimits', { body: body as SetBody }, callOptions)) as RiskView;
  },
  render: riskText,
});
