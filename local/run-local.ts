/**
 * The whole function set on this machine: the embedded broker emulator, a local Secrets Manager endpoint holding
 * the emulator's demo session, dynalite holding the idempotency, OAuth state and events tables, a local PutEvents
 * endpoint standing in for the event bus (and the webhook's API destination), the GttWatcher, and the local HTTP
 * API in front of the real handlers. Used by `npm start`, the end-to-end tests and the benchmarks.
 */

import { type RunningEmulator, startEmulator } from '../emulator/server.js';
import type { FunctionEntry } from '../functions/base/definition/types.js';
import type { GatewaySettings } from '../functions/base/runtime/config.js';
import { environmentOf } from '../functions/base/runtime/env.js';
import { memo } from '../functions/base/schemas/values.js';
import { EVENT_FORWARDER } from '../functions/events/forwarder/definition.js';
import { createEventForwarder } from '../functions/events/forwarder/function.js';
import { GTT_WATCHER } from '../functions/events/watcher/definition.js';
import { createGttWatcher } from '../functions/events/watcher/function.js';
import type { WatcherRun } from '../functions/events/watcher/watcher.js';
import { FUNCTIONS, routesOf, scheduleOf } from '../functions/manifest/index.js';
import { buildOpenApiDocument } from '../functions/manifest/openapi.js';
import { createPlanEngine } from '../functions/plans/engine-wiring.js';
import { SESSION_FUNCTIONS } from '../functions/session/definitions.js';
import { SIGNAL_WORKER } from '../functions/signals/definitions.js';
import { type LocalBroker, localBroker } from './broker-preset.js';
import { localConsole } from './console.js';
import {
  LOCAL_CONTROL_TABLE,
  LOCAL_EVENTS_TABLE,
  LOCAL_INSTRUMENTS_TABLE,
  LOCAL_OAUTH_STATE_TABLE,
  type LocalDynamo,
  startLocalDynamo,
} from './dynamodb.js';
import { type LocalEventBridge, startLocalEventBridge } from './eventbridge.js';
import { environmentFor, type LocalEnvironment, localFunctions, ownFunctionLogger } from './functions.js';
import { type LocalApi, type LocalHandler, startLocalApi } from './http-api.js';
import { lambdaContext } from './lambda-context.js';
import { apiAuthorizer, enforcePermissions, permissionsWanted } from './permissions/enforce.js';
import type { PermissionGate } from './permissions/gate.js';
import { LOCAL_RUN_PREFIX, repeat, scheduledRoutes } from './schedules.js';
import { type LocalSecretsManager, startLocalSecretsManager } from './secrets-manager.js';
import { type LocalQueue, localSignalWorker, startSignalQueue } from './sqs.js';

export { ownFunctionLogger } from './functions.js';
export { LOCAL_RUN_PREFIX } from './schedules.js';

export const LOCAL_SECRET_ID = 'gtt-gateway/broker-session';
export const LOCAL_OAUTH_APP_SECRET_ID = 'gtt-gateway/oauth-app';
export const LOCAL_LOGIN_SECRET_ID = 'gtt-gateway/login';
export const LOCAL_EVENT_BUS = 'gtt-gateway';

import type { LocalStackOptions } from './stack-options.js';

export type { LocalStackOptions };

export interface LocalStack {
  api: LocalApi;
  emulator: RunningEmulator;
  secrets: LocalSecretsManager;
  dynamo: LocalDynamo;
  config: GatewaySettings;
  /** What each function's environment is built from (local/functions.ts `environmentFor`; the bench's too). */
  local: LocalEnvironment;
  /** The broker preset as set up here (paths, auth style, login flow on the emulator's address). */
  broker: LocalBroker;
  handlers: Map<string, LocalHandler>;
  /**
   * The environment of the session functions (for the TOTP renewal and health check run by hand or in tests), with
   * the machine's own credentials: a run with it is not held to one function's permissions.
   */
  sessionEnv: Record<string, string>;
  eventBridge: LocalEventBridge;
  /** The signal queue: what the webhook sent, and the SignalWorker consuming it in-process (local/sqs.ts). */
  signalQueue: LocalQueue;
  /** The watcher's environment, and one run of it. */
  watcherEnv: Record<string, string>;
  /** The deployed permissions' gate (local/permissions/); undefined when turned off. */
  permissions?: PermissionGate;
  watch(): Promise<WatcherRun>;
  /**
   * Resolves once the outbox's events written so far went through the EventForwarder (the stream is delivered
   * asynchronously, as in AWS: an order's reply does not wait for its event).
   */
  eventsForwarded(): Promise<void>;
  /** One run of the scheduled TOTP login (SessionRenewal), with its own log context. */
  renew(): Promise<LocalRenewal>;
  close(): Promise<void>;
}

