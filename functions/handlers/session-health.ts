// Lambda entry point: the scheduled pre-market session health check (functions/session/health.ts).
import { logger } from '../runtime/logger.js';
import { createSessionHealthCheck } from '../session/health.js';

export const handler = createSessionHealthCheck({ logger });
