/** The events history's definition (functions/events/events-history.ts, functions/orders/events/history.ts). */
import type { FunctionDefinition } from '../base/definition/types.js';
import { createEventsHistory } from '../events/events-history.js';
import { EVENTS_HISTORY_ROUTES } from '../events/events-history-routes.js';

/** The account's recent lifecycle events from the events table (functions/orders/events/history.ts). */
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
