/** The definition of the Risk function (risk.ts, docs/how-to/set-a-day-loss-limit.md); the manifest lists it. */
import type { FunctionDefinition } from '../base/definition/types.js';
import { createRiskFunction } from './risk.js';
import { RISK_ROUTES } from './routes.js';

export const RISK: FunctionDefinition = {
  ...RISK_ROUTES,
  id: 'risk',
  summary: "Risk: the account's day loss limit and profit target, and today's state as the watcher's check saw it",
  env: { keys: ['eventsTableName'], deploymentSettings: false },
  grants: ['eventsTable:risk'],
  notes: {
    home: 'stack',
    roleDescription: "gtt-gateway Risk: its log group, the day's limits and their state in the events table",
  },
  alarms: {
    errors: { description: 'Risk: function errors (the events table could not be read or written)', threshold: 3 },
  },
  bundle: { memory: 'standard', handler: { kind: 'factory', from: '../risk/risk.js' } },
  create: createRiskFunction,
};
