/**
 * The GttWatcher Lambda: configuration read once per container (a bad one is a clear CONFIGURATION_ERROR), the
 * session secret read once every run (a renewal minutes ago must be seen; never twice), and the run's metrics
 * written at its end.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Metrics } from '@aws-lambda-powertools/metrics';

import { createEventPublisher, type EventPublisher } from '../../base/aws/publisher.js';
import { SessionSource } from '../../base/broker/session.js';
import { toGatewayError } from '../../base/contract/errors.js';
import { shellHandler } from '../../base/middleware/function-shell.js';
import { deployedEnv, type GatewaySettings } from '../../base/runtime/config.js';
import { writeLog } from '../../base/runtime/logger.js';
import { functionMetrics } from '../../base/runtime/metrics.js';
import { memo } from '../../base/schemas/values.js';
import type { PlanEngine } from '../../plans/engine.js';
import { createPlanEngine } from '../../plans/engine-wiring.js';
import { createRiskCheckFor, type RiskCheck, type RiskRun } from '../../risk/check-wiring.js';
import { type CoverageDeps, createCoverage } from '../../risk/coverage-watch.js';
import { EventsTable } from '../core/store.js';
import { parseWatcherConfig, runsPlans, type WatcherConfig } from './config.js';
import { type CoverageStepRun, runCoverageStep } from './coverage-step.js';
import { runWatcher, type WatcherRun } from './watcher.js';

export interface WatcherOptions {
  env?: Record<string, string | undefined>;
  logger: Logger;
  metrics?: Metrics;
  /** Tests: a publisher in front of the real one (e.g. to refuse some events). */
  publisher?: (config: WatcherConfig) => EventPublisher;
  leaseMs?: number;
  /** The plans' engine (tests, the local runner); by default built from the environment when it has the tables. */
  plans?: () => PlanEngine | undefined;
  /** The day's limits' check (tests: one with its own clock); by default built like the plans' engine. */
  risk?: () => RiskCheck | undefined;
  /** The coverage step's reads and covers (tests); by default built from the environment beside the plans'. */
  coverage?: () => CoverageDeps | undefined;
}

export type PlanRun = Awaited<ReturnType<PlanEngine['advance']>>;

export const createGttWatcher = (options: WatcherOptions) => {
  const metrics = options.metrics ?? functionMetrics('GttWatcher');
  const env = options.env ?? deployedEnv();
  // Per container, built on first use: a bad configuration is a clean CONFIGURATION_ERROR of the first run.
  const parts = memo(() => {
    const config = parseWatcherConfig(env);
    return {
      config,
      table: new EventsTable({ tableName: config.eventsTableName, endpoint: config.dynamodbEndpoint }),
      publisher:
        options.publisher?.(config) ??
        createEventPublisher({ busName: config.eventBusName, endpoint: config.eventbridgeEndpoint }),
      // Every run reads the secret once, bypassing the cache (watcher.ts), so a renewed token is used at once.
      sessions: new SessionSource({
        secretId: config.brokerSecretId,
        maxAgeSeconds: 1,
        endpoint: config.secretsManagerEndpoint,
      }),
    };
  });
  // The plans' steps (functions/plans/), when the configuration has the order path's tables: their in-process
  // gateway reads the same environment, as the Plans function's does.
  const plans = memo(() =>
    options.plans !== undefined
      ? options.plans()
      : runsPlans(parts().config)
        ? createPlanEngine(env as GatewaySettings, options.logger)
        : undefined,
  );
  // The day's limits (functions/risk/): checked each run, before the plans act, with the same tables.
  const risk = memo(() =>
    options.risk !== undefined
      ? options.risk()
      : runsPlans(parts().config)
        ? createRiskCheckFor(env as GatewaySettings, options.logger)
        : undefined,
  );
  // Coverage (functions/risk/): the same order path's environment as the plans; its settings say whether it runs.
  const coverage = memo(() =>
    options.coverage !== undefined
      ? options.coverage()
      : runsPlans(parts().config)
        ? createCoverage(env as GatewaySettings, options.logger, 'GttWatcher')
        : undefined,
  );
  // A plans failure (their table or the broker unreachable) never fails the watcher's own run: logged, retried.
  const advancePlans = async (engine: PlanEngine, deadline: number): Promise<PlanRun> => {
    const done: PlanRun = await engine.advance(deadline).catch((error: unknown) => {
      const failure = toGatewayError(error);
      writeLog(options.logger, 'error', 'plans not advanced this run', {
        code: failure.code,
        message: failure.message,
      });
      return { acted: [], errors: [{ planId: '*', code: failure.code }] };
    });
    if (done.acted.length || done.errors.length || done.swept?.length || done.waiting?.length)
      writeLog(options.logger, 'info', 'plans advanced', { ...done });
    return done;
  };
  // The shell every function runs in: the run's Lambda context on each log line, its metrics written at its end,
  // and one line if it fails.
  return shellHandler<unknown, WatcherRun & { plans?: PlanRun; risk?: RiskRun; coverage?: CoverageStepRun }>(
    { logger: options.logger, metrics, logFailures: true, trigger: 'schedule' },
    async (_event, context) => {
      // The lease outlives the function's 12 s timeout, and expires before the next minute's run.
      const run = await runWatcher({ ...parts(), logger: options.logger, metrics, leaseMs: options.leaseMs ?? 30_000 });
      // A run turned away (another holds the lease) or without a session leaves the plans to the next one.
      if (run.status !== 'ok' && run.status !== 'baseline') return run;
      // The day's limits, the plans and coverage act within this invocation's own deadline (a context-less call: the
      // deployed 12 s).
      const deadline = () =>
        Date.now() +
        (typeof context.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : 12_000);
      // The day's limits first (a run that saw fills checks them now, before any plan places more): a failed check
      // never fails the watcher's own run; it is logged and the next run checks again.
      const risked = await checkRisk(risk(), deadline());
      const ran = risked ? { ...run, risk: risked } : run;
      const engine = plans();
      const done = engine ? { ...ran, plans: await advancePlans(engine, deadline()) } : ran;
      // Coverage after the plans' steps, so an exit a plan placed this run counts; its settings say whether it runs.
      const cover = coverage();
      const checked = cover
        ? await runCoverageStep({ ...parts(), coverage: cover, logger: options.logger }, deadline())
        : undefined;
      return checked ? { ...done, coverage: checked } : done;
    },
  );

  async function checkRisk(check: RiskCheck | undefined, deadline: number): Promise<RiskRun | undefined> {
    if (!check) return undefined;
    const done = await check(deadline).catch((error: unknown): RiskRun => {
      const failure = toGatewayError(error);
      writeLog(options.logger, 'error', "the day's limits not checked this run", {
        code: failure.code,
        message: failure.message,
      });
      return { status: 'unchecked', reason: `${failure.code}: ${failure.message}` };
    });
    if (done.status !== 'off') writeLog(options.logger, 'info', "the day's limits checked", { ...done });
    return done;
  }
};
