/**
 * The signal commands (docs/reference/signals.md): the signals received, newest first, each with its fate (`signals`), and one
 * signal whole (`signal`).
 */
import type { SignalList, SignalRecord, SignalsQuery } from '../../types.js';
import { command, may } from '../command.js';
import { istTime, withNextPage } from '../render.js';
import { PAGE_FLAGS, pageFlags } from './page-flags.js';

type Result = NonNullable<SignalRecord['results']>[number];

/** What one alert did: its symbol and the line the worker wrote (the order, with its prices; or why not). */
const resultLine = (r: Result): string =>
  [
    r.tsym ?? r.ticker,
    typeof r.alId === 'string' ? `al_id=${r.alId}` : '',
    typeof r.planId === 'string' ? `plan=${r.planId}` : '',
    typeof r.detail === 'string' ? r.detail : '',
  ]
    .filter(Boolean)
    .join('  ');

/** A signal on one line: when (India time), its id, its strategy, its fate and how many alerts it held. */
const signalLine = (s: SignalRecord): string =>
  [
    istTime(s.receivedAt),
    s.signalId,
    s.strategyId,
    s.state,
    `${s.alerts.length} alert${s.alerts.length === 1 ? '' : 's'}`,
  ]
    .filter(Boolean)
    .join('  ');

/** Its fate underneath: each alert's result, or the reason it was refused. */
const fateLines = (s: SignalRecord): string[] => [
  ...(s.results ?? []).map((r) => `  ${resultLine(r)}`),
  ...(s.reason && !(s.results ?? []).length ? [`  refused: ${s.reason}`] : []),
];

const signalsText = (r: SignalList): string =>
  r.signals.length ? r.signals.flatMap((s) => [signalLine(s), ...fateLines(s)]).join('\n') : 'no signals';

export const signals = command({
  name: 'signals',
  flags: [may('strategy', 'STRATEGY-ID'), may('state', 'acted|refused|received'), ...PAGE_FLAGS],
  summary:
    "the signals received (kept 30 days), newest first, each with what became of it; --strategy one strategy's, --state one state's; paged like list",
  input: (f) => ({
    query: {
      ...pageFlags(f),
      ...(f.str('strategy') ? { strategyId: f.str('strategy') } : {}),
      ...(f.str('state') ? { state: f.str('state') } : {}),
    } as SignalsQuery,
    all: f.values.all === true,
  }),
  run: ({ client, callOptions }, { query, all }) =>
    all ? client.allSignals(query, callOptions) : client.signals(query, callOptions),
  render: (r) => withNextPage(signalsText(r), r),
});

export const signal = command({
  name: 'signal',
  args: ['signalId'],
  flags: [],
  summary: 'one signal: its alerts, its body as recorded (redacted), and what became of it',
  input: (_f, args) => args[0] ?? '',
  run: ({ client, callOptions }, signalId) => client.getSignal(signalId, callOptions),
  render: (s) =>
    [
      signalLine(s),
      ...fateLines(s),
      ...(s.reason && (s.results ?? []).length ? [`  refused: ${s.reason}`] : []),
      `  alerts ${JSON.stringify(s.alerts)}`,
      `  body ${s.preview}`,
    ].join('\n'),
});
