// Lambda entry point: the scheduled TOTP login of classic deployments (functions/session/totp-login.ts).
import { logger } from '../runtime/logger.js';
import { createSessionRenewal } from '../session/totp-login.js';

export const handler = createSessionRenewal({ logger });
