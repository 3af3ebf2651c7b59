/**
 * The definitions of the background functions: the scheduled GttWatcher (which also carries the plans out), the
 * EventForwarder on the outbox's stream, the webhook's NotifyFormatter and the scheduled InstrumentRefresh. No
 * routes: a schedule, a stream, a rule.
 */
import type { FunctionDefinition } from '../base/definition/types.js';
import { createEventForwarder } from '../events/forwarder/function.js';
import { NOTIFICATION_SOURCE } from '../events/notification.js';
import { createNotifyFormatter } from '../events/notify-formatter.js';
import { createGttWatcher } from '../events/watcher/function.js';
import { createInstrumentRefresh } from '../instruments/instrument-refresh.js';

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
  ],
  notes: {
    home: 'events',
    description: 'gtt-gateway: GttWatcher, publishes GTT changes seen at the broker (pending list, triggered history)',
    roleDescription:
      "gtt-gateway GttWatcher: its log group, read the session secret, publish on the gateway bus, the events table, the instruments' copy (the plans' orders)",
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

export const EVENT_FORWARDER: FunctionDefinition = {
  name: 'EventForwarder',
  id: 'event-forwarder',
  summary: "EventForwarder: publishes the order functions' lifecycle events from the outbox",
  routes: [],
  trigger: { kind: 'stream', table: 'idempotency' },
  direct: { example: { Records: [] } },
  env: { keys: ['eventBusName', 'eventsTableName'], deploymentSettings: false },
  grants: ['bus:publish', 'eventsTable:forwarder'],
  notes: {
    home: 'events',
    description: "gtt-gateway: EventForwarder, publishes the order functions' lifecycle events from the outbox",
    roleDescription:
      "gtt-gateway EventForwarder: its log group, the idempotency table's stream, publish on the gateway bus, the events table",
  },
  alarms: {
    errors: {
      description:
        'EventForwarder: failed batches (EventBridge or the events table unreachable); the records are delivered again',
      threshold: 3,
    },
  },
  bundle: { memory: 'background', handler: { kind: 'factory', from: '../events/forwarder/function.js' } },
  create: createEventForwarder,
};

export const NOTIFY_FORMATTER: FunctionDefinition = {
  name: 'NotifyFormatter',
  id: 'notify-formatter',
  summary: "NotifyFormatter: makes the webhook's Slack or Telegram message of a lifecycle event",
  routes: [],
  trigger: { kind: 'rule', description: 'the webhook rule, when the webhook has a Slack or Telegram format' },
  env: { keys: ['eventBusName', 'notifyFormat', 'notifyTelegramChatId'], deploymentSettings: false },
  // PutEvents of its own source only (infra/constructs/webhook.ts).
  grants: ['bus:publish'],
  // Its description names the chat format (infra/constructs/webhook.ts); a failed message goes to the webhook's
  // dead-letter queue, whose alarm fires, so it has no Errors alarm of its own.
  notes: {
    home: 'events',
    roleDescription: `gtt-gateway NotifyFormatter: its log group, put events of source ${NOTIFICATION_SOURCE} (only) on the gateway bus`,
  },
  alarms: {},
  bundle: { memory: 'background', handler: { kind: 'factory', from: '../events/notify-formatter.js' } },
  create: createNotifyFormatter,
  deployedWhen: 'notifyFormat',
};

/** 08:30 India time on weekdays: the day's symbol masters are out, and the pre-open session starts at 09:00. */
export const INSTRUMENT_REFRESH_SCHEDULE = 'cron(30 8 ? * MON-FRI *)';

export const INSTRUMENT_REFRESH: FunctionDefinition = {
  name: 'InstrumentRefresh',
  id: 'instrument-refresh',
  summary:
    "InstrumentRefresh: loads the day's symbol masters and the band and freeze of the symbols in use into the account's copy",
  routes: [],
  trigger: {
    kind: 'schedule',
    cron: INSTRUMENT_REFRESH_SCHEDULE,
    description: "InstrumentRefresh, the day's instrument rules before the market opens",
    retry: 'none',
  },
  direct: { example: {} },
  env: {
    // Where the masters are and which exchanges: the deployment's settings (SYMBOL_MASTER_URL, _EXCHANGES).
    keys: ['brokerBaseUrl', 'brokerSecretId', 'brokerAuth', 'instrumentsTableName', 'eventsTableName'],
    deploymentSettings: true,
  },
  // The live plans' symbols: a Query of the plans (the events history's read-only grant is exactly that).
  grants: ['sessionSecret:read', 'instrumentsTable:refresh', 'eventsTable:history'],
  notes: {
    home: 'stack',
    roleDescription:
      "gtt-gateway InstrumentRefresh: its log group, read the session secret, write the instruments' copy (the masters' rows, the symbols in use), Query the events table (live plans, read only)",
  },
  alarms: {
    errors: {
      description:
        'InstrumentRefresh: failed runs (the copy or the broker unreachable); the order path reads the broker once per symbol that day instead',
      threshold: 1,
    },
  },
  bundle: {
    // A real NFO master is about 10 MB of text and 80,000 rows held at once.
    memory: 'standard',
    timeoutSeconds: 300,
    handler: { kind: 'factory', from: '../instruments/instrument-refresh.js' },
  },
  create: createInstrumentRefresh,
};

export const BACKGROUND_FUNCTIONS: readonly FunctionDefinition[] = [
  GTT_WATCHER,
  EVENT_FORWARDER,
  NOTIFY_FORMATTER,
  INSTRUMENT_REFRESH,
];