/** What a fresh login answers (the TOTP renewal's result, or the OAuth callback's). */
export interface LocalRenewal {
  stat: 'Ok';
  method: 'oauth' | 'flattrade' | 'totp';
  uid: string;
  actid: string;
  renewedAt: string;
}

/** The local API's answer to "where is the emulator": `{url}` (npm start only; a deployment has no such route). */
export const LOCAL_EMULATOR_ROUTE = '/_local/emulator';

/** The SDK needs a region and credentials even for a local endpoint; these never leave the machine. */
export const useLocalAwsEnvironment = (): void => {
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
};

export const startLocalStack = async (options: LocalStackOptions = {}): Promise<LocalStack> => {
  useLocalAwsEnvironment();
  // Checked before anything starts: a bad preset name is a usage error naming the presets.
  const { auth } = localBroker(options.broker, 'http://127.0.0.1', options.sessionRenewal);
  const emulator = await startEmulator({
    port: options.emulatorPort ?? 0,
    ...(options.token ? { token: options.token } : {}),
    // The demo session travels as the deployment sends it (a jKey deployment holds a jKey token).
    demoTokenStyle: auth,
    echoOAuthState: options.echoOAuthState ?? false,
    acceptAnySymbol: options.acceptAnySymbol ?? false,
    ...(options.dialect ? { dialect: options.dialect } : {}),
    ...(options.emulatorNow ? { now: options.emulatorNow } : {}),
    ...options.market,
  });
  const broker = localBroker(options.broker, emulator.url, options.sessionRenewal);
  const secrets = await startLocalSecretsManager({
    secrets: {
      [LOCAL_SECRET_ID]: JSON.stringify({ accessToken: emulator.token, uid: emulator.uid, actid: emulator.actid }),
      // The emulator's OAuth app and TOTP login, as a deployment stores its own in their secrets.
      [LOCAL_OAUTH_APP_SECRET_ID]: JSON.stringify({
        clientId: emulator.oauth.clientId,
        secretCode: emulator.oauth.secret,
        uid: emulator.uid,
      }),
      [LOCAL_LOGIN_SECRET_ID]: JSON.stringify({
        uid: emulator.uid,
        password: emulator.login.password,
        totpSeed: emulator.login.totpSeed,
        apiSecret: emulator.login.apiSecret,
      }),
    },
  });
  // The signal queue hands each message to the SignalWorker, built below once the environment is known.
  const signals = await startSignalQueue(options.signals);
  const signalQueue = signals.queue;
  const dynamo = await startLocalDynamo({
    extraTables: [
      { name: LOCAL_OAUTH_STATE_TABLE, key: 'state' },
      { name: LOCAL_EVENTS_TABLE, key: 'pk', sortKey: 'sk' },
      { name: LOCAL_CONTROL_TABLE, key: 'pk' },
      { name: LOCAL_INSTRUMENTS_TABLE, key: 'pk' },
    ],
  });
  const eventBridge = await startLocalEventBridge({
    busName: LOCAL_EVENT_BUS,
    webhookUrl: options.webhookUrl,
    ...(options.notify ? { notify: options.notify } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.onDeliveryProblem ? { onDeliveryProblem: options.onDeliveryProblem } : {}),
    ...(options.deadLetterFile ? { deadLetterFile: options.deadLetterFile } : {}),
    ...(options.onDeadLetter ? { onDeadLetter: options.onDeadLetter } : {}),
  });
  // This machine's values by the catalogue's keys (functions/base/runtime/env.ts): the stack's resources in AWS. Each
  // function gets the ones its manifest entry names (local/functions.ts), as infra/ gives them.
  const local: LocalEnvironment = {
    values: {
      brokerBaseUrl: broker.baseUrl,
      brokerAuth: broker.auth,
      brokerSecretId: LOCAL_SECRET_ID,
      brokerLogin: broker.login,
      brokerAuthorizeUrl: broker.authorizeUrl,
      brokerTokenUrl: broker.tokenUrl || undefined,
      oauthAppSecretId: LOCAL_OAUTH_APP_SECRET_ID,
      oauthStateTableName: LOCAL_OAUTH_STATE_TABLE,
      loginSecretId: LOCAL_LOGIN_SECRET_ID,
      brokerTimeoutMs: options.brokerTimeoutMs ?? 8_000,
      secretMaxAgeSeconds: options.secretMaxAgeSeconds ?? 300,
      secretsManagerEndpoint: secrets.url,
      idempotencyTableName: dynamo.tableName,
      dynamodbEndpoint: dynamo.url,
      eventBusName: LOCAL_EVENT_BUS,
      eventsTableName: LOCAL_EVENTS_TABLE,
      eventbridgeEndpoint: eventBridge.url,
      signalQueueUrl: signalQueue.queueUrl,
      sqsEndpoint: signalQueue.url,
      controlTableName: options.governor === false ? undefined : LOCAL_CONTROL_TABLE,
      instrumentsTableName: LOCAL_INSTRUMENTS_TABLE,
      // A broker that states its own order rate (its preset) sets the default; the deployment's setting wins.
      orderRatePerSecond: broker.rateLimits?.perSecond,
      orderRatePerMinute: broker.rateLimits?.perMinute,
      mcpOpenOnLoopback: options.mcpOpen === true ? true : undefined,
    },
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.overrides ? { overrides: options.overrides } : {}),
  };
  // The deployed permissions, held to on this machine: every function signs with its own credentials from here on.
  const functions = options.functions ?? FUNCTIONS;
  const permissions = permissionsWanted(options.permissions)
    ? await enforcePermissions(
        { dynamo, secrets, eventBridge, signalQueue },
        Object.fromEntries(functions.map((f) => [f.name, environmentFor(f, local)])),
        {
          record: options.recordPermissions ?? false,
          ...(options.adjustPermissions ? { adjust: options.adjustPermissions } : {}),
        },
      )
    : undefined;
  if (permissions) local.credentialsOf = permissions.credentialsOf;
  // Every value and setting together: what a test builds a handler of its own with.
  const config: GatewaySettings = { ...environmentOf(local.values), ...options.settings };
  const deployed = (when: NonNullable<FunctionEntry['deployedWhen']>): boolean =>
    when === 'totpRenewal' ? broker.totp : when !== 'notifyFormat';
  const handlers = localFunctions(functions, local, {
    deployed,
    ...(options.gateway?.logger ? { logger: options.gateway.logger } : {}),
  });
  // The session functions' environments together (tests run a renewal or a health check by hand with it): one
  // environment for several functions can carry no one function's credentials, so a run by hand calls AWS as the
  // machine's owner; the stack's own runs (`/_local/run/...`, renew()) sign as each function.
  const { credentialsOf: _own, ...asOwner } = local;
  const sessionEnv = Object.assign({}, ...SESSION_FUNCTIONS.map((f) => environmentFor(f, asOwner))) as Record<
    string,
    string
  >;
  const watcherEnv = environmentFor(GTT_WATCHER, local);
  // The transactional outbox's other half, as deployed: the EventForwarder on the idempotency table's stream, only
  // completed records (the event source mapping's filter), delivered again from a failure it reports.
  const forwarderLog = ownFunctionLogger('EventForwarder');
  const { maxAttempts, ...forwarderHooks } = options.forwarder ?? {};
  const forward = createEventForwarder({
    env: environmentFor(EVENT_FORWARDER, local),
    logger: forwarderLog.logger,
    ...forwarderHooks,
  });
  dynamo.streams.subscribe({
    table: dynamo.tableName,
    filter: (record) => record.dynamodb.NewImage?.status?.S === 'COMPLETED',
    handler: (batch) => forward(batch, forwarderLog.begin()),
    ...(maxAttempts ? { maxAttempts } : {}),
    onGiveUp: (record, reason) =>
      forwarderLog.logger.error('stream record given up after its retries', {
        sequenceNumber: record.dynamodb.SequenceNumber,
        reason,
      }),
  });
  // The SignalWorker on the signal queue, as the deployed event source mapping runs it (batch size 1); its sweep
  // (its schedule's payload) at POST /_local/run/SignalWorker, and every `sweepIntervalMs` when asked.
  const signalWorker = localSignalWorker(environmentFor(SIGNAL_WORKER, local), options.signals?.actor);
  signals.consumeWith(signalWorker.consumer);
  handlers.set(SIGNAL_WORKER.name, signalWorker.handler);
  const sweeping = options.sweepIntervalMs
    ? repeat(
        options.sweepIntervalMs,
        () => signalWorker.handler(scheduleOf(SIGNAL_WORKER)?.input, lambdaContext(SIGNAL_WORKER.name)),
        options.onSweepError,
      )
    : undefined;
  const watcherLog = ownFunctionLogger('GttWatcher');
  // The plans' steps run with the watcher, through the same stack as the API's order operations.
  const planEngine = memo(() => createPlanEngine(watcherEnv, watcherLog.logger));
  const runWatcherOnce = createGttWatcher({
    env: watcherEnv,
    logger: watcherLog.logger,
    plans: planEngine,
    ...options.watcher,
  });
  // A Lambda context of its own per run, as EventBridge Scheduler's invocations have; its scheduled run here is the
  // same instance (its test hooks, its plans' engine).
  const watch = (): Promise<WatcherRun> => runWatcherOnce(undefined, watcherLog.begin());
  if (handlers.has(GTT_WATCHER.name))
    handlers.set(GTT_WATCHER.name, (_event, context) => runWatcherOnce(undefined, watcherLog.begin(context)));
  // Runs never overlap here (the lease would turn the second away anyway): the next starts after the last ended.
  const watching = options.watchIntervalMs ? repeat(options.watchIntervalMs, watch, options.onWatcherError) : undefined;
  const api = await startLocalApi({
    functions: handlers,
    port: options.apiPort ?? 0,
    openApi: (baseUrl) => buildOpenApiDocument(baseUrl, functions),
    // The trader's console at /console/, built at its first request.
    pages: localConsole(),
    // A function's signed call to a route (the remote MCP server's tools) held to its api:invoke grants.
    ...(permissions ? { authorize: apiAuthorizer(permissions) } : {}),
    routes: [
      // Every route of the function set whose function runs here.
      ...routesOf(functions)
        .filter(({ fn }) => handlers.has(fn.name))
        .flatMap(({ fn, route }) =>
          // A route whose function answers its path's other methods (`anyMethod`) has an `ANY` route beside it.
          [route.method, ...(route.anyMethod ? ['ANY'] : [])].map((method) => ({
            method,
            path: route.path,
            name: fn.name,
            handler: handlers.get(fn.name)!,
            ...(route.auth === 'token' ? { textBody: true } : {}),
          })),
        ),
      // Where the sandbox's broker emulator listens (its port is random): `npm run gtt -- ltp` finds it here.
      {
        method: 'GET',
        path: LOCAL_EMULATOR_ROUTE,
        name: 'LocalEmulator',
        handler: () =>
          Promise.resolve({
            statusCode: 200,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ url: emulator.url }),
          }),
      },
      // Rehearsals of the scheduled runs (EventBridge Scheduler in AWS): `curl -X POST .../_local/run/SessionRenewal`.
      ...scheduledRoutes(handlers, functions),
    ],
  });
  // The app's registered redirect URL: the broker's login page sends the browser back to this local API.
  await fetch(`${emulator.url}/_emulator/oauth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirectUrl: `${api.url}/session/oauth/callback` }),
  });
  /** A fresh session the way this deployment logs in: the scheduled TOTP login, or a browser login done by a script. */
  const renew = async (): Promise<LocalRenewal> => {
    const run = async (path: string, init?: RequestInit) => {
      const res = await fetch(`${api.url}${path}`, init);
      const body = (await res.json()) as Record<string, unknown>;
      if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${JSON.stringify(body)}`);
      return body;
    };
    if (broker.totp)
      return (await run(`${LOCAL_RUN_PREFIX}SessionRenewal`, { method: 'POST' })) as unknown as LocalRenewal;
    const { authorizeUrl } = (await run('/session/oauth/start')) as { authorizeUrl: string };
    const signedIn = await fetch(authorizeUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        lgnusrid: emulator.uid,
        lgnpwd: emulator.login.password,
        lgnotp: emulator.emulator.login.currentOtp(),
      }).toString(),
    });
    const location = signedIn.headers.get('location');
    if (signedIn.status !== 302 || !location)
      throw new Error(`sign-in at the emulator failed: HTTP ${signedIn.status}`);
    const callback = new URL(location);
    return (await run(`${callback.pathname}${callback.search}`)) as unknown as LocalRenewal;
  };
  return {
    api,
    emulator,
    secrets,
    dynamo,
    config,
    local,
    broker,
    handlers,
    sessionEnv,
    eventBridge,
    signalQueue,
    watcherEnv,
    ...(permissions ? { permissions } : {}),
    watch,
    eventsForwarded: () => dynamo.streams.idle(),
    renew,
    close: async () => {
      await watching?.stop();
      await sweeping?.stop();
      await api.close();
      await signalQueue.drained();
      await signalQueue.close();
      await eventBridge.close();
      await secrets.close();
      await dynamo.close();
      await emulator.close();
    },
  };
};
