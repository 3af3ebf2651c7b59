/**
 * The function set on this machine, from the manifest (functions/manifest/): each function's environment from its
 * `env` keys (as infra/ builds it, with this machine's endpoints), and its handler, built in-process with a logger of
 * its own. The operation table's functions bind their operation to the gateway stack with the factories their entry
 * needs (as their generated handler files do); every other function that runs here has a factory below, and a
 * manifest function without one that should run here fails the start naming it.
 */
import type { Context } from 'aws-lambda';

import { usesTradingControls } from '../functions/contract/operation.js';
import { createEventsHistory } from '../functions/controls/events-history.js';
import { createKillSwitch } from '../functions/controls/kill-switch.js';
import { createGatewayEvents } from '../functions/events/producer.js';
import { createGatewayHandler, type GatewayOptions } from '../functions/gateway/gateway-handler.js';
import { dynamoInstrumentCopy } from '../functions/instruments/copy.js';
import { FUNCTIONS } from '../functions/manifest/index.js';
import type { FunctionEntry } from '../functions/manifest/types.js';
import { dynamoIdempotency } from '../functions/orders/journal-factory.js';
import { createPlansFunction } from '../functions/plans/function.js';
import type { GatewaySettings } from '../functions/runtime/config.js';
import { environmentOf, type EnvKey, type EnvValues } from '../functions/runtime/env.js';
import { functionEnvironment, LOCAL_ENDPOINT_KEYS } from '../functions/runtime/env-given.js';
import { createLogger, type GatewayLogger } from '../functions/runtime/logger.js';
import { dynamoTradingControls } from '../functions/safety/trading-controls.js';
import { createEndOfDayLogout } from '../functions/session/end-of-day.js';
import { createSessionHealthCheck } from '../functions/session/health.js';
import { createOAuthHandler } from '../functions/session/oauth.js';
import { createSessionRenewal } from '../functions/session/totp-login.js';
import { createStrategiesFunction } from '../functions/signals/strategies.js';
import { createSignalWebhook } from '../functions/signals/webhook.js';
import { createInstrumentRefresh } from '../functions/watcher/instrument-refresh.js';
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
const LOCAL_KEYS: readonly EnvKey[] = [...LOCAL_ENDPOINT_KEYS, 'secretMaxAgeSeconds'];

export interface LocalEnvironment {
  /** Every value of this machine, by catalogue key (the stack's resources in AWS). */
  values: EnvValues;
  /** The deployment's own settings, by name (guardrails, rates...), for the functions that take them. */
  settings?: GatewaySettings;
  /** Tests: variables by name for one function only (e.g. an unreachable table for the order functions). */
  overrides?: Readonly<Record<string, GatewaySettings>>;
}

const byName = (settings: GatewaySettings | undefined): Record<string, string> =>
  Object.fromEntries(
    Object.entries(settings ?? {}).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])),
  );

/**
 * The environment of one function, as infra/ builds it (functions/runtime/env-given.ts: its keys, the deployment's
 * settings with BROKER_AUTH) plus the local endpoints, then a test's overrides.
 */
export const environmentFor = (entry: FunctionEntry, local: LocalEnvironment): Record<string, string> => ({
  ...functionEnvironment(
    entry.env,
    local.values,
    { ...environmentOf({ brokerAuth: local.values.brokerAuth }), ...byName(local.settings) },
    LOCAL_KEYS,
  ),
  ...byName(local.overrides?.[entry.name]),
});

type Factory = (env: Record<string, string>, logger: GatewayLogger, gateway: LocalFunctionsOptions) => LocalHandler;

/** The functions other than the operation table's that run here, by manifest name (the watcher and forwarder: run-local.ts). */
const FACTORIES: Record<string, Factory> = {
  OAuthCallback: (env, logger) => createOAuthHandler({ env, logger }) as LocalHandler,
  SessionRenewal: (env, logger) => createSessionRenewal({ env, logger }) as LocalHandler,
  SessionHealth: (env, logger) => createSessionHealthCheck({ env, logger }) as LocalHandler,
  SessionLogout: (env, logger) => createEndOfDayLogout({ env, logger }) as LocalHandler,
  KillSwitch: (env, logger, options) =>
    createKillSwitch({ config: env, logger: options.gateway?.logger ?? logger }) as LocalHandler,
  EventsHistory: (env, logger) => createEventsHistory({ env, logger }) as LocalHandler,
  Plans: (env, logger) => createPlansFunction({ settings: env, logger }) as LocalHandler,
  Strategies: (env, logger) => createStrategiesFunction({ env, logger }) as LocalHandler,
  SignalWebhook: (env, logger) => createSignalWebhook({ env, logger }) as LocalHandler,
  InstrumentRefresh: (env, logger) => createInstrumentRefresh({ env, logger }) as LocalHandler,
};

/**
 * Run by run-local.ts itself (a schedule, a stream, the signal queue: local/sqs.ts, which also gives the SignalWorker's
 * handler for its sweep), or by the local event bus (the webhook's formats).
 */
const RUN_ELSEWHERE = new Set(['GttWatcher', 'EventForwarder', 'NotifyFormatter', 'SignalWorker']);

export interface LocalFunctionsOptions {
  /** Which optional functions this deployment has (`deployedWhen`). */
  deployed: (when: NonNullable<FunctionEntry['deployedWhen']>) => boolean;
  /** Test hooks of the gateway stack (a logger, metrics). */
  gateway?: Omit<GatewayOptions, 'config'>;
}

const operationHandler = (entry: FunctionEntry, env: Record<string, string>, options: LocalFunctionsOptions) => {
  const op = entry.operation!;
  // As the generated handler files bind them: the store, the producer and the governor only where the entry takes
  // keys, has a lifecycle event or writes orders, so a mismatch would show here too.
  return createGatewayHandler(op, {
    ...(op.idempotency ? { idempotency: dynamoIdempotency } : {}),
    ...(op.lifecycle ? { events: createGatewayEvents } : {}),
    ...(usesTradingControls(op) ? { controls: dynamoTradingControls } : {}),
    ...(op.guardedOrders ? { instruments: dynamoInstrumentCopy } : {}),
    ...options.gateway,
    config: env as GatewaySettings,
  });
};

/** The manifest's functions deployed here that answer routes or direct invocations, by name. */
export const localFunctions = (local: LocalEnvironment, options: LocalFunctionsOptions): Map<string, LocalHandler> => {
  const handlers = new Map<string, LocalHandler>();
  for (const entry of FUNCTIONS) {
    if (entry.deployedWhen && !options.deployed(entry.deployedWhen)) continue;
    if (RUN_ELSEWHERE.has(entry.name)) continue;
    const env = environmentFor(entry, local);
    if (entry.operation) {
      handlers.set(entry.name, operationHandler(entry, env, options));
      continue;
    }
    const factory = FACTORIES[entry.name];
    if (!factory) throw new Error(`The local stack has no factory for ${entry.name} (local/functions.ts FACTORIES)`);
    const log = ownFunctionLogger(entry.name);
    const handler = factory(env, log.logger, options);
    handlers.set(entry.name, (event, context) => handler(event, log.begin(context)));
  }
  return handlers;
};
