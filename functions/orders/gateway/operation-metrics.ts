/**
 * CloudWatch metrics (Powertools Metrics, EMF) of every invocation, dimension `Operation` (a default dimension of
 * the function's Metrics, set once, so no call adds it twice): `Requests`, `Succeeded`
 * or `Failed` (and `Errors` by `ErrorCode`), `BrokerLatency` and `BrokerAttempts` when the broker was called,
 * `GuardrailRejections`, `IdempotentReplays`, `EventsQueued` (the event is in the outbox), `EventsPublished` (the
 * outbox failed and the event went straight to the bus) and `EventQueueFailures` (neither: the watcher publishes it). Powertools' own
 * `logMetrics` middleware writes them out once per invocation.
 */
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

import { toGatewayError } from '../../base/contract/errors.js';
import type { RequestFacts, RequestObserver } from './context.js';

const brokerMetrics = (metrics: Metrics, state: RequestFacts) => {
  if (state.brokerMs !== undefined) metrics.addMetric('BrokerLatency', MetricUnit.Milliseconds, state.brokerMs);
  if (state.brokerAttempts !== undefined) metrics.addMetric('BrokerAttempts', MetricUnit.Count, state.brokerAttempts);
};

/** The success's event: queued in the outbox, published directly (the outbox failed), or neither. */
const eventMetrics = (metrics: Metrics, state: RequestFacts) => {
  if (state.event?.status === 'queued') metrics.addMetric('EventsQueued', MetricUnit.Count, 1);
  if (state.event?.status === 'published') metrics.addMetric('EventsPublished', MetricUnit.Count, 1);
  if (state.event?.status === 'failed') metrics.addMetric('EventQueueFailures', MetricUnit.Count, 1);
};

export const operationMetrics = (metrics: Metrics): RequestObserver => ({
  name: 'operationMetrics',
  after: (record) => {
    const state = record.facts;
    metrics.addMetric('Requests', MetricUnit.Count, 1);
    metrics.addMetric('Succeeded', MetricUnit.Count, 1);
    brokerMetrics(metrics, state);
    if (state.replayed) metrics.addMetric('IdempotentReplays', MetricUnit.Count, 1);
    eventMetrics(metrics, state);
  },
  onError: (record, error) => {
    const state = record.facts;
    const code = toGatewayError(error).code;
    metrics.addMetric('Requests', MetricUnit.Count, 1);
    metrics.addMetric('Failed', MetricUnit.Count, 1);
    brokerMetrics(metrics, state);
    eventMetrics(metrics, state);
    if (code === 'GUARDRAIL_REJECTED') metrics.addMetric('GuardrailRejections', MetricUnit.Count, 1);
    const byCode = metrics.singleMetric();
    // The single metric inherits the default dimensions (Operation, service); only the code is added.
    byCode.addDimension('ErrorCode', code);
    byCode.addMetric('Errors', MetricUnit.Count, 1);
  },
});
