/**
 * The one place a function's definition (functions/manifest/) becomes a Lambda: its GatewayFunction (entry, memory
 * class, timeout, the descriptions of its notes), its environment (the catalogue keys of `env.keys` resolved against
 * the stack's values, and the deployment's settings when `deploymentSettings`), its grants
 * (infra/constructs/grants.ts), its routes on the HTTP API (with their throttles and auth), its schedule (the
 * definition's, unless a deployment setting replaces it), its signal queue, and its alarms. What is really one
 * function's own (the SessionAlive alarm, the forwarder's stream, the formatter's rule) stays with the construct
 * that builds it.
 */
import { Duration, TimeZone } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type { Construct } from 'constructs';

import type { EnvValues } from '../../functions/base/runtime/env.js';
import { functionEnvironment } from '../../functions/base/runtime/env-given.js';
import { handlerFilePath } from '../../functions/manifest/handler-files.js';
import { type FunctionDefinition, type FunctionEntry, scheduleOf } from '../../functions/manifest/index.js';
import { addRoute, type GatewayApi } from './api.js';
import { integrationIdOf } from './function-notes.js';
import {
  addErrorsAlarm,
  GatewayFunction,
  type GatewayFunctionNetwork,
  LAMBDA_TIMEOUT,
  MEMORY_MB,
} from './gateway-function.js';
import { grantAll, type GrantOverrides, type GrantResources } from './grants.js';
import { InvokeThisFunctionOnly, SCHEDULE_RETRY } from './schedule.js';

/** Which of the manifest's `deployedWhen` conditions hold in this deployment. */
export type DeploymentChoices = Record<NonNullable<FunctionEntry['deployedWhen']>, boolean>;

/**
 * What the stack's functions are built from. `values`: the stack's resources and values by catalogue key
 * (functions/base/runtime/env.ts), filled as the stack makes them; a key a function reads must be present, even if
 * undefined (not set in this deployment, e.g. the broker's order rate without a preset).
 */
export interface FunctionWiring {
  values: EnvValues;
  /** The deployment's settings by name (guardrails, rates, `BROKER_AUTH`), for the functions that take them. */
  settings: Record<string, string>;
  resources: GrantResources;
  deployed: DeploymentChoices;
  network?: GatewayFunctionNetwork;
  api: GatewayApi;
  alarmAction: cloudwatch.IAlarmAction;
}

export const isDeployed = (entry: FunctionEntry, wiring: FunctionWiring): boolean =>
  entry.deployedWhen === undefined || wiring.deployed[entry.deployedWhen];

/** A function's environment: its catalogue keys from the stack's values, then the deployment's settings. */
export const environmentFor = (entry: FunctionEntry, wiring: FunctionWiring): Record<string, string> => {
  const missing = entry.env.keys.filter((key) => !Object.hasOwn(wiring.values, key));
  if (missing.length)
    throw new Error(`${entry.name} reads ${missing.join(', ')}, which the stack has no value for (yet)`);
  return functionEnvironment(entry.env, wiring.values, wiring.settings);
};

export interface ManifestFunctionOptions {
  /** Replaces the notes' description (the formatter's names its chat format). */
  description?: string;
  /** A function's own form of a grant (the Logout operation's statement id, the formatter's PutEvents). */
  grants?: GrantOverrides;
  /** Replaces its schedule's expression (India time): the deployment setting its schedule names (`setting`). */
  scheduleExpression?: string;
}

/** A missed run of a schedule with `retry: 'none'` is the next run's: no retry, never sent a minute late. */
const NO_RETRY = { retryAttempts: 0, maxEventAge: Duration.minutes(1) };

/** The function of `entry`, built in `scope` under its manifest name. */
export const addManifestFunction = (
  scope: Construct,
  entry: FunctionDefinition,
  wiring: FunctionWiring,
  options: ManifestFunctionOptions = {},
): GatewayFunction => {
  const { notes, alarms } = entry;
  const gatewayFunction = new GatewayFunction(scope, entry.name, {
    entry: handlerFilePath(entry),
    description: options.description ?? notes.description ?? `gtt-gateway: ${entry.summary}`,
    roleDescription: notes.roleDescription,
    logRetention: logs.RetentionDays.ONE_MONTH,
    memorySize: MEMORY_MB[entry.bundle.memory],
    timeout: entry.bundle.timeoutSeconds === undefined ? LAMBDA_TIMEOUT : Duration.seconds(entry.bundle.timeoutSeconds),
    environment: environmentFor(entry, wiring),
    ...(wiring.network ? { network: wiring.network } : {}),
  });
  const fn = gatewayFunction.function;
  grantAll(entry.name, gatewayFunction.role, entry.grants, wiring.resources, options.grants, entry.invokes);
  for (const route of entry.routes) addRoute(wiring.api, route, integrationIdOf(entry, route), fn, scope);

  const schedule = scheduleOf(entry);
  if (schedule) {
    // Its own role: it may invoke this one function (its unqualified ARN) and nothing else.
    const role = new iam.Role(scope, `${entry.name}SchedulerRole`, {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com'),
      description: `gtt-gateway: EventBridge Scheduler may invoke ${entry.name} only`,
    });
    new scheduler.Schedule(scope, `${entry.name}Schedule`, {
      description: `gtt-gateway: ${schedule.description} (India time)`,
      // The cron is India time: 08:15 IST stays 08:15 IST whatever the region's clock.
      schedule: scheduler.ScheduleExpression.expression(
        options.scheduleExpression ?? schedule.cron,
        TimeZone.ASIA_KOLKATA,
      ),
      // Exactly on time: a login or a check spread over a window could land after the market opens.
      timeWindow: scheduler.TimeWindow.off(),
      target: new InvokeThisFunctionOnly(fn, {
        role,
        ...(schedule.retry === 'none' ? NO_RETRY : SCHEDULE_RETRY),
        // The payload the function reads (the signal worker's sweep); none otherwise.
        ...(schedule.input ? { input: scheduler.ScheduleTargetInput.fromObject(schedule.input) } : {}),
      }),
    });
  }

  if (entry.trigger?.kind === 'queue') {
    const queue = wiring.resources.signalQueue;
    if (!queue) throw new Error(`${entry.name} consumes the signal queue, which the stack has not made`);
    // One signal per invocation; a failed one is reported alone and delivered again (then the dead-letter queue).
    fn.addEventSource(new SqsEventSource(queue, { batchSize: 1, reportBatchItemFailures: true }));
  }

  if (alarms.errors) addErrorsAlarm(scope, `${entry.name}Errors`, fn, alarms.errors, wiring.alarmAction);
  if (alarms.throttles)
    fn.metricThrottles({ period: Duration.minutes(5) })
      .createAlarm(scope, `${entry.name}Throttles`, {
        alarmDescription: `${entry.name}: invocations throttled by Lambda`,
        threshold: 1,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      })
      .addAlarmAction(wiring.alarmAction);
  return gatewayFunction;
};
