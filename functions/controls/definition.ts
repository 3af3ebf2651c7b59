/** The kill switch's definition (kill-switch.ts, docs/explanation/compliance.md). */
import { ORDER_ACTOR_ENV } from '../base/definition/routes.js';
import type { FunctionDefinition } from '../base/definition/types.js';
import { createKillSwitch } from './kill-switch.js';
import { KILL_SWITCH_ROUTES } from './kill-switch-routes.js';

/** Long enough to sweep a few hundred orders at 8 a second (an HTTP caller's answer ends at API Gateway's 30 s). */
export const KILL_SWITCH_TIMEOUT_SECONDS = 90;

export const KILL_SWITCH: FunctionDefinition = {
  ...KILL_SWITCH_ROUTES,
  id: 'kill-switch',
  summary:
    'Kill switch: cancel every pending GTT and OCO (keep-exits: the entries only), then refuse places and modifies until it is turned off',
  env: { keys: [...ORDER_ACTOR_ENV, 'eventBusName'], deploymentSettings: true },
  grants: [
    'sessionSecret:read',
    'controlTable:switch',
    'idempotencyTable:outbox',
    'idempotencyTable:gone',
    'bus:publish',
  ],
  notes: {
    home: 'stack',
    roleDescription:
      'gtt-gateway KillSwitch: its log group, its secret, the control table (turn the switch, governor permits), the outbox items of its cancels in the idempotency table, publish Kill Switch on the gateway bus',
  },
  alarms: {
    errors: {
      description: 'KillSwitch: function errors (the switch could not be turned, or the sweep failed)',
      threshold: 1,
    },
  },
  bundle: {
    memory: 'order',
    timeoutSeconds: KILL_SWITCH_TIMEOUT_SECONDS,
    handler: { kind: 'factory', from: '../controls/kill-switch.js' },
  },
  audit: true,
  create: createKillSwitch,
};
