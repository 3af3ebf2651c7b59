// Lambda entry point: the OAuth start and callback routes (functions/session/oauth.ts).
import { createOAuthHandler } from '../session/oauth.js';
import { logger } from '../runtime/logger.js';

export const handler = createOAuthHandler({ logger });
