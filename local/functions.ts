/**
 * The function set on this machine, from the functions' definitions (functions/manifest/): each function's
 * environment from its `env` keys (as infra/ builds it, with this machine's endpoints), and its handler, built
 * in-process by its definition's own factory, `create({ env, logger })`, with a logger of its own. The functions
 * started by a stream, the signal queue or a bus rule are run by those (run-local.ts, local/sqs.ts, the local event
 * bus), with their test hooks.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';

import { type AwsCredentials, withCredentials } from '../functions/base/aws/endpoint.js';
import type { FunctionDefinition, FunctionEntry } from '../functions/base/definition/types.js';
import type { GatewaySettings } from '../functions/base/runtime/config.js';
import { environmentOf, type EnvKey, envName, type EnvValues } from '../functions/base/runtime/env.js';
import { functionEnvironment, LOCAL_ENDPOINT_KEYS, LOCAL_ONLY_KEYS } from '../functions/base/runtime/env-given.js';
import { createLogger, type GatewayLogger } from '../functions/base/runtime/logger.js';
import type { LocalHandler } from './http-api.js';
import { lambdaContext } from './lambda-context.js';

/**
 * In Lambda each function has its own process, so its logger carries only its own context. Here they share one
 * process, and the gateway's handlers put their Lambda context (function name, request id) on the function set's
 * logger: a watcher or session-function line written through that logger would carry the last handler's name and a
 * stale request id. So each of those functions gets a logger of its own, given a fresh context of its own at every
 * invocation (or the context the local API invoked it with).
 */
export const ownFunctionLogger = (name: string): { logger: GatewayLogger; begin: (context?: Context) => Context } => {
  const own = createLogger();
  return {
    logger: own,
    begin: (context = lambdaContext(name)) => {
      own.addContext(context);
      return context;
    },
  };
};

/** What every function gets here beside what a deployment gives it: the local endpoints and the secret's cache. */
const LOCAL_KEYS: readonly EnvKey[] = [...LOCAL_ONLY_KEYS, 'secretMaxAgeSeconds'];

export interface LocalEnvironment {
  /** Every value of this machine, by catalogue key (the stack's resources in AWS). */
  values: EnvValues;
  /** The deployment's own settings, by name (guardrails, rates...), for the functions that take them. */
  settings?: GatewaySettings;
  /** Tests: variables by name for one function only (e.g. an unreachable table for the order functions). */
  overrides?: Readonly<Record<string, GatewaySettings>>;
  /**
   * The deployed permissions enforced (local/permissions/): each function's own credentials, carried by its
   * endpoints' URLs (functions/base/aws/endpoint.ts). Absent: the process's credentials, nothing checked.
   */
  credentialsOf?: (name: string) => AwsCredentials;
}

const byName = (settings: GatewaySettings | undefined): Record<string, string> =>
  Object.fromEntries(
    Object.entries(settings ?? {}).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])),
  );

/**
 * The environment of one function, as infra/ builds it (functions/base/runtime/env-given.ts: its keys, the deployment's
 * settings with BROKER_AUTH) plus the local endpoints, then a test's overrides.
 */
export const environmentFor = (entry: FunctionEntry, local: LocalEnvironment): Record<string, string> => {
  const env: Record<string, string> = {
    ...functionEnvironment(
      entry.env,
      local.values,
      { ...environmentOf({ brokerAuth: local.values.brokerAuth }), ...byName(local.settings) },
      LOCAL_KEYS,
    ),
    ...byName(local.overrides?.[entry.name]),
  };
  const credentials = local.credentialsOf?.(entry.name);
  if (credentials)
    for (const name of LOCAL_ENDPOINT_KEYS.map(envName))
      if (env[name]) env[name] = withCredentials(env[name], credentials);
  return env;
};

/** Run by the source that starts them here (their deployed event sources: a stream, the signal queue, a bus rule). */
export const startedBySource = (entry: FunctionEntry): boolean =>
  entry.trigger?.kind === 'stream' || entry.trigger?.kind === 'queue' || entry.trigger?.kind === 'rule';

export interface LocalFunctionsOptions {
  /** Which optional functions this deployment has (`deployedWhen`). */
  deployed: (when: NonNullable<FunctionEntry['deployedWhen']>) => boolean;
  /** Tests: the logger every function writes to (in place of one of its own each), to read what they log. */
  logger?: Logger;
}

/** The functions of `functions` deployed here that answer routes, schedules or direct invocations, by name. */
export const localFunctions = (
  functions: readonly FunctionDefinition[],
  local: LocalEnvironment,
  options: LocalFunctionsOptions,
): Map<string, LocalHandler> => {
  const handlers = new Map<string, LocalHandler>();
  for (const entry of functions) {
    if (entry.deployedWhen && !options.deployed(entry.deployedWhen)) continue;
    if (startedBySource(entry)) continue;
    const log = ownFunctionLogger(entry.name);
    const handler = entry.create({ env: environmentFor(entry, local), logger: options.logger ?? log.logger });
    handlers.set(entry.name, (event, context) => handler(event, log.begin(context)));
  }
  return handlers;
};
