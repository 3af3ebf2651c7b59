/** The account's history and its brake: the lifecycle events since a time, and the kill switch. */
import { EXIT_CODES } from '../../exit-codes.js';
import type { EventsQuery, KillSwitchState } from '../../types.js';
import { command, may } from '../command.js';
import { istTime, sinceOf, withNextPage } from '../render.js';
import { closest, editDistance } from '../suggest.js';
import { eventsTable } from './event-lines.js';
import { PAGE_FLAGS, pageFlags } from './page-flags.js';

const killSwitchText = (r: KillSwitchState): string =>
  [
    `kill switch ${r.halted ? `ON${r.mode ? ` (${r.mode})` : ''}: places and modifies are refused` : 'off: trading'}${r.changedAt ? ` (since ${istTime(r.changedAt)}${r.changedBy ? `, by ${r.changedBy}` : ''})` : ''}`,
    ...(r.sweep
      ? [
          `swept       ${istTime(r.sweep.startedAt)} to ${istTime(r.sweep.finishedAt)}`,
          `cancelled   ${r.sweep.cancelled.length ? r.sweep.cancelled.join(', ') : 'none pending'}`,
          ...(r.sweep.kept
            ? [
                `kept        ${r.sweep.kept.length ? `${r.sweep.kept.join(', ')} (exits: OCOs, plan exits and stops)` : 'no exits pending'}`,
              ]
            : []),
          ...(r.sweep.failed.length
            ? [`NOT cancelled (cancel by hand): ${r.sweep.failed.map((f) => `${f.al_id} ${f.code}`).join(', ')}`]
            : []),
          ...incomplete(r.sweep),
        ]
      : []),
  ].join('\n');

/**
 * Why a sweep is not complete, and what to do (the CLI exits 4 then): a write sent before the switch may still land
 * until `inFlightUntil` (the invocation could not wait for it), and what could not be cancelled is listed above.
 */
const incomplete = (sweep: NonNullable<KillSwitchState['sweep']>): string[] => {
  if (sweep.complete) return [];
  const lines = ['NOT complete: the switch is on, but the sweep could not make sure nothing is left pending.'];
  if (sweep.inFlightUntil)
    lines.push(
      `in flight   an order sent before the switch may still land until ${istTime(sweep.inFlightUntil)}: run ` +
        '`kill-switch on` again after then to cancel what landed (docs/explanation/compliance.md, the kill switch)',
    );
  if (sweep.failed.length)
    lines.push('            cancel the orders above by hand (`cancel <al_id>`), then check `list`');
  return lines;
};

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

/**
 * The action a mistyped one was meant as: every action as close as the closest (`of` is one edit from on and from
 * off, and the switch must not guess between them), or the one it begins (`stat`).
 */
const meantAction = (typed: string): string | undefined => {
  const distances = KILL_SWITCH_ACTIONS.map((a) => [a, editDistance(typed.toLowerCase(), a)] as const);
  const least = Math.min(...distances.map(([, d]) => d));
  if (least <= Math.max(1, Math.floor(typed.length / 3)))
    return distances
      .filter(([, d]) => d === least)
      .map(([a]) => a)
      .join(' or ');
  return closest(typed, KILL_SWITCH_ACTIONS);
};

const KILL_SWITCH_MODES = ['cancel-all', 'keep-exits'] as const;
type KillSwitchMode = (typeof KILL_SWITCH_MODES)[number];

export const killSwitch = command({
  name: 'kill-switch',
  args: ['on|off|status'],
  flags: [may('mode', 'keep-exits')],
  summary:
    'on: refuse places and modifies (423 TRADING_HALTED) and cancel every pending GTT and OCO (--mode cancel-all, ' +
    'the default) or only the entries (--mode keep-exits: OCOs and plan exits stay); exit 4, saying why and what ' +
    'to do, if any is left or an order sent before it may still land; ' +
    'off: accept them again; status: which it is',
  input: (f, args) => {
    const action = args[0] ?? '';
    if (!(KILL_SWITCH_ACTIONS as readonly string[]).includes(action)) {
      const meant = action === '' ? undefined : meantAction(action);
      f.standalone(
        `kill-switch takes on, off or status, got ${JSON.stringify(action)}${meant === undefined ? '' : ` (did you mean ${meant}?)`}`,
      );
    }
    const mode = f.str('mode');
    if (mode !== undefined && action !== 'on') f.problem('--mode applies to kill-switch on only');
    if (mode !== undefined && !(KILL_SWITCH_MODES as readonly string[]).includes(mode)) {
      const meant = closest(mode, KILL_SWITCH_MODES);
      f.problem(
        `--mode must be cancel-all or keep-exits, got ${JSON.stringify(mode)}${meant === undefined ? '' : ` (did you mean ${meant}?)`}`,
      );
    }
    return { action: action as KillSwitchAction, mode: mode as KillSwitchMode | undefined };
  },
  run: ({ client, callOptions }, { action, mode }) => client.killSwitch(action, callOptions, mode),
  render: killSwitchText,
  exitCode: (r) => (r.sweep && !r.sweep.complete ? EXIT_CODES.REJECTED : EXIT_CODES.OK),
});
