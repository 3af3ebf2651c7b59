// Lambda entry point: the scheduled end-of-day logout (functions/session/end-of-day.ts).
import { createEndOfDayLogout } from '../session/end-of-day.js';
import { logger } from '../runtime/logger.js';

export const handler = createEndOfDayLogout({ logger });
