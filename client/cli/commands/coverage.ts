/**
 * `gtt coverage` and `gtt coverage-set` (`GET /positions/coverage`, `PUT /positions/coverage`,
 * docs/explanation/coverage.md): each open position with its status (a problem in capitals: PARTLY, TARGET-ONLY,
 * UNCOVERED), the quantity nothing covers, the exits resting for it, over-cover flagged, what live plans owe and is
 * not at the broker yet; then the totals and the settings (watch, autoCover). coverage-set writes the settings whole, as the route does.
 */
import type { CallInput, OperationResult } from '../../types.js';
import { command, may } from '../command.js';
import { type Flags, UsageError } from '../flags.js';
import { istTime, table } from '../render.js';

export type CoverageView = OperationResult<'GetCoverage'>;
type Settings = CoverageView['settings'];
type PositionCover = CoverageView['positions'][number];
type Exit = PositionCover['exits'][number];
type SetBody = NonNullable<CallInput<'PutCoverageSettings'>['body']>;

const netText = (qty: number): string => (qty > 0 ? `${qty} long` : `${-qty} short`);

/** covered stays in small letters; what needs the trader is in capitals. Over-cover is said beside it. */
const statusText = (p: PositionCover): string => {
  const status = p.status === 'covered' ? 'covered' : p.status.toUpperCase();
  return p.overCoveredQty ? `${status}, OVER by ${p.overCoveredQty}` : status;
};

/** `oco 24112300000123 x3 (1600/1400)`, `stop 2411… x2 at 1450`, `target 2411… x2 at 1550 (no cover)`. */
const exitText = (e: Exit): string => {
  const where =
    e.target !== undefined || e.stopLoss !== undefined
      ? ` (target ${e.target ?? '—'}, stop ${e.stopLoss ?? '—'})`
      : e.trigger !== undefined
        ? ` at ${e.trigger}`
        : '';
  const plan = e.planId ? ` of plan ${e.planId}` : '';
  return `${e.kind} ${e.al_id} x${e.qty}${where}${plan}${e.counts ? '' : ' (no cover)'}`;
};

export const COVERAGE_COLUMNS = ['symbol', 'product', 'net qty', 'status', 'uncovered', 'exits'];

const coverageRow = (p: PositionCover): string[] => [
  `${p.exch}:${p.tsym}`,
  p.product,
  netText(p.netQty),
  statusText(p),
  String(p.uncoveredQty),
  p.exits.length ? p.exits.map(exitText).join('; ') : '—',
];

/** The settings in words: what each watcher run does. */
export const settingsText = (s: Settings): string => {
  const watch = s.watch
    ? 'watch       on: each watcher run raises Position Unprotected once for a position not covered'
    : 'watch       off: no watcher run checks coverage (coverage-set --watch on)';
  const auto = s.autoCover
    ? `autoCover   on: an OCO for the uncovered quantity, target ${s.autoCover.target} and stop ${s.autoCover.stop} from the average price${s.watch ? '' : ' (acts only with watch on)'}`
    : 'autoCover   off';
  const changed = s.changedAt ? [`changed     ${istTime(s.changedAt)}${s.changedBy ? ` by ${s.changedBy}` : ''}`] : [];
  return [watch, auto, ...changed].join('\n');
};

export const coverageText = (c: CoverageView): string => {
  if (c.positions.length === 0) return ['no open positions: nothing to cover', '', settingsText(c.settings)].join('\n');
  const t = c.totals;
  const over = c.positions
    .filter((p) => p.overCoveredQty)
    .map(
      (p) =>
        `over-cover: ${p.exch}:${p.tsym}'s stops and OCOs close ${p.overCoveredQty} more than the ${netText(p.netQty)}: a fired one would open a position the other way`,
    );
  // What live plans owe and is not at the broker yet: not cover, but autoCover leaves it to them.
  const owed = c.positions
    .filter((p) => p.owedQty)
    .map(
      (p) =>
        `owed: ${p.exch}:${p.tsym}'s live plans owe ${p.owedQty} not at the broker yet (${(p.owedBy ?? []).map((o) => `plan ${o.planId} ${o.what} x${o.qty}`).join('; ')}): their exit covers it once placed, and autoCover leaves it to them`,
    );
  return [
    table(COVERAGE_COLUMNS, c.positions.map(coverageRow)),
    ...over,
    ...owed,
    ...(c.note ? [`note: ${c.note}`] : []),
    '',
    `${t.open} open: ${t.covered} covered, ${t.partly} partly, ${t.targetOnly} target-only, ${t.uncovered} uncovered`,
    settingsText(c.settings),
  ].join('\n');
};

