/** The account's history and its brake: the lifecycle events since a time, and the kill switch. */
import { EXIT_CODES } from '../../exit-codes.js';
import type { EventsPage, EventsQuery, KillSwitchState } from '../../types.js';
import { command, may } from '../command.js';
import { withNextPage } from '../render.js';
import { PAGE_FLAGS, pageFlags } from './page-flags.js';

/** One line per event: when, what, which order, and the fields a trader reads first. */
const eventsTable = (r: EventsPage): string => {
  if (!r.events.length) return `no events since ${r.since}`;
  return r.events
    .map((e) => {
      const d = e.detail as Record<string, unknown>;
      const parts = [
        e.publishedAt,
        e.detailType.padEnd(15),
        d.al_id === undefined ? '' : `al_id=${String(d.al_id)}`,
        d.exch && d.tsym ? `${String(d.exch)}:${String(d.tsym)}` : '',
        d.side === undefined ? '' : String(d.side),
        d.quantity === undefined ? '' : `qty ${String(d.quantity)}`,
        d.trigger === undefined ? '' : `trigger ${String(d.trigger)}`,
        d.tag === undefined ? '' : `tag ${String(d.tag)}`,
        d.origin === undefined ? '' : `(${String(d.origin)})`,
      ];
      return parts.filter(Boolean).join('  ');
    })
    .join('\n');
};

const killSwitchText = (r: KillSwitchState): string =>
  [
    `kill switch ${r.halted ? 'ON: places and modifies are refused' : 'off: trading'}${r.changedAt ? ` (since ${r.changedAt}${r.changedBy ? `, by ${r.changedBy}` : ''})` : ''}`,
    ...(r.sweep
      ? [
          `cancelled   ${r.sweep.cancelled.length ? r.sweep.cancelled.join(', ') : 'none pending'}`,
          ...(r.sweep.failed.length
            ? [`NOT cancelled (cancel by hand): ${r.sweep.failed.map((f) => `${f.al_id} ${f.code}`).join(', ')}`]
            : []),
        ]
      : []),
  ].join('\n');

const KILL_SWITCH_ACTIONS = ['on', 'off', 'status'] as const;
type KillSwitchAction = (typeof KILL_SWITCH_ACTIONS)[number];

export const events = command({
  name: 'events',
  flags: [may('since', 'ISO-TIME'), may('type', "'GTT Triggered'"), ...PAGE_FLAGS],
  summary:
    "the account's lifecycle events (kept 30 days) since --since (default: today, India time), oldest first, " +
    'one line each; paged like list',
  input: (f) => ({
    query: {
      ...pageFlags(f),
      ...(f.str('since') ? { since: f.str('since') } : {}),
      ...(f.str('type') ? { type: f.str('type') } : {}),
    } as EventsQuery,
    all: f.values.all === true,
  }),
  run: ({ client, callOptions }, { query, all }) =>
    all ? client.allEvents(query, callOptions) : client.events(query, callOptions),
  render: (r) => withNextPage(eventsTable(r), r),
});

export const killSwitch = command({
  name: 'kill-switch',
  args: ['on|off|status'],
  flags: [],
  summary:
    'on: refuse places and modifies (423 TRADING_HALTED) and cancel every pending GTT and OCO (exit 4 if any is ' +
    'left); off: accept them again; status: which it is',
  input: (f, args) => {
    const action = args[0] ?? '';
    if (!(KILL_SWITCH_ACTIONS as readonly string[]).includes(action))
      f.standalone(`kill-switch takes on, off or status, got ${JSON.stringify(action)}`);
    return action as KillSwitchAction;
  },
  run: ({ client, callOptions }, action) => client.killSwitch(action, callOptions),
  render: killSwitchText,
  exitCode: (r) => (r.sweep && !r.sweep.complete ? EXIT_CODES.REJECTED : EXIT_CODES.OK),
});
