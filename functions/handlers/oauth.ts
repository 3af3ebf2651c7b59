// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// OAuth login: start a login (the broker's login page); exchange the redirect's code for a token
import { logger } from '../base/runtime/logger.js';
import { createOAuthHandler } from '../session/oauth.js';

export const handler = createOAuthHandler({ logger });
