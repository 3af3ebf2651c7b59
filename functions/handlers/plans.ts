// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// Plans: bracket (entry, then an OCO exit once filled) and trailing stop, carried out by the watcher
import { logger } from '../base/runtime/logger.js';
import { createPlansFunction } from '../plans/function.js';

export const handler = createPlansFunction({ logger });
