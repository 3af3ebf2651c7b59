/** The events history's route and direct payload: what events-history.ts reads. */
import { ownRoute as route } from '../base/definition/routes.js';
import type { FunctionSurface } from '../base/definition/types.js';
import { eventsHistoryInput, eventsHistoryResult } from '../base/schemas/events-history.js';

export const EVENTS_HISTORY_ROUTES: FunctionSurface = {
  name: 'EventsHistory',
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
};
