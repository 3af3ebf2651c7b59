/**
 * The lifecycle events in the stack (docs/events.md): the gateway's own EventBridge bus, the events table (published
 * markers and the watcher's state), the scheduled GttWatcher, the optional webhook (rule -> API destination, with
 * retries, a dead-letter queue and an alarm on it), and the CloudWatch dashboard of the function set's metrics.
 */
import { CfnOutput, Duration, SecretValue, Stack, TimeZone } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as eventTargets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambdaDestinations from 'aws-cdk-lib/aws-lambda-destinations';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import type { AnyOperation } from '../functions/contract/operation.js';
import { NOTIFICATION_DETAIL_TYPE, NOTIFICATION_SOURCE } from '../functions/events/notification.js';
import type { DetailType } from '../functions/schemas/event-types.js';
import { EVENT_SOURCE } from '../functions/schemas/events.js';
import { METRIC_NAMESPACE, SERVICE_NAME } from '../functions/schemas/names.js';
import { GatewayFunction, type GatewayFunctionNetwork } from './gateway-function.js';
import { InvokeThisFunctionOnly } from './session-functions.js';
import { expiringTable } from './tables.js';
import { notifyFormatOf, type WebhookFormat } from './webhook-format.js';

/** Every minute 09:00-15:59 India time on weekdays: the NSE session (09:15-15:30) with a margin. */
export const DEFAULT_WATCHER_SCHEDULE = 'cron(* 9-15 ? * MON-FRI *)';
/** What the order functions do in the events table: read the watcher's view of one order, write markers. */
export const ORDER_EVENTS_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchWriteItem'];
/**
 * What the watcher does there: take and give back its lease (UpdateItem), read its order items (Query), read
 * markers (BatchGetItem), write markers and the order items that changed (BatchWriteItem).
 */
export const WATCHER_EVENTS_TABLE_ACTIONS = [
  'dynamodb:UpdateItem',
  'dynamodb:Query',
  'dynamodb:BatchGetItem',
  'dynamodb:BatchWriteItem',
];
/** Webhook deliveries: EventBridge retries with backoff for up to a day, then the dead-letter queue. */
export const WEBHOOK_RETRY = { retryAttempts: 185, maxEventAge: Duration.hours(24) };

/** The schedule expression: the prop, else the context value, else the default; checked at synth. */
export const resolveWatcherSchedule = (value: unknown): string => {
  const expression = value === undefined || value === null ? DEFAULT_WATCHER_SCHEDULE : String(value).trim();
  if (!/^(cron|rate)\(.+\)$/.test(expression)) {
    throw new Error(
      `watcherSchedule must be an EventBridge Scheduler cron(...) or rate(...) expression, got ${JSON.stringify(expression)}`,
    );
  }
  return expression;
};

/**
 * Whether the stack has the GttWatcher: the prop (a boolean) if given, else the context key `watcher` (`on`/`off`,
 * `true`/`false`), else on. Anything else fails the synth, so a typo cannot silently keep a watcher the trader meant
 * to leave out (or the reverse).
 */
export const resolveWatcherEnabled = (prop: boolean | undefined, context: unknown): boolean => {
  if (prop !== undefined) return prop;
  if (context === undefined || context === null) return true;
  if (context === true || context === 'on' || context === 'true') return true;
  if (context === false || context === 'off' || context === 'false') return false;
  throw new Error(
    `watcher must be on or off (-c watcher=off leaves the GttWatcher out), got ${JSON.stringify(context)}`,
  );
};

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

export interface LifecycleEventsProps {
  alarmAction: SnsAction;
  webhook?: WebhookSettings;
}

export interface WatcherProps {
  brokerBaseUrl: string;
  brokerAuth: string;
  sessionSecret: secretsmanager.ISecret;
  network?: GatewayFunctionNetwork;
  schedule: string;
}

