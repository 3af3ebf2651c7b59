/** The EventForwarder's environment: the bus, the events table (markers, order views), and local endpoints. */
import * as z from 'zod';

import { parseConfig } from '../../base/runtime/config.js';
import { envSchema } from '../../base/runtime/env.js';

/** The forwarder's configuration schema (base/runtime/env.ts): the bus and the events table are required. */
export const forwarderEnv = envSchema(['dynamodbEndpoint', 'eventbridgeEndpoint', 'eventBusName', 'eventsTableName'], {
  overrides: {
    eventBusName: z.string().min(1, { error: 'must name the event bus' }).max(256),
    eventsTableName: z.string().min(3, { error: 'must name the events table' }).max(255),
  },
});

export type ForwarderConfig = z.output<typeof forwarderEnv>;

export const parseForwarderConfig = (env?: Record<string, string | undefined>): ForwarderConfig =>
  parseConfig(forwarderEnv, env, 'event forwarder');
