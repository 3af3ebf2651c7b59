// Lambda entry point: the scheduled end-of-day logout (functions/session/end-of-day.ts).
import { logger } from '../runtime/logger.js';
import { createEndOfDayLogout } from '../session/end-of-day.js';

export const handler = createEndOfDayLogout({ logger });