export class LifecycleEvents extends Construct {
  readonly bus: events.EventBus;
  readonly table: dynamodb.Table;
  watcher?: GatewayFunction;
  readonly deadLetterQueue?: sqs.Queue;
  readonly webhookRule?: events.Rule;
  /** Slack and Telegram formats: the function that makes the message, and the rule that delivers it. */
  readonly notifyFormatter?: GatewayFunction;
  readonly notificationRule?: events.Rule;

  constructor(scope: Construct, id: string, props: LifecycleEventsProps) {
    super(scope, id);
    this.bus = new events.EventBus(this, 'Bus', {
      description: `gtt-gateway lifecycle events (source ${EVENT_SOURCE})`,
    });
    // pk + sk: the watcher keeps one item per order under one partition, read with a Query (store.ts).
    this.table = expiringTable(this, 'Table', {
      partitionKey: 'pk',
      sortKey: 'sk',
      timeToLiveAttribute: 'expiresAt',
      pointInTimeRecovery: true,
    });
    if (props.webhook) {
      const { queue, rule, formatter, notificationRule } = this.addWebhook(props.webhook, props.alarmAction);
      this.deadLetterQueue = queue;
      this.webhookRule = rule;
      if (formatter) this.notifyFormatter = formatter;
      if (notificationRule) this.notificationRule = notificationRule;
    }
  }

  /** What an order function (an operation with a `lifecycle` entry) needs: its environment, and the grants. */
  publisherEnvironment(): Record<string, string> {
    return { EVENT_BUS_NAME: this.bus.eventBusName, EVENTS_TABLE_NAME: this.table.tableName };
  }

  grantOrderFunction(role: iam.IRole): void {
    this.bus.grantPutEventsTo(role);
    this.table.grant(role, ...ORDER_EVENTS_TABLE_ACTIONS);
  }

  /** The session functions that write a token publish `Session Renewed`: the bus only. */
  grantSessionFunction(role: iam.IRole): void {
    this.bus.grantPutEventsTo(role);
  }

  addWatcher(props: WatcherProps, alarmAction: SnsAction): GatewayFunction {
    const watcher = new GatewayFunction(this, 'GttWatcher', {
      entry: 'gtt-watcher',
      description:
        'gtt-gateway: GttWatcher, publishes GTT changes seen at the broker (pending list, triggered history)',
      roleDescription:
        'gtt-gateway GttWatcher: its log group, read the session secret, publish on the gateway bus, the events table',
      logRetention: logs.RetentionDays.ONE_MONTH,
      environment: {
        BROKER_BASE_URL: props.brokerBaseUrl,
        BROKER_SECRET_ID: props.sessionSecret.secretArn,
        BROKER_AUTH: props.brokerAuth,
        ...this.publisherEnvironment(),
      },
      ...(props.network ? { network: props.network } : {}),
    });
    props.sessionSecret.grantRead(watcher.role);
    this.bus.grantPutEventsTo(watcher.role);
    this.table.grant(watcher.role, ...WATCHER_EVENTS_TABLE_ACTIONS);
    const role = new iam.Role(this, 'GttWatcherSchedulerRole', {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com'),
      description: 'gtt-gateway: EventBridge Scheduler may invoke GttWatcher only',
    });
    new scheduler.Schedule(this, 'GttWatcherSchedule', {
      description: 'gtt-gateway: GttWatcher, publishes what changed at the broker (India time)',
      schedule: scheduler.ScheduleExpression.expression(props.schedule, TimeZone.ASIA_KOLKATA),
      timeWindow: scheduler.TimeWindow.off(),
      // A missed minute is covered by the next run: no retries that would pile up behind it.
      target: new InvokeThisFunctionOnly(watcher.function, {
        role,
        retryAttempts: 0,
        maxEventAge: Duration.minutes(1),
      }),
    });
    watcher.function
      .metricErrors({ period: Duration.minutes(5) })
      .createAlarm(this, 'GttWatcherErrors', {
        alarmDescription:
          'GttWatcher: failed runs (broker unreachable, events refused); its state stays and the next run retries',
        threshold: 3,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      })
      .addAlarmAction(alarmAction);
    this.watcher = watcher;
    return watcher;
  }

