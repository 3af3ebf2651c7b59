/**
 * `GET /events` (and direct invocation with the same fields): the account's recent lifecycle events from the events
 * table (functions/events/core/history.ts). Read-only: no broker call, no session read. Bad input is a VALIDATION_FAILED
 * naming each field; an unreadable table is INTERNAL_ERROR.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import * as z from 'zod';

import { validateInput, validationFailed } from '../base/contract/validate-input.js';
import { createRoutedFunction } from '../base/middleware/routed-function.js';
import type { RoutedRequest } from '../base/middleware/routed-request.js';
import { parseConfig } from '../base/runtime/config.js';
import { envSchema } from '../base/runtime/env.js';
import { logger as defaultLogger } from '../base/runtime/logger.js';
import { eventsHistoryInput, type EventsHistoryResult } from '../base/schemas/events-history.js';
import { memo } from '../base/schemas/values.js';
import { EventHistory } from './core/history.js';
import { EVENTS_HISTORY_ROUTES } from './events-history-routes.js';

/** The events history's configuration schema (base/runtime/env.ts): the events table is required. */
export const eventsHistoryEnv = envSchema(['dynamodbEndpoint', 'eventsTableName'], {
  overrides: { eventsTableName: z.string().min(3, { error: 'must name the events table' }).max(255) },
});

export interface EventsHistoryOptions {
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /** Tests: the clock that decides "today". */
  now?: () => Date;
}

export const createEventsHistory = (options: EventsHistoryOptions = {}) => {
  const logger = options.logger ?? defaultLogger;
  const history = memo(() => {
    const config = parseConfig(eventsHistoryEnv, options.env, 'events history');
    return new EventHistory({ tableName: config.eventsTableName, endpoint: config.dynamodbEndpoint });
  });
  const read = async (request: RoutedRequest): Promise<EventsHistoryResult> => {
    const input = validateInput(eventsHistoryInput, request.fields);
    const page = await history().read(input, options.now?.() ?? new Date());
    if (!page) {
      throw validationFailed(
        [
          {
            field: 'cursor',
            message: 'cursor must be a nextCursor from an earlier page read with the same since and type',
          },
        ],
        'Invalid request',
      );
    }
    return page;
  };
  return createRoutedFunction(EVENTS_HISTORY_ROUTES, async (request) => ({ body: await read(request) }), { logger });
};
