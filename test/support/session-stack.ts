/**
 * The session functions' stack on 127.0.0.1, as the session integration tests start it: the broker emulator, the
 * local Secrets Manager holding the broker session, the OAuth app and the login credentials of the emulator's demo
 * account under the file's own ids, and local DynamoDB with the OAuth state table; the functions' environment for
 * it; and the GET event of API Gateway that the OAuth and health handlers take.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

import { type RunningEmulator, startEmulator } from '../../emulator/server.js';
import { type LocalDynamo, startLocalDynamo } from '../../local/dynamodb.js';
import { useLocalAwsEnvironment } from '../../local/run-local.js';
import { type LocalSecretsManager, startLocalSecretsManager } from '../../local/secrets-manager.js';
import { type EmulatorControl, emulatorControl } from './emulator-control.js';

/** Where a test file keeps its session: the three secret ids and the OAuth state table. */
export interface SessionIds {
  session: string;
  app: string;
  login: string;
  stateTable: string;
}

/** A test file's own ids under `prefix`: `<prefix>/session`, `<prefix>/oauth-app`, `<prefix>/login`, `<prefix>-oauth-state`. */
export const sessionIds = (prefix: string): SessionIds => ({
  session: `${prefix}/session`,
  app: `${prefix}/oauth-app`,
  login: `${prefix}/login`,
  stateTable: `${prefix}-oauth-state`,
});

export interface SessionStack {
  emulator: RunningEmulator;
  control: EmulatorControl;
  secrets: LocalSecretsManager;
  dynamo: LocalDynamo;
  close: () => Promise<void>;
}

/** The OAuth app's secret for the emulator's client; `extra` adds or overrides fields. */
export const oauthAppSecret = (emulator: RunningEmulator, extra: Record<string, string> = {}): string =>
  JSON.stringify({ clientId: emulator.oauth.clientId, secretCode: emulator.oauth.secret, uid: emulator.uid, ...extra });

export const startSessionStack = async (ids: SessionIds): Promise<SessionStack> => {
  useLocalAwsEnvironment();
  const emulator = await startEmulator({ port: 0 });
  const secrets = await startLocalSecretsManager({
    secrets: {
      [ids.session]: JSON.stringify({ accessToken: emulator.token, uid: emulator.uid, actid: emulator.actid }),
      [ids.app]: oauthAppSecret(emulator),
      [ids.login]: JSON.stringify({
        uid: emulator.uid,
        password: emulator.login.password,
        totpSeed: emulator.login.totpSeed,
        apiSecret: emulator.login.apiSecret,
      }),
    },
  });
  const dynamo = await startLocalDynamo({ extraTables: [{ name: ids.stateTable, key: 'state' }] });
  return {
    emulator,
    control: emulatorControl(emulator.url),
    secrets,
    dynamo,
    close: async () => {
      await emulator.close();
      await secrets.close();
      await dynamo.close();
    },
  };
};

/** The session functions' environment for the stack; `extra` overrides any of it (the broker URLs, say). */
export const sessionEnv = (
  stack: SessionStack,
  ids: SessionIds,
  extra: Record<string, string> = {},
): Record<string, string> => ({
  BROKER_BASE_URL: stack.emulator.url,
  BROKER_SECRET_ID: ids.session,
  BROKER_TIMEOUT_MS: '2000',
  BROKER_AUTHORIZE_URL: `${stack.emulator.url}/OAuthlogin/authorize/oauth`,
  OAUTH_APP_SECRET_ID: ids.app,
  OAUTH_STATE_TABLE_NAME: ids.stateTable,
  LOGIN_SECRET_ID: ids.login,
  SECRETS_MANAGER_ENDPOINT: stack.secrets.url,
  DYNAMODB_ENDPOINT: stack.dynamo.url,
  ...extra,
});

/**
 * A GET of `path` as API Gateway hands it over; no query string parameters when `query` is empty; `sourceIp`: the
 * caller's address API Gateway reports (none when absent).
 */
export const httpGetEvent = (
  path: string,
  query: Record<string, string> = {},
  accept = 'application/json',
  sourceIp?: string,
): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: `GET ${path}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(query).toString(),
    headers: { accept },
    queryStringParameters: Object.keys(query).length ? query : undefined,
    requestContext: { http: { method: 'GET', path, ...(sourceIp === undefined ? {} : { sourceIp }) } },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;
