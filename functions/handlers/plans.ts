// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// Plans: bracket (entry, then an OCO exit once filled) and trailing stop, carried out by the watcher
import { createPlansFunction } from '../plans/function.js';
import { logger } from '../runtime/logger.js';

export const handler = createPlansFunction({ logger });
