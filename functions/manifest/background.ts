/**
 * The manifest's background functions: the scheduled GttWatcher (which also carries the plans out), the
 * EventForwarder on the outbox's stream, the webhook's NotifyFormatter and the scheduled InstrumentRefresh. No
 * routes: a schedule, a stream, a rule.
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

/** 08:30 India time on weekdays: the day's symbol masters are out, and the pre-open session starts at 09:00. */
export const INSTRUMENT_REFRESH_SCHEDULE = 'cron(30 8 ? * MON-FRI *)';

export const INSTRUMENT_REFRESH: FunctionEntry = {
  name: 'InstrumentRefresh',
  id: 'instrument-refresh',
  summary:
    "InstrumentRefresh: loads the day's symbol masters and the band and freeze of the symbols in use into the account's copy",
  routes: [],
  trigger: {
    kind: 'schedule',
    cron: INSTRUMENT_REFRESH_SCHEDULE,
    description: "InstrumentRefresh, the day's instrument rules before the market opens",
  },
  direct: { example: {} },
  env: {
    // Where the masters are and which exchanges: the deployment's settings (SYMBOL_MASTER_URL, _EXCHANGES).
    keys: ['brokerBaseUrl', 'brokerSecretId', 'brokerAuth', 'instrumentsTableName', 'eventsTableName'],
    deploymentSettings: true,
  },
  // The live plans' symbols: a Query of the plans (the events history's read-only grant is exactly that).
  grants: ['sessionSecret:read', 'instrumentsTable:refresh', 'eventsTable:history'],
  bundle: {
    // A real NFO master is about 10 MB of text and 80,000 rows held at once.
    memory: 'standard',
    timeoutSeconds: 300,
    handler: factoryWithLogger('../watcher/instrument-refresh.js', 'createInstrumentRefresh'),
  },
};

export const BACKGROUND_FUNCTIONS: readonly FunctionEntry[] = [
  GTT_WATCHER,
  EVENT_FORWARDER,
  NOTIFY_FORMATTER,
  INSTRUMENT_REFRESH,
];
