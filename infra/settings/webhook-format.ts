/**
 * How the webhook shapes the body it POSTs (`-c notifyWebhookFormat=...`): `event` (default) sends the event as
 * EventBridge delivers it; `slack` sends `{"text": message}` for a Slack incoming webhook; `telegram` sends
 * `{"chat_id": ..., "text": message}` for a bot's sendMessage. The message is made by the NotifyFormatter function
 * with functions/events/notification.ts (infra/constructs/events.ts says why a function and not an input transformer).
 */
import { ENV } from '../../functions/base/runtime/env.js';
import { type NotifyFormat } from '../../functions/events/notification.js';

export const WEBHOOK_FORMATS = ['event', 'slack', 'telegram'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export const resolveWebhookFormat = (
  value: unknown,
  telegramChatId: unknown,
): { format: WebhookFormat; chatId?: string } => {
  const format = value === undefined || value === null ? 'event' : String(value);
  if (!(WEBHOOK_FORMATS as readonly string[]).includes(format)) {
    throw new Error(`notifyWebhookFormat must be one of ${WEBHOOK_FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
  }
  if (format === 'telegram') {
    const chatId = telegramChatId === undefined || telegramChatId === null ? '' : String(telegramChatId);
    // The NotifyFormatter's own rule for its chat (the catalogue's NOTIFY_TELEGRAM_CHAT_ID).
    if (!chatId || !ENV.notifyTelegramChatId.schema.safeParse(chatId).success) {
      throw new Error(
        `notifyWebhookFormat=telegram needs notifyTelegramChatId (a numeric chat id or @channel), got ${JSON.stringify(chatId)}`,
      );
    }
    return { format, chatId };
  }
  return { format: format as WebhookFormat };
};

/** The message builder's name of a format (functions/events/notification.ts): `event` is the raw envelope. */
export const notifyFormatOf = (format: WebhookFormat): NotifyFormat => (format === 'event' ? 'raw' : format);
