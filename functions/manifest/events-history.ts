/** The events history (functions/controls/events-history.ts, functions/events/history.ts). */
import { eventsHistoryInput, eventsHistoryResult } from '../schemas/events-history.js';
import { ownRoute as route } from './routes.js';
import type { FunctionEntry } from './types.js';

/** The account's recent lifecycle events from the events table (functions/events/history.ts). */
export const EVENTS_HISTORY: FunctionEntry = {
  name: 'EventsHistory',
  id: 'events-history',
  summary: "Events history: the account's lifecycle events of the last 30 days, oldest first, paged",
  routes: [
    route({
      method: 'GET',
      path: '/events',
      operationId: 'ListEvents',
      summary:
        'The lifecycle events published since a time (default: the start of today, India time), oldest first; ?type= one detail-type; paged with ?limit= and ?cursor= like the order lists. Kept 30 days.',
      result: eventsHistoryResult,
      query: Object.keys(eventsHistoryInput.shape),
      querySchema: eventsHistoryInput,
      kind: 'read',
      retrySafe: true,
      example: { query: { limit: '10' } },
    }),
  ],
  direct: { example: { limit: 10 }, fields: Object.keys(eventsHistoryInput.shape) },
  // It never calls the broker: no secret, no broker settings.
  env: { keys: ['eventsTableName'], deploymentSettings: false },
  grants: ['eventsTable:history'],
  bundle: {
    memory: 'standard',
    handler: { kind: 'factory', from: '../controls/events-history.js', create: 'createEventsHistory' },
  },
};
