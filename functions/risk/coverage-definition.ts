/** The Coverage function's definition (coverage-function.ts, docs/explanation/coverage.md); its routes are coverage-routes.ts. */
import { ORDER_ACTOR_ENV } from '../base/definition/routes.js';
import type { FunctionDefinition } from '../base/definition/types.js';
import { createCoverageFunction } from './coverage-function.js';
import { COVERAGE_ROUTES } from './coverage-routes.js';

/** Every open position matched with its resting exits; the settings the watcher's coverage step reads. */
export const COVERAGE: FunctionDefinition = {
  ...COVERAGE_ROUTES,
  id: 'coverage',
  summary:
    'Coverage: every open position matched with the stops, OCOs and plan exits that cover it; its settings; a position closed now',
  // POST /positions/close places an exit through the order core in-process: the order path's environment and
  // grants (the journal and the close's plans in the idempotency table, the governor, the instruments' copy).
  env: { keys: [...ORDER_ACTOR_ENV, 'instrumentsTableName', 'eventsTableName'], deploymentSettings: true },
  grants: [
    'sessionSecret:read',
    'idempotencyTable',
    'controlTable:governor',
    'instrumentsTable:copy',
    'eventsTable:coverage',
    'eventsTable:planList',
  ],
  notes: {
    home: 'stack',
    roleDescription:
      "gtt-gateway Coverage: its log group, its secret (the positions and the pending list read at the broker; a position's close placed), the idempotency and control tables (the close's journal and plan, the order-rate governor), the instruments' copy, the coverage settings and a Query of the plans in the events table",
  },
  alarms: {
    errors: { description: 'Coverage: function errors (the broker or the settings could not be read)', threshold: 1 },
  },
  // It writes orders in-process (a position's close): its audit records are kept as the order functions' are.
  audit: true,
  bundle: { memory: 'order', handler: { kind: 'factory', from: '../risk/coverage-function.js' } },
  create: createCoverageFunction,
};
