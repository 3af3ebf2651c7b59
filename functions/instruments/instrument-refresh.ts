/**
 * The InstrumentRefresh Lambda (scheduled before the market opens): loads the day's symbol masters into the account's
 * copy of the instruments' rules and reads today's band and freeze quantity of the symbols the account has in use,
 * its pending GTTs and its live plans (functions/instruments/refresh.ts). Configuration read once per container (a
 * bad one is a clear CONFIGURATION_ERROR), the session read every run.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import * as z from 'zod';

import { callBroker } from '../base/broker/call-broker.js';
import { SessionSource } from '../base/broker/session.js';
import { shellHandler } from '../base/middleware/function-shell.js';
import { parseConfig } from '../base/runtime/config.js';
import { envSchema } from '../base/runtime/env.js';
import { writeLog } from '../base/runtime/logger.js';
import { functionMetrics } from '../base/runtime/metrics.js';
import { TERMINAL } from '../base/schemas/event-types.js';
import type { GttOrder } from '../base/schemas/reply.js';
import { memo } from '../base/schemas/values.js';
import { InstrumentCopy } from '../orders/instruments/copy.js';
import { getPendingGttOrders } from '../orders/operations.js';
import { PlanStore } from '../plans/store.js';
import { masterUrl } from './master.js';
import { refreshInstruments, type RefreshRun } from './refresh.js';

/** Its configuration schema (base/runtime/env.ts): the copy's table is required; the events table (plans) is not. */
export const instrumentRefreshEnv = envSchema(
  [
    'brokerBaseUrl',
    'brokerAuth',
    'brokerSecretId',
    'brokerTimeoutMs',
    'secretsManagerEndpoint',
    'dynamodbEndpoint',
    'instrumentsTableName',
    'symbolMasterUrl',
    'symbolMasterExchanges',
    'eventsTableName',
  ],
  { overrides: { instrumentsTableName: z.string().min(3, { error: 'must name the instruments table' }).max(255) } },
);

export interface InstrumentRefreshOptions {
  env?: Record<string, string | undefined>;
  logger: Logger;
  metrics?: Metrics;
  fetchImpl?: typeof fetch;
}

export const createInstrumentRefresh = (options: InstrumentRefreshOptions) => {
  const metrics = options.metrics ?? functionMetrics('InstrumentRefresh');
  const parts = memo(() => {
    const config = parseConfig(instrumentRefreshEnv, options.env, 'instrument refresh');
    return {
      config,
      copy: new InstrumentCopy({ tableName: config.instrumentsTableName, endpoint: config.dynamodbEndpoint }),
      plans: config.eventsTableName
        ? new PlanStore({ tableName: config.eventsTableName, endpoint: config.dynamodbEndpoint })
        : undefined,
      sessions: new SessionSource({
        secretId: config.brokerSecretId,
        maxAgeSeconds: 1,
        endpoint: config.secretsManagerEndpoint,
      }),
    };
  });
  return shellHandler<unknown, RefreshRun>(
    { logger: options.logger, metrics, logFailures: true, trigger: 'schedule' },
    async () => {
      const { config, copy, plans, sessions } = parts();
      const broker = {
        baseUrl: config.brokerBaseUrl,
        auth: config.brokerAuth,
        timeoutMs: () => config.brokerTimeoutMs,
        session: () => sessions.current(),
        refreshSession: () => sessions.refresh(),
      };
      const symbolsInUse = async () => {
        const [pending, stored] = await Promise.all([
          callBroker(getPendingGttOrders, {}, broker).then((r) => (r.result as { orders: GttOrder[] }).orders),
          plans ? plans.list() : Promise.resolve([]),
        ]);
        return [
          ...pending.map((o) => ({ exch: o.exch, tsym: o.tsym })),
          ...stored
            .filter((s) => !TERMINAL.includes(s.plan.state))
            .map((s) => ({ exch: s.plan.exch, tsym: s.plan.tsym })),
        ];
      };
      const run = await refreshInstruments({
        copy,
        broker,
        exchanges: config.symbolMasterExchanges,
        masterUrl: (exch) => masterUrl(exch, config.brokerBaseUrl, config.symbolMasterUrl),
        symbolsInUse,
        timeoutMs: Math.max(config.brokerTimeoutMs, 30_000),
        ...(options.fetchImpl ? { fetchImpl: options.fetchImpl } : {}),
      });
      const failures = [...run.masters.filter((m) => 'error' in m), ...run.inUse.failed];
      writeLog(options.logger, failures.length ? 'warn' : 'info', 'instrument copy refreshed', {
        day: run.day,
        masters: run.masters,
        refreshed: run.inUse.refreshed.length,
        failed: run.inUse.failed,
      });
      return run;
    },
  );
};
