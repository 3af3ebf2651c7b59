/**
 * The lifecycle events in the stack (docs/events.md): the gateway's own EventBridge bus, the events table (published
 * markers and the watcher's state), the scheduled GttWatcher, the optional webhook (rule -> API destination, with
 * retries, a dead-letter queue and an alarm on it), and the CloudWatch dashboard of the function set's metrics (the webhook in
 * infra/event-webhook.ts, the dashboard in infra/event-dashboard.ts).
 */
import { CfnOutput, Duration, Stack, TimeZone } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

import type { AnyOperation } from '../../functions/contract/operation.js';
import { environmentOf } from '../../functions/runtime/env.js';
import { EVENT_SOURCE } from '../../functions/schemas/events.js';
import { addEventDashboard } from './dashboard.js';
import { addErrorsAlarm, GatewayFunction, type GatewayFunctionNetwork, MEMORY_MB } from './gateway-function.js';
import { InvokeThisFunctionOnly } from './session.js';
import { expiringTable } from './tables.js';
import { addEventWebhook, type WebhookSettings } from './webhook.js';

export { checkWebhookUrl, WEBHOOK_RETRY, type WebhookSettings } from './webhook.js';

/** Every minute 09:00-15:59 India time on weekdays: the NSE session (09:15-15:30) with a margin. */
export const DEFAULT_WATCHER_SCHEDULE = 'cron(* 9-15 ? * MON-FRI *)';
/**
 * What the EventForwarder does in the events table: read markers (BatchGetItem), read the watcher's view of a
 * cancelled order (GetItem), write markers (BatchWriteItem). The order functions have nothing there any more: their
 * events go to the outbox (the idempotency table) and the forwarder publishes them.
 */
export const FORWARDER_EVENTS_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem'];
/** Deliveries of a stream batch before its records are given up (the watcher publishes what they carried). */
export const FORWARDER_RETRY_ATTEMPTS = 100;
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
  /** Every lifecycle event of the last 30 days, for `aws events start-replay` (docs/events.md#replay). */
  readonly archive: events.Archive;
  watcher?: GatewayFunction;
  forwarder?: GatewayFunction;
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
    // The lifecycle events (our source only: not the notification bodies) kept 30 days, so a consumer that was down
    // or had a bug can have them sent again (a replay re-sends them with their eventIds: consumers deduplicate).
    this.archive = this.bus.archive('Archive', {
      description: `gtt-gateway lifecycle events (source ${EVENT_SOURCE}), kept 30 days for replay`,
      eventPattern: { source: [EVENT_SOURCE] },
      retention: Duration.days(30),
    });
    // pk + sk: the watcher keeps one item per order under one partition, read with a Query (store.ts).
    this.table = expiringTable(this, 'Table', {
      partitionKey: 'pk',
      sortKey: 'sk',
      timeToLiveAttribute: 'expiresAt',
      pointInTimeRecovery: true,
    });
    if (props.webhook) {
      const { queue, rule, formatter, notificationRule } = addEventWebhook(
        this,
        this.bus,
        props.webhook,
        props.alarmAction,
      );
      this.deadLetterQueue = queue;
      this.webhookRule = rule;
      if (formatter) this.notifyFormatter = formatter;
      if (notificationRule) this.notificationRule = notificationRule;
    }
  }

  /** What publishes on the bus and marks in the events table (the watcher, the EventForwarder). */
  publisherEnvironment(): Record<string, string> {
    return environmentOf({ eventBusName: this.bus.eventBusName, eventsTableName: this.table.tableName });
  }

  /**
   * What an order function (an operation with a `lifecycle` entry, the kill switch) needs: the bus's name only,
   * which names the deployment in every event id. Its events go to the outbox in the idempotency table, whose
   * grants it has; it may not publish on the bus nor write the events table.
   */
  orderFunctionEnvironment(): Record<string, string> {
    return environmentOf({ eventBusName: this.bus.eventBusName });
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
        ...environmentOf({
          brokerBaseUrl: props.brokerBaseUrl,
          brokerSecretId: props.sessionSecret.secretArn,
          brokerAuth: props.brokerAuth,
        }),
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
    addErrorsAlarm(
      this,
      'GttWatcherErrors',
      watcher.function,
      {
        description:
          'GttWatcher: failed runs (broker unreachable, events refused); its state stays and the next run retries',
        threshold: 3,
      },
      alarmAction,
    );
    this.watcher = watcher;
    return watcher;
  }

  /**
   * The EventForwarder: the idempotency table's stream (completed records only, by the event source's filter) to
   * the bus. A record whose events were refused is delivered again (ReportBatchItemFailures, a failing batch split
   * in halves) for a day or 100 tries; after that the watcher's next run publishes what it carried.
   */
  addForwarder(
    props: { idempotencyTable: dynamodb.Table; network?: GatewayFunctionNetwork },
    alarmAction: SnsAction,
  ): GatewayFunction {
    const forwarder = new GatewayFunction(this, 'EventForwarder', {
      entry: 'event-forwarder',
      description: "gtt-gateway: EventForwarder, publishes the order functions' lifecycle events from the outbox",
      roleDescription:
        "gtt-gateway EventForwarder: its log group, the idempotency table's stream, publish on the gateway bus, the events table",
      logRetention: logs.RetentionDays.ONE_MONTH,
      memorySize: MEMORY_MB.background,
      environment: this.publisherEnvironment(),
      ...(props.network ? { network: props.network } : {}),
    });
    this.bus.grantPutEventsTo(forwarder.role);
    this.table.grant(forwarder.role, ...FORWARDER_EVENTS_TABLE_ACTIONS);
    forwarder.function.addEventSource(
      new DynamoEventSource(props.idempotencyTable, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: 10,
        maxBatchingWindow: Duration.seconds(0),
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: FORWARDER_RETRY_ATTEMPTS,
        maxRecordAge: Duration.days(1),
        filters: [
          lambda.FilterCriteria.filter({
            dynamodb: { NewImage: { status: { S: lambda.FilterRule.isEqual('COMPLETED') } } },
          }),
        ],
      }),
    );
    addErrorsAlarm(
      this,
      'EventForwarderErrors',
      forwarder.function,
      {
        description:
          'EventForwarder: failed batches (EventBridge or the events table unreachable); the records are delivered again',
        threshold: 3,
      },
      alarmAction,
    );
    this.forwarder = forwarder;
    return forwarder;
  }

  /** The dashboard of the function set: operations, broker, safety, events, watcher, session. */
  addDashboard(operations: readonly AnyOperation[]): cloudwatch.Dashboard {
    return addEventDashboard(this, operations);
  }

  addOutputs(): void {
    const stack = Stack.of(this);
    new CfnOutput(stack, 'EventBusName', {
      value: this.bus.eventBusName,
      description: 'The lifecycle events bus (source gtt-gateway): add your own rules here',
    });
    new CfnOutput(stack, 'EventBusArn', { value: this.bus.eventBusArn });
    new CfnOutput(stack, 'EventsTableName', { value: this.table.tableName });
    new CfnOutput(stack, 'EventArchiveName', {
      value: this.archive.archiveName,
      description: 'The last 30 days of lifecycle events, for aws events start-replay',
    });
    if (this.deadLetterQueue) {
      new CfnOutput(stack, 'WebhookDeadLetterQueueUrl', {
        value: this.deadLetterQueue.queueUrl,
        description: 'Events the webhook did not accept within 24 hours',
      });
    }
  }
}
