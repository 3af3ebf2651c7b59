// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// End-of-day logout after the market closes: the broker session ends and the secret's token is blanked
import { logger } from '../base/runtime/logger.js';
import { createEndOfDayLogout } from '../session/end-of-day.js';

export const handler = createEndOfDayLogout({ logger });
