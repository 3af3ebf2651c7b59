// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// The signal webhook: an alert checked, recorded and queued (202); nothing sent to the broker here
import { logger } from '../base/runtime/logger.js';
import { createSignalWebhook } from '../signals/webhook.js';

export const handler = createSignalWebhook({ logger });
