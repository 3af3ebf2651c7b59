/** The GttWatcher's environment: the broker settings of the function set, plus the bus and the events table. */
import * as z from 'zod';

import { parseConfig } from '../runtime/config.js';
import { envSchema } from '../runtime/env.js';

/** The watcher's configuration schema (runtime/env.ts): the bus and the events table are required. */
export const watcherEnv = envSchema(
  [
    'brokerBaseUrl',
    'brokerAuth',
    'brokerSecretId',
    'brokerTimeoutMs',
    'secretsManagerEndpoint',
    'dynamodbEndpoint',
    'eventbridgeEndpoint',
    'eventBusName',
    'eventsTableName',
    'watcherRemovedAfterRuns',
  ],
  {
    overrides: {
      eventBusName: z.string().min(1, { error: 'must name the event bus' }).max(256),
      eventsTableName: z.string().min(3, { error: 'must name the events table' }).max(255),
    },
  },
);

export type WatcherConfig = z.output<typeof watcherEnv>;

export const parseWatcherConfig = (env: Record<string, string | undefined>): WatcherConfig =>
  parseConfig(watcherEnv, env, 'watcher');
