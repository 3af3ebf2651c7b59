/**
 * The lifecycle events' webhook (docs/reference/events.md): the connection and API destination, the rule that forwards the
 * chosen detail-types (raw, or through the NotifyFormatter function for Slack and Telegram), the dead-letter queue
 * and its alarm; with the settings it is built from and the URL check. Built inside LifecycleEvents (its scope), so
 * the construct ids stay where they were.
 */
import { Duration, SecretValue } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as events from 'aws-cdk-lib/aws-events';
import * as eventTargets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambdaDestinations from 'aws-cdk-lib/aws-lambda-destinations';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';

import type { DetailType } from '../../functions/base/schemas/event-types.js';
import { EVENT_SOURCE } from '../../functions/base/schemas/events.js';
import { NOTIFY_FORMATTER } from '../../functions/events/definitions.js';
import { NOTIFICATION_DETAIL_TYPE, NOTIFICATION_SOURCE } from '../../functions/events/notification.js';
import { notifyFormatOf, type WebhookFormat } from '../settings/webhook-format.js';
import type { GatewayFunction } from './gateway-function.js';
import { addManifestFunction, type FunctionWiring } from './manifest-function.js';

/** Webhook deliveries: EventBridge retries with backoff for up to a day, then the dead-letter queue. */
export const WEBHOOK_RETRY = { retryAttempts: 185, maxEventAge: Duration.hours(24) };

export interface WebhookSettings {
  url: string;
  headerName?: string;
  secretArn?: string;
  format: WebhookFormat;
  chatId?: string;
  /** The detail-types forwarded (`-c notifyOn`, resolveNotifyOn): the rule's event pattern. */
  notifyOn: readonly DetailType[];
}

/** The webhook URL must be HTTPS (an API destination refuses anything else); checked at synth. */
export const checkWebhookUrl = (url: string): string => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`notifyWebhookUrl must be an https:// URL, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'https:')
    throw new Error(`notifyWebhookUrl must be an https:// URL, got ${JSON.stringify(url)}`);
  return url;
};

/** The webhook on the gateway bus, built in `scope` (the LifecycleEvents construct). */
export const addEventWebhook = (
  scope: Construct,
  bus: events.EventBus,
  webhook: WebhookSettings,
  wiring: FunctionWiring,
): {
  queue: sqs.Queue;
  rule: events.Rule;
  formatter: GatewayFunction | undefined;
  notificationRule: events.Rule | undefined;
} => {
  const connection = new events.Connection(scope, 'WebhookConnection', {
    description: 'gtt-gateway webhook: how EventBridge authenticates to the receiver',
    authorization:
      webhook.headerName && webhook.secretArn
        ? events.Authorization.apiKey(webhook.headerName, SecretValue.secretsManager(webhook.secretArn))
        : // An EventBridge connection always carries an authorization; without a receiver secret this fixed,
          // non-secret header says who is calling and nothing more.
          events.Authorization.apiKey('X-Gtt-Gateway', SecretValue.unsafePlainText('webhook')),
  });
  const destination = new events.ApiDestination(scope, 'WebhookDestination', {
    description: `gtt-gateway webhook: lifecycle events (${webhook.format}), POSTed`,
    connection,
    endpoint: webhook.url,
    httpMethod: events.HttpMethod.POST,
    rateLimitPerSecond: 10,
  });
  const queue = new sqs.Queue(scope, 'WebhookDeadLetters', {
    enforceSSL: true,
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    retentionPeriod: Duration.days(14),
  });
  const pattern = { source: [EVENT_SOURCE], detailType: [...webhook.notifyOn] };
  const description = `gtt-gateway: forward ${webhook.notifyOn.join(', ')} to the webhook`;
  let rule: events.Rule;
  let formatter: GatewayFunction | undefined;
  let notificationRule: events.Rule | undefined;
  if (webhook.format === 'event') {
    rule = new events.Rule(scope, 'WebhookRule', {
      description,
      eventBus: bus,
      eventPattern: pattern,
      targets: [new eventTargets.ApiDestination(destination, { deadLetterQueue: queue, ...WEBHOOK_RETRY })],
    });
  } else {
    // An input transformer cannot choose words (Buy/Sell, a single's trigger or an OCO's fired leg, a tag or a
    // rejection only when there is one), so a small function makes the message with the same builder as npm start
    // and puts it back on the bus under its own source; the API destination then delivers it unchanged ($.detail).
    // It calls EventBridge only, so it runs outside the VPC whatever the egress (as it always has).
    const { network: _network, ...outsideTheVpc } = wiring;
    formatter = addManifestFunction(
      scope,
      NOTIFY_FORMATTER,
      {
        ...outsideTheVpc,
        values: {
          ...wiring.values,
          notifyFormat: notifyFormatOf(webhook.format),
          notifyTelegramChatId: webhook.chatId || undefined,
        },
      },
      {
        description: `gtt-gateway: NotifyFormatter, makes the ${webhook.format} message of a lifecycle event`,
        // Its `bus:publish` is PutEvents of its own source only: it cannot pass for the gateway's events.
        grants: {
          'bus:publish': (role) =>
            role.addToPrincipalPolicy(
              new iam.PolicyStatement({
                sid: 'PutNotificationsOnly',
                actions: ['events:PutEvents'],
                resources: [bus.eventBusArn],
                conditions: { StringEquals: { 'events:source': NOTIFICATION_SOURCE } },
              }),
            ),
        },
      },
    );
    // A message the function could not put on the bus (after Lambda's own two retries) is kept in the webhook's
    // dead-letter queue too, so its alarm fires: nothing is dropped silently.
    formatter.function.configureAsyncInvoke({
      onFailure: new lambdaDestinations.SqsDestination(queue),
      retryAttempts: 2,
      maxEventAge: Duration.hours(6),
    });
    rule = new events.Rule(scope, 'WebhookRule', {
      description: `${description} (formatted by NotifyFormatter)`,
      eventBus: bus,
      eventPattern: pattern,
      targets: [
        new eventTargets.LambdaFunction(formatter.function, {
          deadLetterQueue: queue,
          retryAttempts: 8,
          maxEventAge: Duration.hours(2),
        }),
      ],
    });
    notificationRule = new events.Rule(scope, 'NotificationRule', {
      description: `gtt-gateway: deliver the ${webhook.format} messages of NotifyFormatter to the webhook`,
      eventBus: bus,
      eventPattern: { source: [NOTIFICATION_SOURCE], detailType: [NOTIFICATION_DETAIL_TYPE] },
      targets: [
        new eventTargets.ApiDestination(destination, {
          deadLetterQueue: queue,
          ...WEBHOOK_RETRY,
          event: events.RuleTargetInput.fromEventPath('$.detail'),
        }),
      ],
    });
  }
  queue
    .metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' })
    .createAlarm(scope, 'WebhookDeadLetterAlarm', {
      alarmDescription:
        'gtt-gateway webhook: events could not be delivered for 24 hours and are in the dead-letter queue',
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    })
    .addAlarmAction(wiring.alarmAction);
  NagSuppressions.addResourceSuppressions(queue, [
    { id: 'AwsSolutions-SQS3', reason: 'This queue is itself the dead-letter queue of the webhook rule.' },
  ]);
  return { queue, rule, formatter, notificationRule };
};
