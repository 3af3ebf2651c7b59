/**
 * How the webhook rule shapes the body it POSTs (`-c notifyWebhookFormat=...`): `event` (default) sends the event as
 * EventBridge delivers it; `slack` sends `{"text": line}` for a Slack incoming webhook; `telegram` sends
 * `{"chat_id": ..., "text": line}` for a bot's sendMessage. The line is an input transformer over the event:
 * detail-type, symbol, al_id, trigger, fired leg and origin (fields an event lacks are left empty by EventBridge).
 */
import * as events from 'aws-cdk-lib/aws-events';

export const WEBHOOK_FORMATS = ['event', 'slack', 'telegram'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export const resolveWebhookFormat = (value: unknown, telegramChatId: unknown): { format: WebhookFormat; chatId?: string } => {
  const format = value === undefined || value === null ? 'event' : String(value);
  if (!(WEBHOOK_FORMATS as readonly string[]).includes(format)) {
    throw new Error(`notifyWebhookFormat must be one of ${WEBHOOK_FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
  }
  if (format === 'telegram') {
    const chatId = telegramChatId === undefined || telegramChatId === null ? '' : String(telegramChatId);
    if (!/^-?\d{1,20}$|^@[A-Za-z0-9_]{5,32}$/.test(chatId)) {
      throw new Error(`notifyWebhookFormat=telegram needs notifyTelegramChatId (a numeric chat id or @channel), got ${JSON.stringify(chatId)}`);
    }
    return { format, chatId };
  }
  return { format: format as WebhookFormat };
};

/** One human line per event, from the event's own fields. */
export const webhookLine = (): string =>
  [
    events.EventField.fromPath('$.detail-type'),
    `${events.EventField.fromPath('$.detail.exch')}:${events.EventField.fromPath('$.detail.tsym')}`,
    `al_id ${events.EventField.fromPath('$.detail.al_id')}`,
    `trigger ${events.EventField.fromPath('$.detail.trigger')}`,
    `leg ${events.EventField.fromPath('$.detail.firedLeg')}`,
    `(${events.EventField.fromPath('$.detail.origin')})`,
  ].join(' ');

/** The rule target's input for a format; undefined sends the event unchanged. */
export const webhookInput = (setting: { format: WebhookFormat; chatId?: string }): events.RuleTargetInput | undefined => {
  if (setting.format === 'slack') return events.RuleTargetInput.fromObject({ text: webhookLine() });
  if (setting.format === 'telegram') return events.RuleTargetInput.fromObject({ chat_id: setting.chatId, text: webhookLine() });
  return undefined;
};
