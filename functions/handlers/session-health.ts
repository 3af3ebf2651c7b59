// Lambda entry point: the scheduled pre-market session health check (functions/session/health.ts).
import { createSessionHealthCheck } from '../session/health.js';
import { logger } from '../runtime/logger.js';

export const handler = createSessionHealthCheck({ logger });
