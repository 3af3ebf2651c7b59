/**
 * The EventForwarder Lambda: triggered by the idempotency table's stream (only COMPLETED records, by the event
 * source's filter), it publishes the outbox's events (events/core/forwarder.ts) and answers the records to deliver
 * again (ReportBatchItemFailures). Configuration is read once per container; metrics at the end of each batch.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

import { createEventPublisher, type EventPublisher } from '../../base/aws/publisher.js';
import { shellHandler } from '../../base/middleware/function-shell.js';
import { writeLog } from '../../base/runtime/logger.js';
import { functionMetrics } from '../../base/runtime/metrics.js';
import { memo } from '../../base/schemas/values.js';
import { forwardRecords, type ForwardResult, type OutboxRecord } from '../core/forwarder.js';
import { EventsTable } from '../core/store.js';
import { type ForwarderConfig, parseForwarderConfig } from './config.js';

export interface ForwarderOptions {
  env?: Record<string, string | undefined>;
  logger: Logger;
  metrics?: Metrics;
  /** Tests: a publisher in front of the real one (e.g. to refuse some events). */
  publisher?: (config: ForwarderConfig) => EventPublisher;
}

export interface StreamBatch {
  Records?: OutboxRecord[];
}

export const createEventForwarder = (options: ForwarderOptions) => {
  const metrics = options.metrics ?? functionMetrics('EventForwarder');
  const parts = memo(() => {
    const config = parseForwarderConfig(options.env);
    return {
      table: new EventsTable({ tableName: config.eventsTableName, endpoint: config.dynamodbEndpoint }),
      publisher:
        options.publisher?.(config) ??
        createEventPublisher({ busName: config.eventBusName, endpoint: config.eventbridgeEndpoint }),
    };
  });
  return shellHandler<StreamBatch, Pick<ForwardResult, 'batchItemFailures'>>(
    { logger: options.logger, metrics, logFailures: true, trigger: 'queue' },
    async (batch) => {
      const result = await forwardRecords(batch.Records ?? [], parts());
      metrics.addMetric('EventsPublished', MetricUnit.Count, result.published);
      metrics.addMetric('EventPublishFailures', MetricUnit.Count, result.failed.length);
      if (result.failed.length) {
        writeLog(options.logger, 'error', 'events not published; their records are delivered again', {
          failed: result.failed,
        });
      }
      if (result.markerError) {
        writeLog(options.logger, 'warn', 'events published, their markers not written (same eventId if repeated)', {
          reason: result.markerError,
        });
      }
      return { batchItemFailures: result.batchItemFailures };
    },
  );
};
