/**
 * The notification webhook's settings for the gateway stack: the stack's props win over the CDK context keys
 * (`notifyWebhookUrl`, `notifyWebhookHeader`, `notifyWebhookSecretArn`, `notifyWebhookFormat`,
 * `notifyTelegramChatId`, `notifyOn`); every refusal fails the synth with one line.
 */
import { resolveNotifyOn } from '../../functions/events/notification.js';
import { checkWebhookUrl, type WebhookSettings } from '../constructs/webhook.js';
import { resolveWebhookFormat } from './webhook-format.js';

export interface NotifyWebhookProps {
  /** Forward every event to this HTTPS URL (context `notifyWebhookUrl`, `notifyWebhookHeader`, `notifyWebhookSecretArn`). */
  notifyWebhookUrl?: string;
  notifyWebhookHeader?: string;
  notifyWebhookSecretArn?: string;
  /** `event` (default), `slack` or `telegram` (with `notifyTelegramChatId`): the body the webhook gets. */
  notifyWebhookFormat?: string;
  notifyTelegramChatId?: string;
  /** The detail-types the webhook gets (context `notifyOn`, comma-separated, or `all`); default DEFAULT_NOTIFY_ON. */
  notifyOn?: string;
}

/** The webhook LifecycleEvents forwards to, or undefined without a URL (the other settings are checked anyway). */
export const resolveNotifyWebhook = (
  props: NotifyWebhookProps,
  context: (name: string) => unknown,
): WebhookSettings | undefined => {
  const webhookUrl = props.notifyWebhookUrl ?? (context('notifyWebhookUrl') as string | undefined);
  const headerName = props.notifyWebhookHeader ?? (context('notifyWebhookHeader') as string | undefined);
  const headerSecretArn = props.notifyWebhookSecretArn ?? (context('notifyWebhookSecretArn') as string | undefined);
  if (Boolean(headerName) !== Boolean(headerSecretArn)) {
    throw new Error(
      "notifyWebhookHeader and notifyWebhookSecretArn go together: the header carries the secret's value",
    );
  }
  const webhookFormat = resolveWebhookFormat(
    props.notifyWebhookFormat ?? context('notifyWebhookFormat'),
    props.notifyTelegramChatId ?? context('notifyTelegramChatId'),
  );
  // Checked even without a webhook: a typo in notifyOn fails the synth with one line listing the detail-types.
  const notifyOn = resolveNotifyOn(props.notifyOn ?? context('notifyOn'));
  return webhookUrl
    ? {
        url: checkWebhookUrl(String(webhookUrl)),
        ...(headerName && headerSecretArn ? { headerName, secretArn: headerSecretArn } : {}),
        ...webhookFormat,
        notifyOn,
      }
    : undefined;
};
