/**
 * The CloudWatch dashboard of the function set's metrics (operations, broker, safety, events, watcher, session),
 * built inside LifecycleEvents (its scope), so the construct ids stay where they were.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';

import type { AnyOperation } from '../../functions/base/contract/operation.js';
import { SERVICE_NAME } from '../../functions/base/schemas/names.js';
import { accountOf, metricNamespaceOf } from '../settings/accounts.js';

/** The dashboard of the function set: operations, broker, safety, events, watcher, session. */
export const addEventDashboard = (scope: Construct, operations: readonly AnyOperation[]): cloudwatch.Dashboard => {
  const metric = (name: string, dimensions: Record<string, string>, statistic = 'Sum') =>
    new cloudwatch.Metric({
      namespace: metricNamespaceOf(accountOf(Stack.of(scope).node.tryGetContext('account'))),
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
  const dashboard = new cloudwatch.Dashboard(scope, 'Dashboard', {
    dashboardName: `gtt-gateway-${Stack.of(scope).stackName}`,
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
  // The order functions queue their events in the outbox; the EventForwarder and the watcher publish.
  const forwarder = { Function: 'EventForwarder' };
  dashboard.addWidgets(
    graph('Events queued (outbox) / not queued', [
      ...perOperation('EventsQueued', 'Sum', orderOps),
      ...perOperation('EventQueueFailures', 'Sum', orderOps).map((m) => m.with({ label: `${m.label} failed` })),
    ]),
    graph('Events published / publish failures', [
      metric('EventsPublished', forwarder).with({ label: 'EventForwarder' }),
      metric('EventsPublished', watcher).with({ label: 'GttWatcher' }),
      metric('EventPublishFailures', forwarder).with({ label: 'EventForwarder failed' }),
      metric('EventPublishFailures', watcher).with({ label: 'GttWatcher failed' }),
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
};
