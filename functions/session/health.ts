/**
 * The pre-market health check: one ClientDetails call with the session the gateway would use, published as the
 * metric `SessionAlive` (1 or 0) so an alarm tells the trader at 9:00, not when an order fails.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Logger } from '@aws-lambda-powertools/logger';
import { buildBrokerRequest } from '../broker/jdata.js';
import { classifyBrokerFailure } from '../broker/reply.js';
import { SessionSource } from '../broker/session.js';
import { postToBroker } from '../broker/transport.js';
import { toGatewayError } from '../contract/errors.js';
import { parseSessionConfig } from './config.js';

export interface HealthResult {
  alive: boolean;
  checkedAt: string;
  /** Why the session is not usable: an error code of the contract, e.g. SESSION_EXPIRED. */
  code?: string;
  reason?: string;
}

export const METRIC_NAMESPACE = 'GttGateway';

export const createSessionHealthCheck = (options: { env?: Record<string, string | undefined>; logger: Logger; metrics?: Metrics }) => {
  const metrics = options.metrics ?? new Metrics({ namespace: METRIC_NAMESPACE, serviceName: 'gtt-gateway' });
  return async (): Promise<HealthResult> => {
    const config = parseSessionConfig(options.env ?? process.env);
    const checkedAt = new Date().toISOString();
    let result: HealthResult;
    try {
      // Read fresh: the check must see the token a renewal wrote minutes ago.
      const session = await new SessionSource({ secretId: config.BROKER_SECRET_ID, maxAgeSeconds: 1, endpoint: config.SECRETS_MANAGER_ENDPOINT }).refresh();
      const request = buildBrokerRequest(config.BROKER_BASE_URL, 'ClientDetails', { uid: session.uid, actid: session.actid }, session.accessToken, config.BROKER_AUTH);
      const reply = await postToBroker(request, config.BROKER_TIMEOUT_MS);
      const json = JSON.parse(reply.text) as { stat?: unknown; emsg?: unknown };
      if (json.stat === 'Ok') {
        result = { alive: true, checkedAt };
      } else {
        const failure = classifyBrokerFailure(typeof json.emsg === 'string' ? json.emsg : `stat ${String(json.stat)}`);
        result = { alive: false, checkedAt, code: failure.code, reason: failure.brokerMessage ?? failure.message };
      }
    } catch (error) {
      const failure = toGatewayError(error);
      result = { alive: false, checkedAt, code: failure.code, reason: failure.message };
    }
    metrics.addMetric('SessionAlive', MetricUnit.Count, result.alive ? 1 : 0);
    metrics.publishStoredMetrics();
    if (result.alive) options.logger.info('session alive', { health: result });
    else options.logger.warn('session dead', { health: result });
    return result;
  };
};
