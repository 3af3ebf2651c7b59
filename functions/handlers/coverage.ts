// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// Coverage: every open position matched with the stops, OCOs and plan exits that cover it; its settings; a position closed now
import { logger } from '../base/runtime/logger.js';
import { createCoverageFunction } from '../risk/coverage-function.js';

export const handler = createCoverageFunction({ logger });
