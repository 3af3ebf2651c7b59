/**
 * The Strategies function (functions/signals/definitions.ts): `POST /strategies` (Idempotency-Key required),
 * `GET /strategies`, `GET /strategies/{strategyId}`, `PATCH /strategies/{strategyId}` (strategy-patch.ts: its token
 * and webhook URL kept), `DELETE /strategies/{strategyId}`, `POST /strategies/{strategyId}/token`, and the signals
 * read back, `GET /signals` and `GET /signals/{signalId}` (signal-list.ts); direct invocation with
 * `{action: "create", idempotencyKey, strategy}`, `{action: "list"}`, `{action: "get" | "delete" | "rotate",
 * strategyId}`, `{action: "update", strategyId, changes}`, `{action: "signals", strategyId?, state?, limit?,
 * cursor?}`, `{action: "signal", signalId}`. Nothing here reaches the broker.
 *
 * The webhook URL's token is 32 random bytes, shown in the reply that sets it and stored only hashed. Its base is
 * `SIGNAL_BASE_URL` when the deployment sets one (a custom domain), otherwise the API's own URL from the request
 * (`https://<requestContext.domainName>`; `http://` for the local API on 127.0.0.1). A direct invocation without
 * that setting has no URL to go by: its reply's `webhookUrl` is the path alone (`/signals/<token>`).
 *
 * The same Idempotency-Key again with the same body answers 200 with the same strategy and a NEW token (the token
 * of the reply that was lost cannot be shown again: it is not stored); with another body, 422.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod';

import { IdempotencyKeyReusedError, SignalNotFoundError, StrategyNotFoundError } from '../base/contract/errors.js';
import { isHttpApiEvent } from '../base/contract/gateway-request.js';
import { validateInput, validationFailed } from '../base/contract/validate-input.js';
import { createRoutedFunction, type RoutedReply } from '../base/middleware/routed-function.js';
import type { RoutedRequest } from '../base/middleware/routed-request.js';
import { parseConfig } from '../base/runtime/config.js';
import { envSchema } from '../base/runtime/env.js';
import { logger as defaultLogger } from '../base/runtime/logger.js';
import { signalListInput, type Strategy, strategyInput } from '../base/schemas/signals.js';
import { memo } from '../base/schemas/values.js';
import { canonicalInput } from '../orders/safety/idempotency-input.js';
import { STRATEGIES_ROUTES } from './routes.js';
import { SignalReader } from './signal-list.js';
import { patchedStrategy } from './strategy-patch.js';
import { type StoredStrategy, StrategyStore } from './strategy-store.js';
import { newToken, sha256Hex, SIGNAL_ID, STRATEGY_ID, strategyIdOf, tokenHash, webhookPath } from './tokens.js';

export const strategiesEnv = envSchema(['dynamodbEndpoint', 'eventsTableName', 'signalBaseUrl'], {
  overrides: { eventsTableName: z.string().min(3, { error: 'must name the events table' }).max(255) },
});

export interface StrategiesOptions {
  env?: Record<string, string | undefined>;
  logger?: Logger;
}

const LOOPBACK = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

/** The base of the webhook URLs: the setting, else the API's own URL from the request. */
const baseOf = (setting: string | undefined, event: unknown): string => {
  if (setting) return setting.replace(/\/+$/, '');
  if (!isHttpApiEvent(event)) return '';
  const domain = (event as APIGatewayProxyEventV2).requestContext.domainName;
  return domain ? `${LOOPBACK.test(domain) ? 'http' : 'https'}://${domain}` : '';
};

const strategyIdField = (request: RoutedRequest): string => {
  const id = request.fields.strategyId;
  if (typeof id !== 'string' || !STRATEGY_ID.test(id))
    throw validationFailed([{ field: 'strategyId', message: 'must be a strategy id (st and 16 hex digits)' }]);
  return id;
};

const signalIdField = (request: RoutedRequest): string => {
  const id = request.fields.signalId;
  if (typeof id !== 'string' || !SIGNAL_ID.test(id))
    throw validationFailed([{ field: 'signalId', message: 'must be a signal id (sg and 24 hex digits)' }]);
  return id;
};

