/**
 * The Powertools Metrics of a function that is not an operation of the table (the watcher, the EventForwarder):
 * the deployment's namespace, the service dimension, and `Function` as its default dimension.
 */
import { Metrics } from '@aws-lambda-powertools/metrics';

import { metricNamespace, SERVICE_NAME } from '../schemas/names.js';

export const functionMetrics = (name: string): Metrics =>
  new Metrics({ namespace: metricNamespace(), serviceName: SERVICE_NAME, defaultDimensions: { Function: name } });
