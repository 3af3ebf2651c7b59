/** The routes of the Risk function (docs/how-to/set-a-day-loss-limit.md): what risk.ts reads. */
import { ownRoute as route } from '../base/definition/routes.js';
import type { FunctionSurface } from '../base/definition/types.js';
import { riskInput, riskResult } from '../base/schemas/risk.js';

export const EXAMPLE_RISK = { dayLossLimit: 5000, dayProfitTarget: 10000, mode: 'keep-exits' } as const;

export const RISK_ROUTES: FunctionSurface = {
  name: 'Risk',
  routes: [
    route({
      method: 'PUT',
      path: '/risk',
      operationId: 'SetRiskLimits',
      action: 'set',
      directBody: 'risk',
      summary:
        'Set the day\'s limits of the account: {"dayLossLimit"? (rupees, positive: stop at minus this), "dayProfitTarget"? (rupees), "mode"?: keep-exits (default) | cancel-all, "squareOff"?: boolean}; {} turns them off. The watcher checks them each run: once crossed, the kill switch goes on, one Risk Limit Hit event is sent, and (squareOff) each open position is closed; the next India day starts clear.',
      result: riskResult,
      body: true,
      bodySchema: riskInput,
      idempotencyKey: 'optional',
      kind: 'control',
      retrySafe: true,
      example: { body: EXAMPLE_RISK },
    }),
    route({
      method: 'GET',
      path: '/risk',
      operationId: 'GetRiskLimits',
      action: 'get',
      summary:
        "The day's limits, today's state (clear, hit with when, which limit and the P&L it saw, or unchecked with why) and the last P&L the watcher's check saw",
      result: riskResult,
      kind: 'read',
      retrySafe: true,
    }),
  ],
  direct: { example: { action: 'get' } },
};
