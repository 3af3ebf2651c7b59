/**
 * The Plans function (functions/plans/definition.ts): `POST /plans` (Idempotency-Key required), `GET /plans`,
 * `GET /plans/{planId}`, `DELETE /plans/{planId}`; direct invocation with `{action: "create", idempotencyKey, plan}`,
 * `{action: "list", limit?, cursor?}`, `{action: "get" | "cancel", planId}`. The request rules are the shell's
 * (base/middleware/routed-function.ts); bad input is VALIDATION_FAILED naming each field, and nothing is sent to the broker.
 */
import type { Logger } from '@aws-lambda-powertools/logger';

import { validateInput, validationFailed } from '../base/contract/validate-input.js';
import { createRoutedFunction, type RoutedReply } from '../base/middleware/routed-function.js';
import type { RoutedRequest } from '../base/middleware/routed-request.js';
import { deployedEnv, type GatewaySettings } from '../base/runtime/config.js';
import { logger as defaultLogger } from '../base/runtime/logger.js';
import { planInput, planListInput } from '../base/schemas/plans.js';
import { memo } from '../base/schemas/values.js';
import type { PlanEngine } from './engine.js';
import { createPlanEngine } from './engine-wiring.js';
import { PLANS_ROUTES } from './routes.js';
import { PLAN_ID } from './stamps.js';

export interface PlansOptions {
  env?: Record<string, string | undefined>;
  /** Settings by name (the local runner's, as the gateway's handlers take them). */
  settings?: GatewaySettings;
  logger?: Logger;
}

/** One route of PLANS_ROUTES_ROUTES, given a request that passed the request rules (base/middleware/routed-request.ts). */
const run = async (engine: PlanEngine, request: RoutedRequest, deadline: number): Promise<RoutedReply> => {
  switch (request.route.action) {
    case 'list': {
      const page = validateInput(planListInput, request.fields);
      return { body: await engine.list(page.limit, page.cursor) };
    }
    case 'create': {
      // The shell made sure the key is there and well formed (the same rules as every route that takes one).
      const input = validateInput(planInput, request.body);
      if (request.dryRun) return { status: 200, body: await engine.dryRun(input, deadline) };
      const key = request.idempotencyKey!;
      const { plan, replayed } = await engine.create(input, key, deadline);
      return { status: replayed ? 200 : 201, body: { ...plan, idempotency: { key, replayed } } };
    }
    default: {
      const planId = request.fields.planId;
      if (typeof planId !== 'string' || !PLAN_ID.test(planId))
        throw validationFailed([{ field: 'planId', message: 'must be a plan id (pl and 16 hex digits)' }]);
      const plan = request.route.action === 'get' ? await engine.get(planId) : await engine.cancel(planId, deadline);
      return { body: plan };
    }
  }
};

export const createPlansFunction = (options: PlansOptions = {}) => {
  const logger = options.logger ?? defaultLogger;
  const engine = memo(() =>
    createPlanEngine(options.settings ?? ((options.env ?? deployedEnv()) as Record<string, string>), logger),
  );
  return createRoutedFunction(
    PLANS_ROUTES,
    (request, context) => run(engine(), request, Date.now() + context.getRemainingTimeInMillis()),
    { logger },
  );
};
