/**
 * The GttWatcher's environment, read one way: this schema, at its first run. The watcher also carries the plans out
 * (functions/plans/), so it reads the gateway's variables with their rules (the order path's tables, the
 * deployment's settings) beside its own; the plans' in-process gateway is given the same environment.
 */
import * as z from 'zod';

import { GATEWAY_KEYS, parseConfig } from '../../base/runtime/config.js';
import { envSchema } from '../../base/runtime/env.js';

/** The watcher's configuration schema (base/runtime/env.ts): the gateway's, with the bus and the events table required. */
export const watcherEnv = envSchema([...GATEWAY_KEYS, 'watcherRemovedAfterRuns'], {
  overrides: {
    eventBusName: z.string().min(1, { error: 'must name the event bus' }).max(256),
    eventsTableName: z.string().min(3, { error: 'must name the events table' }).max(255),
  },
});

export type WatcherConfig = z.output<typeof watcherEnv>;

export const parseWatcherConfig = (env?: Record<string, string | undefined>): WatcherConfig =>
  parseConfig(watcherEnv, env, 'watcher');

/** Whether the deployment gives the watcher the order path's tables, so that it runs the plans' steps too. */
export const runsPlans = (config: WatcherConfig): boolean =>
  config.idempotencyTableName !== undefined && config.controlTableName !== undefined;
