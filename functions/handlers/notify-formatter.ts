// Generated from the function manifest (functions/manifest/) by `npm run handlers`: do not edit.
// NotifyFormatter: makes the webhook's Slack or Telegram message of a lifecycle event
import { logger } from '../base/runtime/logger.js';
import { createNotifyFormatter } from '../events/notify-formatter.js';

export const handler = createNotifyFormatter({ logger });
