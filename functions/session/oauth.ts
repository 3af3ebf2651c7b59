/**
 * The OAuth round trip of a deployment, one function on two routes:
 *
 * - `GET /session/oauth/start` (IAM-authorised): a fresh single-use `state` and the broker's authorize URL with it.
 * - `GET /session/oauth/callback?code=…&state=…` (the one route without IAM auth: the broker's login page sends
 *   the trader's browser there): consumes the `state`, exchanges the code with GenAcsTok and writes
 *   `{accessToken, uid, actid}` as a new version of the session secret. An unknown, used or expired `state`
 *   writes nothing and calls no broker.
 *
 * Replies never carry a token, a code or the app's secret.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { GatewayError} from '../contract/errors.js';
import { ValidationFailedError, toGatewayError } from '../contract/errors.js';
import type { Logger } from '@aws-lambda-powertools/logger';
import { oauthAppSecretSchema } from '../schemas/session.js';
import { exchangeOAuthCode } from './broker-login.js';
import { parseSessionConfig, required, type SessionConfig } from './config.js';
import { OAuthStateStore } from './oauth-state.js';
import { readJsonSecret, secretsClient, writeSession } from './secrets.js';
import { publishSessionRenewed } from './renewed-event.js';

const CODE = /^[A-Za-z0-9._~-]{4,256}$/;
const STATE = /^[A-Za-z0-9_-]{43}$/;

const json = (status: number, body: unknown): APIGatewayProxyStructuredResultV2 => ({
  statusCode: status,
  headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  body: JSON.stringify(body),
});

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (status: number, title: string, text: string): APIGatewayProxyStructuredResultV2 => ({
  statusCode: status,
  headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
  body: `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`,
});

const wantsHtml = (event: APIGatewayProxyEventV2) => /text\/html/.test(event.headers?.accept ?? '');

export interface OAuthHandlerOptions {
  env?: Record<string, string | undefined>;
  logger: Logger;
}

export const createOAuthHandler = (options: OAuthHandlerOptions) => {
  let runtime: { config: SessionConfig; states: OAuthStateStore; secrets: ReturnType<typeof secretsClient> } | undefined;
  const init = () => {
    if (!runtime) {
      const config = parseSessionConfig(options.env ?? process.env);
      runtime = {
        config,
        states: new OAuthStateStore(required(config, 'OAUTH_STATE_TABLE_NAME'), config.OAUTH_STATE_TTL_SECONDS, config.DYNAMODB_ENDPOINT),
        secrets: secretsClient(config.SECRETS_MANAGER_ENDPOINT),
      };
    }
    return runtime;
  };

  const start = async (): Promise<APIGatewayProxyStructuredResultV2> => {
    const { config, states, secrets } = init();
    const app = await readJsonSecret(secrets, required(config, 'OAUTH_APP_SECRET_ID'), oauthAppSecretSchema, '{clientId, secretCode, uid}');
    const { state, expiresAt } = await states.issue();
    const url = new URL(required(config, 'BROKER_AUTHORIZE_URL'));
    url.searchParams.set('client_id', app.clientId);
    url.searchParams.set('state', state);
    return json(200, { authorizeUrl: url.toString(), state, expiresAt: new Date(expiresAt * 1000).toISOString() });
  };

  const callback = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const query = event.queryStringParameters ?? {};
    const unknown = Object.keys(query).filter((name) => !['code', 'state', 'client'].includes(name));
    if (unknown.length) {
      throw new ValidationFailedError(`Unknown query parameter ${unknown.join(', ')}.`, {
        details: unknown.map((field) => ({ field, message: 'not a parameter of the OAuth callback' })),
      });
    }
    const code = query.code ?? '';
    const state = query.state ?? '';
    if (!STATE.test(state)) {
      throw new ValidationFailedError('The login link has no valid state: start again with GET /session/oauth/start.', {
        details: [{ field: 'state', message: 'missing or malformed' }],
      });
    }
    if (!CODE.test(code)) {
      throw new ValidationFailedError('The broker sent no valid authorization code.', { details: [{ field: 'code', message: 'missing or malformed' }] });
    }
    const { config, states, secrets } = init();
    // Consumed before anything else: a replayed redirect finds it gone and stops here.
    if (!(await states.consume(state))) {
      throw new ValidationFailedError('This login link was already used, has expired or was not issued here: start again with GET /session/oauth/start.', {
        details: [{ field: 'state', message: 'unknown, used or expired' }],
      });
    }
    const app = await readJsonSecret(secrets, required(config, 'OAUTH_APP_SECRET_ID'), oauthAppSecretSchema, '{clientId, secretCode, uid}');
    const session = await exchangeOAuthCode({ baseUrl: config.BROKER_BASE_URL, timeoutMs: config.BROKER_TIMEOUT_MS }, app, code);
    const versionId = await writeSession(secrets, config.BROKER_SECRET_ID, session);
    options.logger.info('session renewed', { session: { method: 'oauth', uid: session.uid, actid: session.actid } });
    await publishSessionRenewed(config, 'oauth', versionId, options.logger);
    const result = { stat: 'Ok', method: 'oauth', uid: session.uid, actid: session.actid, renewedAt: new Date().toISOString() };
    return wantsHtml(event)
      ? page(200, 'Broker session renewed', `The gateway now trades for ${session.uid} (${session.actid}). You can close this window.`)
      : json(200, result);
  };

  return async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const started = Date.now();
    const route = `${event.requestContext?.http?.method ?? '?'} ${event.rawPath ?? '?'}`;
    let response: APIGatewayProxyStructuredResultV2;
    let failure: GatewayError | undefined;
    try {
      if (route === 'GET /session/oauth/start') response = await start();
      else if (route === 'GET /session/oauth/callback') response = await callback(event);
      else response = json(404, { message: 'Not Found' });
    } catch (error) {
      failure = toGatewayError(error);
      response = wantsHtml(event) && route.endsWith('/callback')
        ? page(failure.status, 'Broker session not renewed', failure.message)
        : json(failure.status, { error: failure.toBody() });
    }
    try {
      options.logger.info('request', { access: { route, status: response.statusCode, latencyMs: Date.now() - started, ...(failure ? { code: failure.code } : {}) } });
    } catch {
      // Logging never fails a login.
    }
    return response;
  };
};
