/** The definition of the Assistants function (docs/reference/assistants.md, "Assistant tokens"); the manifest lists it. */
import type { FunctionDefinition } from '../base/definition/types.js';
import { createAssistantsFunction } from './assistants.js';
import { ASSISTANTS_ROUTES } from './routes.js';

export const ASSISTANTS: FunctionDefinition = {
  ...ASSISTANTS_ROUTES,
  id: 'assistants',
  summary: "Assistants: an MCP assistant's name, scopes and limits; its bearer token (shown once, stored hashed)",
  env: { keys: ['eventsTableName'], deploymentSettings: false },
  grants: ['eventsTable:assistants'],
  notes: {
    home: 'stack',
    roleDescription: 'gtt-gateway Assistants: its log group, the assistants and their token items in the events table',
  },
  alarms: {
    errors: {
      description: 'Assistants: function errors (the events table could not be read or written)',
      threshold: 3,
    },
  },
  bundle: { memory: 'standard', handler: { kind: 'factory', from: '../assistants/assistants.js' } },
  create: createAssistantsFunction,
};
