/**
 * The Risk function (definition.ts): `PUT /risk` sets the account's day limits (Idempotency-Key optional: the same
 * key and body again answers the same, another body 422), `GET /risk` reads them with today's state; direct
 * invocation with `{action: "set", risk: {...}}` or `{action: "get"}`. Nothing here reaches the broker: the watcher
 * checks the limits (check.ts). Bad input is refused before anything is written.
 */
import { createHash } from 'node:crypto';

import type { Logger } from '@aws-lambda-powertools/logger';
import * as z from 'zod';

import { IdempotencyKeyReusedError } from '../base/contract/errors.js';
import { validateInput } from '../base/contract/validate-input.js';
import { createRoutedFunction, type RoutedReply } from '../base/middleware/routed-function.js';
import type { RoutedRequest } from '../base/middleware/routed-request.js';
import { parseConfig } from '../base/runtime/config.js';
import { envSchema } from '../base/runtime/env.js';
import { logger as defaultLogger } from '../base/runtime/logger.js';
import { indiaDay } from '../base/schemas/india-time.js';
import { riskInput, type RiskResult, type RiskSettings } from '../base/schemas/risk.js';
import { memo } from '../base/schemas/values.js';
import { canonicalInput } from '../orders/safety/idempotency-input.js';
import { RISK_ROUTES } from './routes.js';
import { RiskStore } from './store.js';

export const riskEnv = envSchema(['dynamodbEndpoint', 'eventsTableName'], {
  overrides: { eventsTableName: z.string().min(3, { error: 'must name the events table' }).max(255) },
});

export interface RiskOptions {
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /** Tests: the clock (which India day GET /risk reads). */
  now?: () => number;
}

export const createRiskFunction = (options: RiskOptions = {}) => {
  const logger = options.logger ?? defaultLogger;
  const now = options.now ?? Date.now;
  const config = memo(() => parseConfig(riskEnv, options.env, 'risk'));
  const store = memo(() => new RiskStore({ tableName: config().eventsTableName, endpoint: config().dynamodbEndpoint }));

  const read = async (): Promise<RiskResult> => {
    const [settings, day] = await Promise.all([store().settings(), store().day(indiaDay(now()))]);
    return { ...(settings ? { settings } : {}), today: day.today };
  };

  const set = async (request: RoutedRequest): Promise<RoutedReply> => {
    // The whole input is checked before anything is written.
    const input = validateInput(riskInput, request.body ?? {});
    const settings: RiskSettings = {
      ...(input.dayLossLimit === undefined ? {} : { dayLossLimit: input.dayLossLimit }),
      ...(input.dayProfitTarget === undefined ? {} : { dayProfitTarget: input.dayProfitTarget }),
      mode: input.mode ?? 'keep-exits',
      squareOff: input.squareOff ?? false,
      updatedAt: new Date(now()).toISOString(),
      updatedBy: request.caller,
    };
    const today = (await store().day(indiaDay(now()))).today;
    const answer: RiskResult = { settings, today };
    const key = request.idempotencyKey;
    if (!key) {
      await store().putSettings(settings, undefined, now());
      logger.info('risk limits set', { ...settings });
      return { body: answer };
    }
    const hash = createHash('sha256')
      .update(canonicalInput(request.body ?? {}))
      .digest('hex');
    const keyed = { key, hash, answer: { ...answer, idempotency: { key, replayed: false } } };
    const put = await store().putSettings(settings, keyed, now());
    if (put.kind === 'written') {
      logger.info('risk limits set', { ...settings, idempotencyKey: key });
      return { body: keyed.answer };
    }
    if (put.hash !== hash)
      throw new IdempotencyKeyReusedError(
        `Idempotency-Key "${key}" already set other limits; use a new key for new limits (nothing was changed).`,
        { outcome: 'not_executed' },
      );
    return { body: { ...put.answer, idempotency: { key, replayed: true } } };
  };

  return createRoutedFunction(
    RISK_ROUTES,
    async (request) => (request.route.action === 'set' ? set(request) : { body: await read() }),
    { logger },
  );
};
