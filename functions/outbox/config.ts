/** The EventForwarder's environment: the bus, the events table (markers, order views), and local endpoints. */
import * as z from 'zod';

import { configFields, parseConfig } from '../runtime/config.js';

export const forwarderConfigSchema = configFields.pick({ DYNAMODB_ENDPOINT: true, EVENTBRIDGE_ENDPOINT: true }).extend({
  EVENT_BUS_NAME: z.string().min(1, { error: 'must name the event bus' }).max(256),
  EVENTS_TABLE_NAME: z.string().min(3, { error: 'must name the events table' }).max(255),
});

export type ForwarderConfig = z.output<typeof forwarderConfigSchema>;

export const parseForwarderConfig = (env: Record<string, string | undefined>): ForwarderConfig =>
  parseConfig(forwarderConfigSchema, env, 'event forwarder');
