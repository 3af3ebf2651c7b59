/** The kill switch's routes and direct payload (docs/explanation/compliance.md): what kill-switch.ts reads. */
import { ownRoute as route } from '../base/definition/routes.js';
import type { FunctionSurface } from '../base/definition/types.js';
import { killSwitchInput, killSwitchResult } from '../base/schemas/controls.js';

/** The kill switch's own routes: a sweep takes a while, and nobody needs to turn it twice a second. */
export const KILL_SWITCH_ROUTE_THROTTLE = { rateLimit: 1, burstLimit: 2 } as const;
export const KILL_SWITCH_ROUTES: FunctionSurface = {
  name: 'KillSwitch',
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
        'Turn the kill switch on: from now places and modifies answer 423 TRADING_HALTED; body {"mode": "cancel-all"} (the default: every pending GTT and OCO is cancelled, each through the order-rate governor) or {"mode": "keep-exits"} (the entries are cancelled, the OCOs and the exits and stops of plans stay at the broker). Reads and cancels still work. The answer says when the sweep ran.',
      result: killSwitchResult,
      body: true,
      bodySchema: killSwitchInput,
      example: { body: { mode: 'keep-exits' } },
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
  direct: { example: { action: 'status' }, fields: ['action', 'body'] },
};