export const createStrategiesFunction = (options: StrategiesOptions = {}) => {
  const logger = options.logger ?? defaultLogger;
  const config = memo(() => parseConfig(strategiesEnv, options.env, 'strategies'));
  const store = memo(
    () => new StrategyStore({ tableName: config().eventsTableName, endpoint: config().dynamodbEndpoint }),
  );
  const signals = memo(
    () => new SignalReader({ tableName: config().eventsTableName, endpoint: config().dynamodbEndpoint }),
  );
  const found = async (strategyId: string): Promise<StoredStrategy> => {
    const stored = await store().get(strategyId);
    if (!stored)
      throw new StrategyNotFoundError(`No strategy ${strategyId} (GET /strategies lists them); nothing was done.`);
    return stored;
  };
  const withUrl = (strategy: Strategy, token: string, event: unknown) => ({
    ...strategy,
    webhookUrl: `${baseOf(config().signalBaseUrl, event)}${webhookPath(token)}`,
  });
  const rotate = async (stored: StoredStrategy, event: unknown) => {
    const token = newToken();
    const next = await store().rotate(stored, tokenHash(token), new Date().toISOString());
    if (!next)
      throw validationFailed(
        [{ field: 'strategyId', message: 'its token was rotated by another request meanwhile: rotate again' }],
        'The token changed meanwhile; nothing was done',
      );
    logger.info('strategy token rotated', { strategyId: stored.strategy.strategyId });
    return withUrl(next.strategy, token, event);
  };

  const create = async (request: RoutedRequest, event: unknown): Promise<RoutedReply> => {
    const key = request.idempotencyKey!;
    const strategyId = strategyIdOf(key);
    const inputHash = sha256Hex(canonicalInput(request.body));
    const existing = await store().get(strategyId);
    if (existing) {
      if (existing.inputHash !== inputHash)
        throw new IdempotencyKeyReusedError(
          `Idempotency-Key "${key}" already created strategy ${strategyId} with another body; use a new key for a new strategy.`,
          { outcome: 'not_executed' },
        );
      return { status: 200, body: { ...(await rotate(existing, event)), idempotency: { key, replayed: true } } };
    }
    const input = validateInput(strategyInput, request.body);
    const now = new Date().toISOString();
    const strategy: Strategy = { ...input, strategyId, createdAt: now, tokenSetAt: now };
    const token = newToken();
    if (!(await store().create({ strategy, tokenHash: tokenHash(token), inputHash }))) {
      // A concurrent create with the same key won: answer as its retry would.
      return create(request, event);
    }
    logger.info('strategy created', { strategyId, source: strategy.source, kind: strategy.action.kind });
    return { body: { ...withUrl(strategy, token, event), idempotency: { key, replayed: false } } };
  };

  const update = async (request: RoutedRequest): Promise<RoutedReply> => {
    const stored = await found(strategyIdField(request));
    const next = patchedStrategy(stored.strategy, request.body, new Date().toISOString());
    if (!(await store().update(stored, next)))
      throw validationFailed(
        [
          {
            field: 'strategyId',
            message: 'it was changed, rotated or deleted by another request meanwhile: read it and try again',
          },
        ],
        'The strategy changed meanwhile; nothing was changed',
      );
    logger.info('strategy changed', {
      strategyId: next.strategyId,
      fields: Object.keys(request.body as Record<string, unknown>),
    });
    return { body: next };
  };

  const run = async (request: RoutedRequest, event: unknown): Promise<RoutedReply> => {
    switch (request.route.action) {
      case 'update':
        return update(request);
      case 'signals': {
        return { body: await signals().list(validateInput(signalListInput, request.fields)) };
      }
      case 'signal': {
        const signalId = signalIdField(request);
        const signal = await signals().get(signalId);
        if (!signal)
          throw new SignalNotFoundError(`No signal ${signalId} (GET /signals lists them; they are kept 30 days).`);
        return { body: signal };
      }
      case 'create':
        return create(request, event);
      case 'list':
        return { body: { strategies: await store().list() } };
      case 'get':
        return { body: (await found(strategyIdField(request))).strategy };
      case 'rotate':
        return { body: await rotate(await found(strategyIdField(request)), event) };
      default: {
        const stored = await found(strategyIdField(request));
        await store().remove(stored);
        logger.info('strategy deleted', { strategyId: stored.strategy.strategyId });
        return { body: { strategyId: stored.strategy.strategyId, deleted: true } };
      }
    }
  };
  return createRoutedFunction(STRATEGIES_ROUTES, (request, _context, event) => run(request, event), { logger });
};
