// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// EventForwarder: publishes the order functions' lifecycle events from the outbox
import { createEventForwarder } from '../outbox/function.js';
import { logger } from '../runtime/logger.js';

export const handler = createEventForwarder({ logger });
