/**
 * The deployed formatter of the webhook's chat formats (docs/reference/events.md, "Forwarding to a webhook"): the webhook rule
 * invokes it with a lifecycle event; it builds the Slack or Telegram body with the message builder
 * (notification.ts, the same one `npm start` uses) and puts it back on the gateway's bus as a `Notification` event of
 * its own source, which a second rule hands, as `$.detail`, to the API destination (retries, dead-letter queue,
 * connection auth: all as for the raw format). Its role may put events of that source only, so it can never
 * publish a lifecycle event. It runs in the one function shell: the rule's asynchronous invocation fails with the
 * error contract's named error (`schedule`), so Lambda retries it and then the webhook's dead-letter queue has it.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import * as z from 'zod';

import { EventBridge } from '../base/aws/events.js';
import { redactDeep } from '../base/contract/redact.js';
import { shellHandler } from '../base/middleware/function-shell.js';
import { parseConfig } from '../base/runtime/config.js';
import { envName, envSchema } from '../base/runtime/env.js';
import { logger as defaultLogger } from '../base/runtime/logger.js';
import { NOTIFICATION_DETAIL_TYPE, NOTIFICATION_SOURCE, notificationBody, type NotifyFormat } from './notification.js';

/**
 * The notify formatter's configuration schema (base/runtime/env.ts): the bus and a chat format are required, and the
 * `telegram` format its chat. `npm start` checks its notify settings with this schema too (local/notify-settings.ts).
 */
export const notifyFormatterEnv = envSchema(
  ['eventBusName', 'eventbridgeEndpoint', 'notifyFormat', 'notifyTelegramChatId'],
  {
    overrides: { eventBusName: z.string().min(1, { error: 'must name the event bus' }).max(256) },
    rules: [
      {
        holds: (c) => c.notifyFormat !== 'telegram' || c.notifyTelegramChatId !== undefined,
        key: 'notifyTelegramChatId',
        error: `is required with ${envName('notifyFormat')}=telegram: the chat the messages go to (a numeric chat id or @channel)`,
      },
    ],
  },
);

export interface NotifyFormatterOptions {
  env?: NodeJS.ProcessEnv;
  /**
   * Every function's factory takes the function set's logger (functions/base/definition/types.ts); this one writes no
   * line of its own: the shell writes one per failure (`function failed`, its error code).
   */
  logger?: Logger;
  /** Local runs and tests only (else EVENTBRIDGE_ENDPOINT, set only on this machine). */
  endpoint?: string | undefined;
}

/** The event a webhook rule hands it: a lifecycle event of the gateway's bus. */
export interface NotifyEvent {
  'detail-type': string;
  detail: unknown;
}

/** The handler: fails with the named error when the bus refused the message, so Lambda retries the invocation. */
export const createNotifyFormatter = (options: NotifyFormatterOptions = {}) => {
  const config = parseConfig(notifyFormatterEnv, options.env, 'notify formatter');
  const busName = config.eventBusName;
  const format: NotifyFormat = config.notifyFormat;
  const chatId = config.notifyTelegramChatId;
  const client = new EventBridge(options.endpoint ?? config.eventbridgeEndpoint, { retry: { maxAttempts: 3 } });
  return shellHandler<NotifyEvent, void>(
    { logger: options.logger ?? defaultLogger, logFailures: true, trigger: 'schedule' },
    async (event) => {
      // Nothing token-shaped leaves in a message, whatever a detail carried.
      const body = notificationBody(
        format,
        { 'detail-type': event['detail-type'], detail: redactDeep(event.detail) },
        chatId,
      );
      const reply = await client.putEvents({
        Entries: [
          {
            EventBusName: busName,
            Source: NOTIFICATION_SOURCE,
            DetailType: NOTIFICATION_DETAIL_TYPE,
            Detail: JSON.stringify(body),
          },
        ],
      });
      const entry = reply.Entries?.[0];
      if (reply.FailedEntryCount || !entry?.EventId)
        throw new Error(
          `the bus refused the notification: ${entry?.ErrorCode ?? 'no entry'} ${entry?.ErrorMessage ?? ''}`.trim(),
        );
    },
  );
};
