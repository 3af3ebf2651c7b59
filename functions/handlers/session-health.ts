// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// Pre-market check that the session works (ClientDetails), published as the SessionAlive metric; GET /session
import { logger } from '../base/runtime/logger.js';
import { createSessionHealthCheck } from '../session/health.js';

export const handler = createSessionHealthCheck({ logger });
