/** The EventForwarder's definition (function.ts beside it): on the idempotency table's stream, the outbox's events to the bus. */
import type { FunctionDefinition } from '../../base/definition/types.js';
import { createEventForwarder } from './function.js';

export const EVENT_FORWARDER: FunctionDefinition = {
  name: 'EventForwarder',
  id: 'event-forwarder',
  summary: "EventForwarder: publishes the order functions' lifecycle events from the outbox",
  routes: [],
  trigger: { kind: 'stream', table: 'idempotency' },
  direct: { example: { Records: [] } },
  env: { keys: ['eventBusName', 'eventsTableName'], deploymentSettings: false },
  grants: ['bus:publish', 'eventsTable:forwarder'],
  notes: {
    home: 'events',
    description: "gtt-gateway: EventForwarder, publishes the order functions' lifecycle events from the outbox",
    roleDescription:
      "gtt-gateway EventForwarder: its log group, the idempotency table's stream, publish on the gateway bus, the events table",
  },
  alarms: {
    errors: {
      description:
        'EventForwarder: failed batches (EventBridge or the events table unreachable); the records are delivered again',
      threshold: 3,
    },
  },
  bundle: { memory: 'background', handler: { kind: 'factory', from: '../events/forwarder/function.js' } },
  create: createEventForwarder,
};