export const coverage = command({
  name: 'coverage',
  flags: [],
  summary:
    'each open position with what covers it: covered, PARTLY, TARGET-ONLY or UNCOVERED, the quantity nothing ' +
    'covers, the stops and OCOs resting for it (over-cover flagged); then the watch and autoCover settings',
  run: async ({ client, callOptions }) => (await client.call('GetCoverage', {}, callOptions)) as CoverageView,
  render: coverageText,
});

/**
 * A distance as the route takes it (functions/base/schemas/coverage.ts, checked here too so that nothing is sent
 * when it is wrong): points above 0 (`10`, `2.5`) or a percentage of the average price above 0 and below 100 (`2%`).
 */
const DISTANCE = /^(\d+(?:\.\d+)?)(%?)$/;
const distance = (f: Flags, name: 'target' | 'stop'): string | undefined => {
  const value = f.str(name)?.trim();
  if (value === undefined) return undefined;
  const m = DISTANCE.exec(value);
  const amount = m ? Number(m[1]) : Number.NaN;
  if (!m || !(amount > 0) || (m[2] === '%' && amount >= 100))
    f.problem(
      `--${name} must be points above 0 (e.g. 10) or a percentage of the average price above 0 and below 100 (e.g. 2%), got ${JSON.stringify(f.str(name))}`,
    );
  return value;
};

/** What coverage-set sends; `undefined`: none of --watch, --auto-cover, --off was given (refused in `run`). */
type CoverBody = { watch: boolean; autoCover?: { target: string; stop: string } } | undefined;

const coverBody = (f: Flags): CoverBody => {
  const watchGiven = f.str('watch')?.trim().toLowerCase();
  const auto = f.values['auto-cover'] === true;
  const off = f.values.off === true;
  const target = distance(f, 'target');
  const stop = distance(f, 'stop');
  if (watchGiven !== undefined && watchGiven !== 'on' && watchGiven !== 'off')
    f.problem(`--watch must be on or off, got ${JSON.stringify(f.str('watch'))}`);
  if (off && (watchGiven !== undefined || auto || target !== undefined || stop !== undefined))
    f.problem('--off turns coverage off: give it alone');
  if (!auto && (target !== undefined || stop !== undefined))
    f.problem("--target and --stop are autoCover's distances: give them with --auto-cover");
  if (auto && (target === undefined || stop === undefined))
    f.problem('--auto-cover needs both distances from the average price: --target (e.g. 2%) and --stop (e.g. 10)');
  if (auto && watchGiven === 'off')
    f.problem('--auto-cover acts only on the watcher runs coverage watches: leave out --watch off');
  if (off || watchGiven === 'off') return { watch: false };
  if (auto) return { watch: true, autoCover: { target: target ?? '', stop: stop ?? '' } };
  return watchGiven === 'on' ? { watch: true } : undefined;
};

export const coverageSet = command({
  name: 'coverage-set',
  flags: [may('watch', 'on|off'), may('auto-cover'), may('target', '2%'), may('stop', '10'), may('off')],
  summary:
    'coverage settings, written whole: --watch on raises Position Unprotected each watcher run for a position not ' +
    'covered; --auto-cover --target 2% --stop 10 (points or % from the average price) also places one OCO for it ' +
    '(watch on with it); --watch on alone turns autoCover off; --off (or --watch off) turns both off',
  input: coverBody,
  run: async ({ client, callOptions }, body) => {
    // One of --watch, --auto-cover or --off is needed: a group the usage cannot mark as needed, so checked here,
    // before any call (a usage error, exit 2).
    if (body === undefined)
      throw new UsageError('give --watch on|off, --auto-cover --target D --stop D, or --off', 'coverage-set');
    return (await client.call('PutCoverageSettings', { body: body as SetBody }, callOptions)) as Settings;
  },
  render: settingsText,
});
