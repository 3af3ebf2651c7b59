/** The kill switch (functions/controls/kill-switch.ts, docs/compliance.md). */
import { killSwitchResult } from '../schemas/controls.js';
import { ORDER_ACTOR_ENV, ownRoute as route } from './routes.js';
import type { FunctionEntry } from './types.js';

/** The kill switch's own routes: a sweep takes a while, and nobody needs to turn it twice a second. */
export const KILL_SWITCH_ROUTE_THROTTLE = { rateLimit: 1, burstLimit: 2 } as const;
/** Long enough to sweep a few hundred orders at 8 a second (an HTTP caller's answer ends at API Gateway's 30 s). */
export const KILL_SWITCH_TIMEOUT_SECONDS = 90;

export const KILL_SWITCH: FunctionEntry = {
  name: 'KillSwitch',
  id: 'kill-switch',
  summary: 'Kill switch: cancel every pending GTT and OCO, then refuse places and modifies until it is turned off',
  routes: [
    route({
      method: 'POST',
      path: '/kill-switch',
      operationId: 'ActivateKillSwitch',
      action: 'on',
      // Turning it on again sweeps again: nothing is cancelled twice.
      kind: 'order',
      retrySafe: true,
      summary:
        'Turn the kill switch on: from now places and modifies answer 423 TRADING_HALTED; every pending GTT and OCO is cancelled (each through the order-rate governor). Reads and cancels still work.',
      result: killSwitchResult,
      example: {},
      throttle: KILL_SWITCH_ROUTE_THROTTLE,
    }),
    route({
      method: 'DELETE',
      path: '/kill-switch',
      operationId: 'ReleaseKillSwitch',
      action: 'off',
      kind: 'control',
      retrySafe: true,
      summary: 'Turn the kill switch off: places and modifies are accepted again (nothing cancelled comes back)',
      result: killSwitchResult,
      example: {},
      throttle: KILL_SWITCH_ROUTE_THROTTLE,
    }),
    route({
      method: 'GET',
      path: '/kill-switch',
      operationId: 'GetKillSwitch',
      action: 'status',
      summary: 'Whether the kill switch is on, since when and by whom',
      result: killSwitchResult,
      kind: 'read',
      retrySafe: true,
      example: {},
    }),
  ],
  direct: { example: { action: 'status' }, fields: ['action'] },
  env: { keys: [...ORDER_ACTOR_ENV, 'eventBusName'], deploymentSettings: true },
  grants: ['sessionSecret:read', 'controlTable:switch', 'idempotencyTable:outbox', 'bus:publish'],
  bundle: {
    memory: 'order',
    timeoutSeconds: KILL_SWITCH_TIMEOUT_SECONDS,
    handler: { kind: 'factory', from: '../controls/kill-switch.js', create: 'createKillSwitch' },
  },
};
