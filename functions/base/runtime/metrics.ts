/**
 * The Powertools Metrics of a function that is not an operation of the table (the watcher, the EventForwarder):
 * the deployment's namespace, the service dimension, and `Function` as its default dimension.
 */
import { Metrics } from '@aws-lambda-powertools/metrics';

import { METRIC_NAMESPACE, SERVICE_NAME } from '../schemas/names.js';

/**
 * The namespace the functions write their metrics to: `METRIC_NAMESPACE` of their environment (a deployment per
 * broker account sets `GttGateway/<account>`, infra/settings/accounts.ts), else GttGateway.
 */
export const metricNamespace = (env: Readonly<Record<string, string | undefined>> = process.env): string =>
  env.METRIC_NAMESPACE || METRIC_NAMESPACE;

export const functionMetrics = (name: string): Metrics =>
  new Metrics({ namespace: metricNamespace(), serviceName: SERVICE_NAME, defaultDimensions: { Function: name } });
