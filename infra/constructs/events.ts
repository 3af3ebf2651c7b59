/**
 * The lifecycle events in the stack (docs/reference/events.md): the gateway's own EventBridge bus, the events table (published
 * markers and the watcher's state), the scheduled GttWatcher and the outbox's EventForwarder (from their manifest
 * entries), the optional webhook (rule -> API destination, with retries, a dead-letter queue and an alarm on it, in
 * infra/constructs/webhook.ts), and the CloudWatch dashboard of the function set's metrics
 * (infra/constructs/dashboard.ts).
 */
import { CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

import type { AnyOperation } from '../../functions/base/contract/operation.js';
import { EVENT_SOURCE } from '../../functions/base/schemas/events.js';
import { EVENT_FORWARDER } from '../../functions/events/forwarder/definition.js';
import { DEFAULT_WATCHER_SCHEDULE, GTT_WATCHER } from '../../functions/events/watcher/definition.js';
import { addEventDashboard } from './dashboard.js';
import type { GatewayFunction } from './gateway-function.js';
import { addManifestFunction, type FunctionWiring } from './manifest-function.js';
import { expiringTable } from './tables.js';
import { addEventWebhook, type WebhookSettings } from './webhook.js';

export { FORWARDER_EVENTS_TABLE_ACTIONS, WATCHER_EVENTS_TABLE_ACTIONS } from './grants.js';
export { checkWebhookUrl, WEBHOOK_RETRY, type WebhookSettings } from './webhook.js';
export { DEFAULT_WATCHER_SCHEDULE };

/** Deliveries of a stream batch before its records are given up (the watcher publishes what they carried). */
export const FORWARDER_RETRY_ATTEMPTS = 100;

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
  /** The stack's values and resources so far; the bus and the events table are added (`wiring`). */
  wiring: FunctionWiring;
  webhook?: WebhookSettings;
}

export class LifecycleEvents extends Construct {
  readonly bus: events.EventBus;
  readonly table: dynamodb.Table;
  /** Every lifecycle event of the last 30 days, for `aws events start-replay` (docs/reference/events.md#replay). */
  readonly archive: events.Archive;
  watcher?: GatewayFunction;
  forwarder?: GatewayFunction;
  readonly deadLetterQueue?: sqs.Queue;
  readonly webhookRule?: events.Rule;
  /** Slack and Telegram formats: the function that makes the message, and the rule that delivers it. */
  readonly notifyFormatter?: GatewayFunction;
  readonly notificationRule?: events.Rule;
  /** The stack's wiring with the bus and the events table: what the functions after this one are built from. */
  readonly wiring: FunctionWiring;

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
    this.wiring = {
      ...props.wiring,
      values: { ...props.wiring.values, eventBusName: this.bus.eventBusName, eventsTableName: this.table.tableName },
      resources: { ...props.wiring.resources, bus: this.bus, eventsTable: this.table },
    };
    if (props.webhook) {
      const { queue, rule, formatter, notificationRule } = addEventWebhook(this, this.bus, props.webhook, this.wiring);
      this.deadLetterQueue = queue;
      this.webhookRule = rule;
      if (formatter) this.notifyFormatter = formatter;
      if (notificationRule) this.notificationRule = notificationRule;
    }
  }

  /** The GttWatcher on its schedule (India time); it also carries the plans out. */
  addWatcher(schedule: string): GatewayFunction {
    // The deployment's `watcherSchedule` (its default is the definition's own schedule).
    this.watcher = addManifestFunction(this, GTT_WATCHER, this.wiring, { scheduleExpression: schedule });
    return this.watcher;
  }

  /**
   * The EventForwarder: the idempotency table's stream (completed records only, by the event source's filter) to
   * the bus. A record whose events were refused is delivered again (ReportBatchItemFailures, a failing batch split
   * in halves) for a day or 100 tries; after that the watcher's next run publishes what it carried.
   */
  addForwarder(idempotencyTable: dynamodb.ITable): GatewayFunction {
    const forwarder = addManifestFunction(this, EVENT_FORWARDER, this.wiring);
    forwarder.function.addEventSource(
      new DynamoEventSource(idempotencyTable, {
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
