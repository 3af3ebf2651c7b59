/** The account's history and its brake: the lifecycle events since a time, and the kill switch. */
import { EXIT_CODES } from '../../exit-codes.js';
import type { EventsQuery, KillSwitchState } from '../../types.js';
import { command, may } from '../command.js';
import { sinceOf, withNextPage } from '../render.js';
import { eventsTable } from './event-lines.js';
import { PAGE_FLAGS, pageFlags } from './page-flags.js';

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
  flags: [may('since', 'HH:MM|DATE|ISO-TIME'), may('type', "'GTT Triggered'"), ...PAGE_FLAGS],
  summary:
    "the account's lifecycle events (kept 30 days) since --since (default: today; 10:50 is today at 10:50 India " +
    'time, a date its start), oldest first, one line each in India time (+05:30); paged like list',
  input: (f) => ({
    query: {
      ...pageFlags(f),
      ...(f.str('since') ? { since: sinceOf(f.str('since')!) } : {}),
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
