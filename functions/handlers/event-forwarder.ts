// Lambda entry point: the EventForwarder (functions/outbox/): publishes the outbox's events from the idempotency table's stream.
import { createEventForwarder } from '../outbox/function.js';
import { logger } from '../runtime/logger.js';

export const handler = createEventForwarder({ logger });
