// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// EventForwarder: publishes the order functions' lifecycle events from the outbox
import { logger } from '../base/runtime/logger.js';
import { createEventForwarder } from '../events/forwarder/function.js';

export const handler = createEventForwarder({ logger });
