/**
 * The whole function set on this machine: the embedded broker emulator, a local Secrets Manager endpoint holding
 * the emulator's demo session, dynalite holding the idempotency table, and the local HTTP API in front of the real handlers. Used by `npm start`, the
 * end-to-end tests and the benchmarks.
 */
import { startEmulator, type RunningEmulator } from '../emulator/server.js';
import { createGatewayHandler, type GatewayOptions } from '../functions/gateway.js';
import { dynamoIdempotency } from '../functions/safety/idempotency.js';
import { buildOpenApiDocument } from '../functions/openapi.js';
import { OPERATIONS } from '../functions/operations.js';
import type { AnyOperation } from '../functions/contract/operation.js';
import type { GatewaySettings } from '../functions/runtime/config.js';
import { startLocalApi, type LocalApi, type LocalHandler } from './http-api.js';
import { startLocalSecretsManager, type LocalSecretsManager } from './secrets-manager.js';
import { LOCAL_OAUTH_STATE_TABLE, startLocalDynamo, type LocalDynamo } from './dynamodb.js';
import { createOAuthHandler } from '../functions/session/oauth.js';
import { SESSION_FUNCTIONS } from '../functions/session/functions.js';
import { logger } from '../functions/runtime/logger.js';

export const LOCAL_SECRET_ID = 'gtt-gateway/broker-session';
export const LOCAL_OAUTH_APP_SECRET_ID = 'gtt-gateway/oauth-app';
export const LOCAL_LOGIN_SECRET_ID = 'gtt-gateway/login';

export interface LocalStackOptions {
  apiPort?: number;
  emulatorPort?: number;
  token?: string;
  /** Broker request timeout for the handlers (ms). */
  brokerTimeoutMs?: number;
  secretMaxAgeSeconds?: number;
  /** Extra settings by environment name (guardrails, IDEMPOTENCY_KEY_REQUIRED, ...). */
  settings?: GatewaySettings;
  gateway?: Omit<GatewayOptions, 'config'>;
}

export interface LocalStack {
  api: LocalApi;
  emulator: RunningEmulator;
  secrets: LocalSecretsManager;
  dynamo: LocalDynamo;
  config: GatewaySettings;
  handlers: Map<string, LocalHandler>;
  /** The environment of the session functions (for the TOTP renewal and health check run by hand or in tests). */
  sessionEnv: Record<string, string>;
  close(): Promise<void>;
}

/** The SDK needs a region and credentials even for a local endpoint; these never leave the machine. */
export const useLocalAwsEnvironment = (): void => {
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
};

export const startLocalStack = async (options: LocalStackOptions = {}): Promise<LocalStack> => {
  useLocalAwsEnvironment();
  const emulator = await startEmulator({ port: options.emulatorPort ?? 0, ...(options.token ? { token: options.token } : {}) });
  const secrets = await startLocalSecretsManager({
    secrets: {
      [LOCAL_SECRET_ID]: JSON.stringify({ accessToken: emulator.token, uid: emulator.uid, actid: emulator.actid }),
      // The emulator's OAuth app and TOTP login, as a deployment stores its own in their secrets.
      [LOCAL_OAUTH_APP_SECRET_ID]: JSON.stringify({ clientId: emulator.oauth.clientId, secretCode: emulator.oauth.secret, uid: emulator.uid }),
      [LOCAL_LOGIN_SECRET_ID]: JSON.stringify({
        uid: emulator.uid,
        password: emulator.login.password,
        totpSeed: emulator.login.totpSeed,
        apiSecret: emulator.login.apiSecret,
      }),
    },
  });
  const dynamo = await startLocalDynamo({ extraTables: [{ name: LOCAL_OAUTH_STATE_TABLE, key: 'state' }] });
  const config: GatewaySettings = {
    BROKER_BASE_URL: emulator.url,
    BROKER_SECRET_ID: LOCAL_SECRET_ID,
    BROKER_TIMEOUT_MS: options.brokerTimeoutMs ?? 8_000,
    SECRET_MAX_AGE_SECONDS: options.secretMaxAgeSeconds ?? 300,
    SECRETS_MANAGER_ENDPOINT: secrets.url,
    IDEMPOTENCY_TABLE_NAME: dynamo.tableName,
    DYNAMODB_ENDPOINT: dynamo.url,
    ...options.settings,
  };
  const handlers = new Map<string, LocalHandler>(
    OPERATIONS.map((op) => [op.name, createGatewayHandler(op, { idempotency: dynamoIdempotency, ...options.gateway, config })]),
  );
  const handlerFor = (op: AnyOperation): LocalHandler => handlers.get(op.name)!;
  const sessionEnv = {
    BROKER_BASE_URL: emulator.url,
    BROKER_SECRET_ID: LOCAL_SECRET_ID,
    BROKER_AUTHORIZE_URL: `${emulator.url}/OAuthlogin/authorize/oauth`,
    OAUTH_APP_SECRET_ID: LOCAL_OAUTH_APP_SECRET_ID,
    OAUTH_STATE_TABLE_NAME: LOCAL_OAUTH_STATE_TABLE,
    LOGIN_SECRET_ID: LOCAL_LOGIN_SECRET_ID,
    SECRETS_MANAGER_ENDPOINT: secrets.url,
    DYNAMODB_ENDPOINT: dynamo.url,
  };
  const oauth = createOAuthHandler({ env: sessionEnv, logger }) as LocalHandler;
  const oauthFunction = SESSION_FUNCTIONS.find((f) => f.name === 'OAuthCallback')!;
  const api = await startLocalApi({
    operations: OPERATIONS,
    handlerFor,
    port: options.apiPort ?? 0,
    openApi: (baseUrl) => buildOpenApiDocument(baseUrl),
    extraRoutes: oauthFunction.routes.map((r) => ({ method: r.method, path: r.path, name: oauthFunction.name, handler: oauth })),
  });
  // The app's registered redirect URL: the broker's login page sends the browser back to this local API.
  await fetch(`${emulator.url}/_emulator/oauth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirectUrl: `${api.url}/session/oauth/callback` }),
  });
  return {
    api,
    emulator,
    secrets,
    dynamo,
    config,
    handlers,
    sessionEnv,
    close: async () => {
      await api.close();
      await secrets.close();
      await dynamo.close();
      await emulator.close();
    },
  };
};
