// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// Events history: the account's lifecycle events of the last 30 days, oldest first, paged
import { logger } from '../base/runtime/logger.js';
import { createEventsHistory } from '../events/events-history.js';

export const handler = createEventsHistory({ logger });
