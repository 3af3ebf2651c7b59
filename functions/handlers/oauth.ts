// Lambda entry point: the OAuth start and callback routes (functions/session/oauth.ts).
import { logger } from '../runtime/logger.js';
import { createOAuthHandler } from '../session/oauth.js';

export const handler = createOAuthHandler({ logger });
