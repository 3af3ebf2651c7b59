/** The Plans function's definition (function.ts, docs/reference/plans.md); its routes are routes.ts. */
import { ORDER_ACTOR_ENV } from '../base/definition/routes.js';
import type { FunctionDefinition } from '../base/definition/types.js';
import { createPlansFunction } from './function.js';
import { PLANS_ROUTES } from './routes.js';

/** Bracket, trailing-stop and option-entry plans, held by the gateway and carried out by the watcher (functions/plans/). */
export const PLANS: FunctionDefinition = {
  ...PLANS_ROUTES,
  id: 'plans',
  summary:
    'Plans: bracket (entry, then an OCO exit once filled), trailing stop and option entry (an index crossing a level), carried out by the watcher',
  env: {
    keys: [...ORDER_ACTOR_ENV, 'instrumentsTableName', 'eventBusName', 'eventsTableName'],
    deploymentSettings: true,
  },
  grants: [
    'sessionSecret:read',
    'idempotencyTable',
    'controlTable:governor',
    'instrumentsTable:copy',
    'eventsTable:plans',
    'bus:publish',
  ],
  notes: {
    home: 'stack',
    roleDescription:
      "gtt-gateway Plans: its log group, its secret, the idempotency and control tables (order actions, the plan events outbox), the instruments' copy, the plan records in the events table, publish on the gateway bus",
  },
  alarms: {
    errors: { description: 'Plans: function errors (a plan could not be created, read or cancelled)', threshold: 1 },
  },
  bundle: { memory: 'order', handler: { kind: 'factory', from: '../plans/function.js' } },
  create: createPlansFunction,
};
