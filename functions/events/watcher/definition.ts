/** The GttWatcher's definition (function.ts beside it, docs/reference/events.md): scheduled; each run also carries the plans out. */
import type { FunctionDefinition } from '../../base/definition/types.js';
import { createGttWatcher } from './function.js';

/** Every minute 09:00-15:59 India time on weekdays: the NSE session (09:15-15:30) with a margin. */
export const DEFAULT_WATCHER_SCHEDULE = 'cron(* 9-15 ? * MON-FRI *)';

export const GTT_WATCHER: FunctionDefinition = {
  name: 'GttWatcher',
  id: 'gtt-watcher',
  summary: 'GttWatcher: publishes GTT changes seen at the broker (pending list, triggered history) and runs the plans',
  routes: [],
  trigger: {
    kind: 'schedule',
    cron: DEFAULT_WATCHER_SCHEDULE,
    description: 'GttWatcher, publishes what changed at the broker',
    setting: 'watcherSchedule',
    // A missed minute is covered by the next run: no retries that would pile up behind it.
    retry: 'none',
  },
  direct: { example: {} },
  // The watcher carries the plans out: the order path's environment and grants, as the Plans function has.
  env: {
    keys: [
      'brokerBaseUrl',
      'brokerSecretId',
      'brokerAuth',
      'eventBusName',
      'eventsTableName',
      'idempotencyTableName',
      'controlTableName',
      'instrumentsTableName',
      'orderRatePerSecond',
      'orderRatePerMinute',
    ],
    deploymentSettings: true,
  },
  grants: [
    'sessionSecret:read',
    'bus:publish',
    'eventsTable:watcher',
    'idempotencyTable',
    'controlTable:governor',
    'instrumentsTable:copy',
    'eventsTable:plans',
    // The day's limits (functions/risk/): their items, and the kill switch turned when one is crossed.
    'eventsTable:risk',
    'controlTable:switch',
    'eventsTable:coverageRead',
  ],
  notes: {
    home: 'events',
    description: 'gtt-gateway: GttWatcher, publishes GTT changes seen at the broker (pending list, triggered history)',
    roleDescription:
      "gtt-gateway GttWatcher: its log group, read the session secret, publish on the gateway bus, the events table, the instruments' copy (the plans' orders), the day's limits and the kill switch they turn",
  },
  alarms: {
    errors: {
      description:
        'GttWatcher: failed runs (broker unreachable, events refused); its state stays and the next run retries',
      threshold: 3,
    },
  },
  bundle: { memory: 'standard', handler: { kind: 'factory', from: '../events/watcher/function.js' } },
  create: createGttWatcher,
  deployedWhen: 'watcher',
};
