// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// Strategies: what an alert posted to a webhook URL does; the URL and its token (shown once)
import { logger } from '../base/runtime/logger.js';
import { createStrategiesFunction } from '../signals/strategies.js';

export const handler = createStrategiesFunction({ logger });
