// Lambda entry point: the webhook's Slack/Telegram formatter (functions/events/notify-formatter.ts).
import { createNotifyFormatter } from '../events/notify-formatter.js';

export const handler = createNotifyFormatter();
