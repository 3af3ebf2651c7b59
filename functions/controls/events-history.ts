/**
 * `GET /events` (and direct invocation with the same fields): the account's recent lifecycle events from the events
 * table (functions/events/history.ts). Read-only: no broker call, no session read. Bad input is a VALIDATION_FAILED
 * naming each field; an unreadable table is INTERNAL_ERROR.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as z from 'zod';

import { toGatewayError } from '../contract/errors.js';
import { isHttpApiEvent } from '../contract/gateway-request.js';
import { validateInput, validationFailed } from '../contract/validate-input.js';
import { EventHistory } from '../events/history.js';
import { directInvocationError, httpErrorResponse } from '../middleware/error-contract.js';
import { functionShell } from '../middleware/function-shell.js';
import { parseConfig } from '../runtime/config.js';
import { envSchema } from '../runtime/env.js';
import { logger as defaultLogger, writeLog } from '../runtime/logger.js';
import { eventsHistoryInput, type EventsHistoryResult } from '../schemas/events-history.js';
import { memo } from '../schemas/values.js';

/** The events history's configuration schema (runtime/env.ts): the events table is required. */
export const eventsHistoryEnv = envSchema(['dynamodbEndpoint', 'eventsTableName'], {
  overrides: { eventsTableName: z.string().min(3, { error: 'must name the events table' }).max(255) },
});

export interface EventsHistoryOptions {
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /** Tests: the clock that decides "today". */
  now?: () => Date;
}

/** The query parameters of an HTTP call, or the fields of a direct invocation. */
const inputOf = (event: unknown): unknown =>
  isHttpApiEvent(event) ? (event.queryStringParameters ?? {}) : (event ?? {});

export const createEventsHistory = (options: EventsHistoryOptions = {}) => {
  const logger = options.logger ?? defaultLogger;
  const history = memo(() => {
    const config = parseConfig(eventsHistoryEnv, options.env ?? process.env, 'events history');
    return new EventHistory({ tableName: config.eventsTableName, endpoint: config.dynamodbEndpoint });
  });
  const read = async (event: unknown): Promise<EventsHistoryResult> => {
    const input = validateInput(eventsHistoryInput, inputOf(event));
    const page = await history().read(input, options.now?.() ?? new Date());
    if (!page) {
      throw validationFailed(
        [{ field: 'cursor', message: 'cursor must be a nextCursor from an earlier page read with the same since' }],
        'Invalid request',
      );
    }
    return page;
  };
  return functionShell<unknown, APIGatewayProxyStructuredResultV2 | EventsHistoryResult>({ logger }).handler(
    async (event: unknown, _context: Context) => {
      const http = isHttpApiEvent(event);
      try {
        const result = await read(event);
        return http
          ? { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(result) }
          : result;
      } catch (error) {
        const failure = toGatewayError(error);
        writeLog(logger, failure.status >= 500 ? 'error' : 'warn', 'events history failed', {
          code: failure.code,
          message: failure.message,
        });
        if (http) return httpErrorResponse(failure);
        throw directInvocationError(failure);
      }
    },
  );
};
