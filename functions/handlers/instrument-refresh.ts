// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// InstrumentRefresh: loads the day's symbol masters and the band and freeze of the symbols in use into the account's copy
import { logger } from '../base/runtime/logger.js';
import { createInstrumentRefresh } from '../instruments/instrument-refresh.js';

export const handler = createInstrumentRefresh({ logger });