  private addWebhook(webhook: WebhookSettings, alarmAction: SnsAction) {
    const connection = new events.Connection(this, 'WebhookConnection', {
      description: 'gtt-gateway webhook: how EventBridge authenticates to the receiver',
      authorization:
        webhook.headerName && webhook.secretArn
          ? events.Authorization.apiKey(webhook.headerName, SecretValue.secretsManager(webhook.secretArn))
          : // An EventBridge connection always carries an authorization; without a receiver secret this fixed,
            // non-secret header says who is calling and nothing more.
            events.Authorization.apiKey('X-Gtt-Gateway', SecretValue.unsafePlainText('webhook')),
    });
    const destination = new events.ApiDestination(this, 'WebhookDestination', {
      description: `gtt-gateway webhook: lifecycle events (${webhook.format}), POSTed`,
      connection,
      endpoint: webhook.url,
      httpMethod: events.HttpMethod.POST,
      rateLimitPerSecond: 10,
    });
    const queue = new sqs.Queue(this, 'WebhookDeadLetters', {
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
      rule = new events.Rule(this, 'WebhookRule', {
        description,
        eventBus: this.bus,
        eventPattern: pattern,
        targets: [new eventTargets.ApiDestination(destination, { deadLetterQueue: queue, ...WEBHOOK_RETRY })],
      });
    } else {
      // An input transformer cannot choose words (Buy/Sell, a single's trigger or an OCO's fired leg, a tag or a
      // rejection only when there is one), so a small function makes the message with the same builder as npm start
      // and puts it back on the bus under its own source; the API destination then delivers it unchanged ($.detail).
      formatter = new GatewayFunction(this, 'NotifyFormatter', {
        entry: 'notify-formatter',
        description: `gtt-gateway: NotifyFormatter, makes the ${webhook.format} message of a lifecycle event`,
        roleDescription: `gtt-gateway NotifyFormatter: its log group, put events of source ${NOTIFICATION_SOURCE} (only) on the gateway bus`,
        logRetention: logs.RetentionDays.ONE_MONTH,
        environment: {
          EVENT_BUS_NAME: this.bus.eventBusName,
          NOTIFY_FORMAT: notifyFormatOf(webhook.format),
          ...(webhook.chatId ? { NOTIFY_TELEGRAM_CHAT_ID: webhook.chatId } : {}),
        },
      });
      formatter.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: 'PutNotificationsOnly',
          actions: ['events:PutEvents'],
          resources: [this.bus.eventBusArn],
          conditions: { StringEquals: { 'events:source': NOTIFICATION_SOURCE } },
        }),
      );
      // A message the function could not put on the bus (after Lambda's own two retries) is kept in the webhook's
      // dead-letter queue too, so its alarm fires: nothing is dropped silently.
      formatter.function.configureAsyncInvoke({
        onFailure: new lambdaDestinations.SqsDestination(queue),
        retryAttempts: 2,
        maxEventAge: Duration.hours(6),
      });
      rule = new events.Rule(this, 'WebhookRule', {
        description: `${description} (formatted by NotifyFormatter)`,
        eventBus: this.bus,
        eventPattern: pattern,
        targets: [
          new eventTargets.LambdaFunction(formatter.function, {
            deadLetterQueue: queue,
            retryAttempts: 8,
            maxEventAge: Duration.hours(2),
          }),
        ],
      });
      notificationRule = new events.Rule(this, 'NotificationRule', {
        description: `gtt-gateway: deliver the ${webhook.format} messages of NotifyFormatter to the webhook`,
        eventBus: this.bus,
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
      .createAlarm(this, 'WebhookDeadLetterAlarm', {
        alarmDescription:
          'gtt-gateway webhook: events could not be delivered for 24 hours and are in the dead-letter queue',
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      })
      .addAlarmAction(alarmAction);
    NagSuppressions.addResourceSuppressions(queue, [
      { id: 'AwsSolutions-SQS3', reason: 'This queue is itself the dead-letter queue of the webhook rule.' },
    ]);
    return { queue, rule, formatter, notificationRule };
  }

  /** The dashboard of the function set: operations, broker, safety, events, watcher, session. */
  addDashboard(operations: readonly AnyOperation[]): cloudwatch.Dashboard {
    const metric = (name: string, dimensions: Record<string, string>, statistic = 'Sum') =>
      new cloudwatch.Metric({
        namespace: METRIC_NAMESPACE,
        metricName: name,
        dimensionsMap: { service: SERVICE_NAME, ...dimensions },
        statistic,
        period: Duration.minutes(5),
      });
    const perOperation = (name: string, statistic = 'Sum', ops = operations) =>
      ops.map((op) => metric(name, { Operation: op.name }, statistic).with({ label: op.name }));
    // Each graph lists the operations that can emit its metric (operation-metrics.ts): guardrails check the orders
    // of place and modify, replays need an idempotency key, events come from the operations with a lifecycle entry.
    const guardedOps = operations.filter((op) => op.guardedOrders !== undefined);
    const idempotentOps = operations.filter((op) => op.idempotency !== undefined);
    const orderOps = operations.filter((op) => op.lifecycle !== undefined);
    const watcher = { Function: 'GttWatcher' };
    const graph = (title: string, left: cloudwatch.IMetric[]) =>
      new cloudwatch.GraphWidget({ title, left, width: 12, height: 6 });
    const dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `gtt-gateway-${Stack.of(this).stackName}`,
    });
    dashboard.addWidgets(
      graph('Requests by operation', perOperation('Requests')),
      graph('Failed by operation', perOperation('Failed')),
    );
    dashboard.addWidgets(
      graph('Broker latency p50 (ms)', perOperation('BrokerLatency', 'p50')),
      graph('Broker latency p99 (ms)', perOperation('BrokerLatency', 'p99')),
    );
    dashboard.addWidgets(
      graph('Guardrail rejections', perOperation('GuardrailRejections', 'Sum', guardedOps)),
      graph('Idempotent replays', perOperation('IdempotentReplays', 'Sum', idempotentOps)),
    );
    dashboard.addWidgets(
      graph('Events published', [
        ...perOperation('EventsPublished', 'Sum', orderOps),
        metric('EventsPublished', watcher).with({ label: 'GttWatcher' }),
      ]),
      graph('Event publish failures', [
        ...perOperation('EventPublishFailures', 'Sum', orderOps),
        metric('EventPublishFailures', watcher).with({ label: 'GttWatcher' }),
      ]),
    );
    dashboard.addWidgets(
      graph('Watcher lag (s, trigger to publish)', [
        metric('WatcherLag', watcher, 'Maximum'),
        metric('WatcherLag', watcher, 'p50'),
      ]),
      graph('Session alive (1) / dead (0)', [metric('SessionAlive', {}, 'Minimum')]),
    );
    return dashboard;
  }

  addOutputs(): void {
    const stack = Stack.of(this);
    new CfnOutput(stack, 'EventBusName', {
      value: this.bus.eventBusName,
      description: 'The lifecycle events bus (source gtt-gateway): add your own rules here',
    });
    new CfnOutput(stack, 'EventBusArn', { value: this.bus.eventBusArn });
    new CfnOutput(stack, 'EventsTableName', { value: this.table.tableName });
    if (this.deadLetterQueue) {
      new CfnOutput(stack, 'WebhookDeadLetterQueueUrl', {
        value: this.deadLetterQueue.queueUrl,
        description: 'Events the webhook did not accept within 24 hours',
      });
    }
  }
}
