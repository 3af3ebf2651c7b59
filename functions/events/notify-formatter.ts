/**
 * The deployed formatter of the webhook's chat formats (docs/events.md, "Forwarding to a webhook"): the webhook rule
 * invokes it with a lifecycle event; it builds the Slack or Telegram body with the message builder
 * (notification.ts, the same one `npm start` uses) and puts it back on the gateway's bus as a `Notification` event of
 * its own source, which a second rule hands, as `$.detail`, to the API destination (retries, dead-letter queue,
 * connection auth: all as for the raw format). Its role may put events of that source only, so it can never
 * publish a lifecycle event.
 */
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';

import { redactDeep } from '../contract/redact.js';
import {
  NOTIFICATION_DETAIL_TYPE,
  NOTIFICATION_SOURCE,
  notificationBody,
  NOTIFY_FORMATS,
  type NotifyFormat,
} from './notification.js';

export interface NotifyFormatterOptions {
  env?: NodeJS.ProcessEnv;
  /** Local runs and tests only. */
  endpoint?: string | undefined;
}

/** The handler: throws when the bus refused the message, so Lambda retries the invocation. */
export const createNotifyFormatter = (options: NotifyFormatterOptions = {}) => {
  const env = options.env ?? process.env;
  const busName = env.EVENT_BUS_NAME;
  const format = env.NOTIFY_FORMAT as NotifyFormat | undefined;
  if (!busName) throw new Error('EVENT_BUS_NAME is not set');
  if (!format || format === 'raw' || !(NOTIFY_FORMATS as readonly string[]).includes(format)) {
    throw new Error(`NOTIFY_FORMAT must be slack or telegram, got ${JSON.stringify(format)}`);
  }
  const chatId = env.NOTIFY_TELEGRAM_CHAT_ID || undefined;
  const client = new EventBridgeClient({ ...(options.endpoint ? { endpoint: options.endpoint } : {}), maxAttempts: 3 });
  return async (event: { 'detail-type': string; detail: unknown }): Promise<void> => {
    // Nothing token-shaped leaves in a message, whatever a detail carried.
    const body = notificationBody(
      format,
      { 'detail-type': event['detail-type'], detail: redactDeep(event.detail) },
      chatId,
    );
    const reply = await client.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: busName,
            Source: NOTIFICATION_SOURCE,
            DetailType: NOTIFICATION_DETAIL_TYPE,
            Detail: JSON.stringify(body),
          },
        ],
      }),
    );
    const entry = reply.Entries?.[0];
    if (reply.FailedEntryCount || !entry?.EventId)
      throw new Error(
        `the bus refused the notification: ${entry?.ErrorCode ?? 'no entry'} ${entry?.ErrorMessage ?? ''}`.trim(),
      );
  };
};
