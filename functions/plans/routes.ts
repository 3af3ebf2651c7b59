/**
 * The Plans function's routes and direct payload (docs/reference/plans.md): what its code reads (function.ts) and its
 * definition (functions/plans/definition.ts) lists.
 */
import { ORDER_ROUTE_THROTTLE, ownRoute as route } from '../base/definition/routes.js';
import type { FunctionSurface } from '../base/definition/types.js';
import { EXAMPLE_ORDER } from '../base/schemas/examples.js';
import { planInput, planList, planListInput, planRecord, planResult } from '../base/schemas/plans.js';

/** A bracket on the table's example order: its exit an OCO of 1600 and 1400 once the entry fills. */
export const EXAMPLE_PLAN = {
  kind: 'bracket',
  entry: EXAMPLE_ORDER,
  target: { trigger: '1600', price: '1600' },
  stopLoss: { trigger: '1400', price: '1400' },
} as const;
export const EXAMPLE_PLAN_ID = 'pl0123456789abcdef';

export const PLANS_ROUTES: FunctionSurface = {
  name: 'Plans',
  routes: [
    route({
      method: 'POST',
      path: '/plans',
      operationId: 'CreatePlan',
      action: 'create',
      directBody: 'plan',
      summary:
        'Create a plan: {"kind": "bracket", "entry": <POST /gtt-orders body>, "target": {trigger, price}, "stopLoss": {trigger, price}}, {"kind": "trailing-stop", "order": <a stop GTT>, "trailBy", "step"?} (its first GTT placed now) or {"kind": "option-entry", "underlying": "NIFTY", "when": {"above"|"below"}, "pick": {expiry, strike, type}, "lots", "exit": {stop, target}} (watching the index; nothing at the broker until it crosses). 201, or 200 with the same plan for a retried key. ?dryRun=true (option-entry): the contract it would pick now, nothing stored or sent.',
      result: planResult,
      body: true,
      bodySchema: planInput,
      idempotencyKey: 'required',
      successStatus: 201,
      kind: 'order',
      retrySafe: true,
      dryRun: true,
      example: { body: EXAMPLE_PLAN },
      throttle: ORDER_ROUTE_THROTTLE,
    }),
    route({
      method: 'GET',
      path: '/plans',
      operationId: 'ListPlans',
      action: 'list',
      summary:
        'The plans of the account (ended ones for 30 days), a page at a time: state, broker al_ids, position, last actions',
      result: planList,
      query: Object.keys(planListInput.shape),
      querySchema: planListInput,
      kind: 'read',
      retrySafe: true,
      example: { query: { limit: '10' } },
    }),
    route({
      method: 'GET',
      path: '/plans/{planId}',
      operationId: 'GetPlan',
      action: 'get',
      summary: 'One plan: its state, broker al_ids and history of actions',
      result: planRecord,
      pathParams: { planId: 'planId' },
      kind: 'read',
      retrySafe: true,
      example: { path: { planId: EXAMPLE_PLAN_ID } },
    }),
    route({
      method: 'DELETE',
      path: '/plans/{planId}',
      operationId: 'CancelPlan',
      action: 'cancel',
      summary: 'Cancel a plan: its live GTT is cancelled at the broker and the plan ends (cancelled)',
      result: planRecord,
      pathParams: { planId: 'planId' },
      kind: 'order',
      retrySafe: true,
      example: { path: { planId: EXAMPLE_PLAN_ID } },
      throttle: ORDER_ROUTE_THROTTLE,
    }),
  ],
  direct: { example: { action: 'list', limit: 10 } },
};
