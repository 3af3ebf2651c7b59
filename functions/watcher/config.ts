/** The GttWatcher's environment: the broker settings of the function set, plus the bus and the events table. */
import * as z from 'zod';

import { configFields, parseConfig } from '../runtime/config.js';

export const watcherConfigSchema = configFields
  .pick({
    BROKER_BASE_URL: true,
    BROKER_AUTH: true,
    BROKER_SECRET_ID: true,
    BROKER_TIMEOUT_MS: true,
    SECRETS_MANAGER_ENDPOINT: true,
    DYNAMODB_ENDPOINT: true,
    EVENTBRIDGE_ENDPOINT: true,
  })
  .extend({
    EVENT_BUS_NAME: z.string().min(1, { error: 'must name the event bus' }).max(256),
    EVENTS_TABLE_NAME: z.string().min(3, { error: 'must name the events table' }).max(255),
    /** Runs an order must be missing from both lists before it is `GTT Removed` (the history may lag a little). */
    WATCHER_REMOVED_AFTER_RUNS: z.coerce.number().int().min(1).max(60).default(2),
  });

export type WatcherConfig = z.output<typeof watcherConfigSchema>;

export const parseWatcherConfig = (env: Record<string, string | undefined>): WatcherConfig =>
  parseConfig(watcherConfigSchema, env, 'watcher');
