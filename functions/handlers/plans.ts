// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// Plans: bracket (entry, then an OCO exit once filled), trailing stop and option entry (an index crossing a level), carried out by the watcher
import { logger } from '../base/runtime/logger.js';
import { createPlansFunction } from '../plans/function.js';

export const handler = createPlansFunction({ logger });
