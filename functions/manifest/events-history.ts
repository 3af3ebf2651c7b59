/** The events history's definition (functions/controls/events-history.ts, functions/events/history.ts). */
import { createEventsHistory } from '../controls/events-history.js';
import { EVENTS_HISTORY_ROUTES } from '../controls/events-history-routes.js';
import type { FunctionDefinition } from '../definition/types.js';

/** The account's recent lifecycle events from the events table (functions/events/history.ts). */
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
  bundle: { memory: 'standard', handler: { kind: 'factory', from: '../controls/events-history.js' } },
  create: createEventsHistory,
};
