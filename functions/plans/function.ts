/**
 * The Plans function (functions/control-functions.ts PLANS): `POST /plans` (Idempotency-Key required), `GET /plans`,
 * `GET /plans/{planId}`, `DELETE /plans/{planId}`; direct invocation with `{action: "create", idempotencyKey, plan}`,
 * `{action: "list"}`, `{action: "get" | "cancel", planId}`. Bad input is VALIDATION_FAILED naming each field, and
 * nothing is sent to the broker.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

import { refuseUnread } from '../contract/control-options.js';
import { toGatewayError } from '../contract/errors.js';
import { isHttpApiEvent } from '../contract/gateway-request.js';
import { validateInput, validationFailed } from '../contract/validate-input.js';
import { directInvocationError, httpErrorResponse } from '../middleware/error-contract.js';
import { functionShell } from '../middleware/function-shell.js';
import type { GatewaySettings } from '../runtime/config.js';
import { logger as defaultLogger, writeLog } from '../runtime/logger.js';
import { planInput, planListInput } from '../schemas/plans.js';
import { memo } from '../schemas/values.js';
import type { PlanEngine } from './engine.js';
import { createPlanEngine } from './runtime.js';
import { PLAN_ID } from './stamps.js';

export interface PlansOptions {
  env?: Record<string, string | undefined>;
  /** Settings by name (the local runner's, as the gateway's handlers take them). */
  settings?: GatewaySettings;
  logger?: Logger;
}

type Request =
  | { action: 'create'; key: string | undefined; body: unknown }
  | { action: 'list'; query: Record<string, unknown> }
  | { action: 'get' | 'cancel'; planId: string };

const requestOf = (event: unknown): Request => {
  if (isHttpApiEvent(event)) {
    const e = event as APIGatewayProxyEventV2;
    const method = e.requestContext.http.method;
    const planId = e.pathParameters?.planId;
    const listing = method === 'GET' && planId === undefined;
    refuseUnread(e, `${method} ${planId === undefined ? '/plans' : '/plans/{planId}'}`, {
      query: listing ? ['limit', 'cursor'] : [],
    });
    if (method === 'POST') {
      let body: unknown;
      try {
        body = e.body ? JSON.parse(e.isBase64Encoded ? Buffer.from(e.body, 'base64').toString('utf8') : e.body) : {};
      } catch {
        throw validationFailed([{ field: '(body)', message: 'must be JSON' }]);
      }
      const key = Object.entries(e.headers ?? {}).find(([name]) => name.toLowerCase() === 'idempotency-key')?.[1];
      return { action: 'create', key, body };
    }
    if (planId !== undefined) return { action: method === 'DELETE' ? 'cancel' : 'get', planId };
    return { action: 'list', query: { ...(e.queryStringParameters ?? {}) } };
  }
  const d = (typeof event === 'object' && event !== null ? event : {}) as Record<string, unknown>;
  const fields: Record<string, readonly string[]> = {
    create: ['action', 'idempotencyKey', 'plan'],
    list: ['action', 'limit', 'cursor'],
    get: ['action', 'planId'],
    cancel: ['action', 'planId'],
  };
  if (typeof d.action === 'string' && Object.hasOwn(fields, d.action))
    refuseUnread(d, `a direct ${d.action} of plans`, { fields: fields[d.action] });
  if (d.action === 'create')
    return { action: 'create', key: typeof d.idempotencyKey === 'string' ? d.idempotencyKey : undefined, body: d.plan };
  if (d.action === 'list') {
    const { action: _list, ...query } = d;
    return { action: 'list', query };
  }
  if ((d.action === 'get' || d.action === 'cancel') && typeof d.planId === 'string')
    return { action: d.action, planId: d.planId };
  throw validationFailed([
    {
      field: 'action',
      message: 'must be create (with idempotencyKey and plan), list (with limit, cursor), get or cancel (with planId)',
    },
  ]);
};

const run = async (
  engine: PlanEngine,
  request: Request,
  deadline: number,
): Promise<{ status: number; body: unknown }> => {
  if (request.action === 'list') {
    const page = validateInput(planListInput, request.query);
    return { status: 200, body: await engine.list(page.limit, page.cursor) };
  }
  if (request.action === 'create') {
    if (!request.key || !/^[\x21-\x7e]{1,128}$/.test(request.key))
      throw validationFailed([
        {
          field: 'Idempotency-Key',
          message: 'is required (1-128 printable characters, one per plan, reused on every retry)',
        },
      ]);
    const input = validateInput(planInput, request.body);
    const { plan, replayed } = await engine.create(input, request.key, deadline);
    return { status: replayed ? 200 : 201, body: { ...plan, idempotency: { key: request.key, replayed } } };
  }
  if (!PLAN_ID.test(request.planId))
    throw validationFailed([{ field: 'planId', message: 'must be a plan id (pl and 16 hex digits)' }]);
  const plan =
    request.action === 'get' ? await engine.get(request.planId) : await engine.cancel(request.planId, deadline);
  return { status: 200, body: plan };
};

export const createPlansFunction = (options: PlansOptions = {}) => {
  const logger = options.logger ?? defaultLogger;
  const engine = memo(() =>
    createPlanEngine(options.settings ?? ((options.env ?? process.env) as Record<string, string>), logger),
  );
  return functionShell<unknown, unknown>({ logger }).handler(async (event: unknown, context: Context) => {
    const http = isHttpApiEvent(event);
    const deadline = Date.now() + context.getRemainingTimeInMillis();
    try {
      const { status, body } = await run(engine(), requestOf(event), deadline);
      return http
        ? ({
            statusCode: status,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          } satisfies APIGatewayProxyStructuredResultV2)
        : body;
    } catch (error) {
      const failure = toGatewayError(error);
      writeLog(logger, failure.status >= 500 ? 'error' : 'warn', 'plans call failed', {
        code: failure.code,
        message: failure.message,
      });
      if (http) return httpErrorResponse(failure);
      throw directInvocationError(failure);
    }
  });
};
