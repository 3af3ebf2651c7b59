// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// Kill switch: cancel every pending GTT and OCO (keep-exits: the entries only), then refuse places and modifies until it is turned off
import { logger } from '../base/runtime/logger.js';
import { createKillSwitch } from '../controls/kill-switch.js';

export const handler = createKillSwitch({ logger });
