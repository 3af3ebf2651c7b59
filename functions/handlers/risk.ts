// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// Risk: the account's day loss limit and profit target, and today's state as the watcher's check saw it
import { logger } from '../base/runtime/logger.js';
import { createRiskFunction } from '../risk/risk.js';

export const handler = createRiskFunction({ logger });
