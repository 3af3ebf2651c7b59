// Lambda entry point: the scheduled TOTP login of classic deployments (functions/session/totp-login.ts).
import { createSessionRenewal } from '../session/totp-login.js';
import { logger } from '../runtime/logger.js';

export const handler = createSessionRenewal({ logger });
