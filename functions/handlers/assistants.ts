// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// Assistants: an MCP assistant's name, scopes and limits; its bearer token (shown once, stored hashed)
import { createAssistantsFunction } from '../assistants/assistants.js';
import { logger } from '../base/runtime/logger.js';

export const handler = createAssistantsFunction({ logger });
