// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// Classic deployments: log in with QuickAuth (password, TOTP) before the market opens
import { logger } from '../base/runtime/logger.js';
import { createSessionRenewal } from '../session/totp-login.js';

export const handler = createSessionRenewal({ logger });
