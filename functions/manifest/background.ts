/**
 * The manifest's background functions: the scheduled GttWatcher (which also carries the plans out), the
 * EventForwarder on the outbox's stream and the webhook's NotifyFormatter. No routes: a schedule, a stream, a rule.
 */
import { factoryWithLogger } from './routes.js';
import type { FunctionEntry } from './types.js';

/** Every minute 09:00-15:59 India time on weekdays: the NSE session (09:15-15:30) with a margin. */
export const DEFAULT_WATCHER_SCHEDULE = 'cron(* 9-15 ? * MON-FRI *)';

export const GTT_WATCHER: FunctionEntry = {
  name: 'GttWatcher',
  id: 'gtt-watcher',
  summary: 'GttWatcher: publishes GTT changes seen at the broker (pending list, triggered history) and runs the plans',
  routes: [],
  trigger: {
    kind: 'schedule',
    cron: DEFAULT_WATCHER_SCHEDULE,
    description: 'GttWatcher, publishes what changed at the broker',
    setting: 'watcherSchedule',
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
    'eventsTable:plans',
  ],
  bundle: {
    memory: 'standard',
    handler: factoryWithLogger('../watcher/function.js', 'createGttWatcher'),
  },
  deployedWhen: 'watcher',
};

export const EVENT_FORWARDER: FunctionEntry = {
  name: 'EventForwarder',
  id: 'event-forwarder',
  summary: "EventForwarder: publishes the order functions' lifecycle events from the outbox",
  routes: [],
  trigger: { kind: 'stream', table: 'idempotency' },
  direct: { example: { Records: [] } },
  env: { keys: ['eventBusName', 'eventsTableName'], deploymentSettings: false },
  grants: ['bus:publish', 'eventsTable:forwarder'],
  bundle: {
    memory: 'background',
    handler: factoryWithLogger('../outbox/function.js', 'createEventForwarder'),
  },
};

export const NOTIFY_FORMATTER: FunctionEntry = {
  name: 'NotifyFormatter',
  id: 'notify-formatter',
  summary: "NotifyFormatter: makes the webhook's Slack or Telegram message of a lifecycle event",
  routes: [],
  trigger: { kind: 'rule', description: 'the webhook rule, when the webhook has a Slack or Telegram format' },
  env: { keys: ['eventBusName', 'notifyFormat', 'notifyTelegramChatId'], deploymentSettings: false },
  // PutEvents of its own source only (infra/constructs/webhook.ts).
  grants: ['bus:publish'],
  bundle: {
    memory: 'background',
    handler: { kind: 'factory', from: '../events/notify-formatter.js', create: 'createNotifyFormatter' },
  },
  deployedWhen: 'notifyFormat',
};

export const BACKGROUND_FUNCTIONS: readonly FunctionEntry[] = [GTT_WATCHER, EVENT_FORWARDER, NOTIFY_FORMATTER];
