// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// Events history: the account's lifecycle events of the last 30 days, oldest first, paged
import { createEventsHistory } from '../controls/events-history.js';
import { logger } from '../runtime/logger.js';

export const handler = createEventsHistory({ logger });
