/**
 * The definitions of the events history (events-history.ts, reading core/history.ts) and of the
 * webhook's NotifyFormatter (notify-formatter.ts). The watcher's and the forwarder's are in their own folders.
 */
import type { FunctionDefinition } from '../base/definition/types.js';
import { createEventsHistory } from './events-history.js';
import { EVENTS_HISTORY_ROUTES } from './events-history-routes.js';
import { NOTIFICATION_SOURCE } from './notification.js';
import { createNotifyFormatter } from './notify-formatter.js';

/** The account's recent lifecycle events from the events table (functions/events/core/history.ts). */
export const EVENTS_HISTORY: FunctionDefinition = {
  ...EVENTS_HISTORY_ROUTES,
  id: 'events-history',
  summary: "Events history: the account's lifecycle events of the last 30 days, oldest first, paged",
  // It never calls the broker: no secret, no broker settings.
  env: { keys: ['eventsTableName'], deploymentSettings: false },
  grants: ['eventsTable:history'],
  notes: {
    home: 'stack',
    roleDescription: 'gtt-gateway EventsHistory: its log group, Query the events table (read only)',
  },
  alarms: {
    errors: { description: 'EventsHistory: function errors (the events table could not be read)', threshold: 3 },
  },
  bundle: { memory: 'standard', handler: { kind: 'factory', from: '../events/events-history.js' } },
  create: createEventsHistory,
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
