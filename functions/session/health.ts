/**
 * The pre-market health check: one ClientDetails call with the session the gateway would use, published as the
 * metric `SessionAlive` (1 or 0) so an alarm tells the trader at 9:00, not when an order fails. The same check
 * answers `GET /session` (IAM-authorised; `gtt session`): whose session it is, since when, alive or not, and the
 * guardrails the order functions run with. Never the token.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

import { callBroker } from '../base/broker/call-broker.js';
import { SessionSource } from '../base/broker/session.js';
import { toGatewayError } from '../base/contract/errors.js';
import { isHttpApiEvent } from '../base/contract/gateway-request.js';
import { shellHandler } from '../base/middleware/function-shell.js';
import { readRoutedRequest } from '../base/middleware/routed-request.js';
import { guardrailEnv, orderRateEnv, parseConfig } from '../base/runtime/config.js';
import { metricNamespace } from '../base/runtime/metrics.js';
import { SERVICE_NAME } from '../base/schemas/names.js';
import { clientDetails } from '../orders/operations.js';
import { type GuardrailsInForce, guardrailsInForce } from '../orders/safety/guardrails.js';
import { parseSessionConfig } from './config.js';
import { SESSION_HEALTH_ROUTES } from './routes.js';

export interface HealthResult {
  alive: boolean;
  checkedAt: string;
  /** The account of the session in the secret (absent when the secret cannot be read). */
  uid?: string;
  actid?: string;
  /** When and how our login functions wrote it (absent for a token put by hand). */
  since?: string;
  method?: string;
  /** When the session was logged out (the end-of-day logout, or a Logout call): until the next login. */
  loggedOutAt?: string;
  /** Why the session is not usable: an error code of the contract, e.g. SESSION_EXPIRED, or LOGGED_OUT. */
  code?: string;
  reason?: string;
  /** The guardrails the order functions of this deployment run with (the defaults unless it set its own). */
  guardrails?: GuardrailsInForce;
}

/** The governor's limits as GET /session shows them. */
const orderRateOf = (config: { orderRatePerSecond: number; orderRatePerMinute: number }) => ({
  perSecond: config.orderRatePerSecond,
  perMinute: config.orderRatePerMinute,
});

export const createSessionHealthCheck = (options: {
  env?: Record<string, string | undefined>;
  logger: Logger;
  metrics?: Metrics;
}) => {
  const metrics = options.metrics ?? new Metrics({ namespace: metricNamespace(), serviceName: SERVICE_NAME });
  /** `scheduled`: the pre-market run, which publishes SessionAlive (GET /session only answers: no metric, no alarm). */
  const check = async (scheduled: boolean): Promise<HealthResult> => {
    const config = parseSessionConfig(options.env);
    const checkedAt = new Date().toISOString();
    let result: HealthResult;
    let account: Pick<HealthResult, 'uid' | 'actid' | 'since' | 'method'> = {};
    try {
      // Read fresh: the check must see the token a renewal wrote minutes ago.
      const sessions = new SessionSource({
        secretId: config.brokerSecretId,
        maxAgeSeconds: 1,
        endpoint: config.secretsManagerEndpoint,
      });
      const session = await sessions.fresh();
      account = {
        uid: session.uid,
        actid: session.actid,
        ...(session.renewedAt ? { since: session.renewedAt } : {}),
        ...(session.method ? { method: session.method } : {}),
      };
      if (session.loggedOutAt !== undefined) {
        // Logged out on purpose (the end-of-day logout): said as such, and no broker call is made.
        result = {
          alive: false,
          checkedAt,
          ...account,
          loggedOutAt: session.loggedOutAt,
          code: 'LOGGED_OUT',
          reason: `Logged out for the night at ${session.loggedOutAt}: log in again before the market opens.`,
        };
        options.logger.info('session logged out', { health: result });
        // The pre-market check still counts it dead (nobody logged in this morning); at night nothing alarms.
        if (scheduled) metrics.addMetric('SessionAlive', MetricUnit.Count, 0);
        return result;
      }
      // The operation table's own ClientDetails: the same wire, reply decoding and error mapping as the gateway's.
      await callBroker(
        clientDetails,
        {},
        {
          baseUrl: config.brokerBaseUrl,
          auth: config.brokerAuth,
          timeoutMs: () => config.brokerTimeoutMs,
          session: () => Promise.resolve(session),
          refreshSession: () => sessions.refresh(),
        },
      );
      result = { alive: true, checkedAt, ...account };
    } catch (error) {
      const failure = toGatewayError(error);
      result = {
        alive: false,
        checkedAt,
        ...account,
        code: failure.code,
        reason: failure.brokerMessage ?? failure.message,
      };
    }
    // Written by the shell's logMetrics at the end of the invocation.
    if (scheduled) metrics.addMetric('SessionAlive', MetricUnit.Count, result.alive ? 1 : 0);
    if (result.alive) options.logger.info('session alive', { health: result });
    else options.logger.warn('session dead', { health: result });
    return result;
  };

  /**
   * Scheduled: the result, and SessionAlive in the shell's metrics. `GET /session`: the result as JSON, 200 whether
   * alive or not (the check worked), in a shell without metrics: it publishes none, so Powertools has nothing to
   * write (and no "No application metrics" warning on every asked check).
   */
  const scheduled = shellHandler<unknown, HealthResult>({ logger: options.logger, metrics, trigger: 'schedule' }, () =>
    check(true),
  );
  const asked = shellHandler<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(
    // A refusal is the error contract's reply, never cached either.
    { logger: options.logger, trigger: 'api', headers: { 'cache-control': 'no-store' } },
    async (event) => {
      // Bad input never reaches the broker: the request rules of every route (base/middleware/routed-request.ts).
      readRoutedRequest(SESSION_HEALTH_ROUTES, event);
      const result = {
        ...(await check(false)),
        guardrails: guardrailsInForce(parseConfig(guardrailEnv, options.env, 'guardrail')),
        orderRate: orderRateOf(parseConfig(orderRateEnv, options.env, 'order rate')),
      };
      return {
        statusCode: 200,
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
        body: JSON.stringify(result),
      };
    },
  );
  return (event?: unknown, context?: Context): Promise<HealthResult | APIGatewayProxyStructuredResultV2> =>
    isHttpApiEvent(event) ? asked(event, context) : scheduled(event, context);
};
