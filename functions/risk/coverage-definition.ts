/** The Coverage function's definition (coverage-function.ts, docs/explanation/coverage.md); its routes are coverage-routes.ts. */
import type { FunctionDefinition } from '../base/definition/types.js';
import { createCoverageFunction } from './coverage-function.js';
import { COVERAGE_ROUTES } from './coverage-routes.js';

/** Every open position matched with its resting exits; the settings the watcher's coverage step reads. */
export const COVERAGE: FunctionDefinition = {
  ...COVERAGE_ROUTES,
  id: 'coverage',
  summary: 'Coverage: every open position matched with the stops, OCOs and plan exits that cover it; its settings',
  // The gateway's configuration names the idempotency table whenever keys are required (its reads take none).
  env: {
    keys: ['brokerBaseUrl', 'brokerSecretId', 'idempotencyTableName', 'eventsTableName'],
    deploymentSettings: true,
  },
  grants: ['sessionSecret:read', 'eventsTable:coverage', 'eventsTable:planList'],
  notes: {
    home: 'stack',
    roleDescription:
      'gtt-gateway Coverage: its log group, its secret (the positions and the pending list read at the broker), the coverage settings and a Query of the plans in the events table',
  },
  alarms: {
    errors: { description: 'Coverage: function errors (the broker or the settings could not be read)', threshold: 1 },
  },
  bundle: { memory: 'standard', handler: { kind: 'factory', from: '../risk/coverage-function.js' } },
  create: createCoverageFunction,
};
