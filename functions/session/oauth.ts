/**
 * The OAuth round trip of a deployment, one function on two routes:
 *
 * - `GET /session/oauth/start` (IAM-authorised): starts a login, answering the broker's login page for this app
 *   (its link form from the broker preset) with a fresh single-use `state` added.
 * - `GET /session/oauth/callback?code=…[&state=…]` (the one route without IAM auth: the broker's login page sends
 *   the trader's browser there). The live brokers are seen to redirect with `code` only, so:
 *   - with a `state`, that value must be one this function issued, unused and unexpired;
 *   - without one, a login must have been started within the login window and not yet completed (once). Anyone can
 *     call this route, so a callback whose code the broker refuses does not end that login: only a successful
 *     exchange does (or the window's end), and the login has no cap of attempts a stranger could use up. The broker
 *     calls junk costs are bounded per source address instead: one address takes `MAX_ATTEMPTS_PER_SOURCE` attempts
 *     on a login, then answers 429 and calls no broker, while the trader's redirect (another address) still goes
 *     through; all addresses together are held to the route's API Gateway throttle. Each refused callback is
 *     logged as a warning (never the code) and counted in the `OAuthCallbacksRefused` metric;
 *   - either way the code is exchanged at most once, and the session the broker returns must be this deployment's
 *     account (the app secret's `uid`/`actid`), or nothing is written.
 *   Other query parameters (brokers add some, e.g. `client`) are ignored: never echoed, never logged.
 *   The code is exchanged with GenAcsTok (`oauth` login) or Flattrade's token URL (`flattrade` login), and the new
 *   session is written as a new version of the session secret.
 *
 * Replies never carry a token, a code or the app's secret.
 */
import { isIPv6 } from 'node:net';

import type { Logger } from '@aws-lambda-powertools/logger';
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

import { authorizeLink } from '../base/broker/presets.js';
import type { GatewayError } from '../base/contract/errors.js';
import {
  RateLimitedError,
  SessionAccountMismatchError,
  toGatewayError,
  ValidationFailedError,
} from '../base/contract/errors.js';
import { shellHandler } from '../base/middleware/function-shell.js';
import { readRoutedRequest } from '../base/middleware/routed-request.js';
import { functionMetrics } from '../base/runtime/metrics.js';
import { type BrokerSession, type OAuthAppSecret, oauthAppSecretSchema } from '../base/schemas/session.js';
import { exchangeFlattradeCode, exchangeOAuthCode } from './broker-login.js';
import { parseSessionConfig, required, type SessionConfig } from './config.js';
import { MAX_ATTEMPTS_PER_SOURCE, OAuthStateStore } from './oauth-state.js';
import { publishSessionRenewed } from './renewed-event.js';
import { OAUTH_ROUTES } from './routes.js';
import { readJsonSecret, secretsClient, writeSession } from './secrets.js';

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
  headers: {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  },
  body: `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`,
});

const wantsHtml = (event: APIGatewayProxyEventV2) => /text\/html/.test(event.headers?.accept ?? '');

export interface OAuthHandlerOptions {
  env?: Record<string, string | undefined>;
  logger: Logger;
  /** Where `OAuthCallbacksRefused` goes (default: the deployment's namespace, dimension `Function`). */
  metrics?: Metrics;
}

/** Why a callback without `state` was refused: the `Reason` dimension of `OAuthCallbacksRefused`. */
type RefusedReason = 'NoLogin' | 'SourceLimit' | 'CodeRefused';

/**
 * The caller's source as API Gateway saw it (never a header the caller sets); `unknown` on a direct invocation. An
 * IPv6 address counts as its /64, the block one subscriber holds, so a caller cannot be many sources by rotating the
 * rest of it.
 */
export const sourceOf = (event: APIGatewayProxyEventV2): string => {
  const ip = (event.requestContext?.http?.sourceIp || 'unknown').toLowerCase();
  if (!isIPv6(ip) || ip.startsWith('::ffff:')) return ip;
  const [head = '', tail = ''] = ip.split('::');
  const front = head === '' ? [] : head.split(':');
  const back = tail === '' ? [] : tail.split(':');
  const groups = ip.includes('::')
    ? [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back]
    : front;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
};

export const createOAuthHandler = (options: OAuthHandlerOptions) => {
  const metrics = options.metrics ?? functionMetrics('OAuthCallback');
  /** One refused callback, published at once (a callback that succeeds publishes nothing). */
  const countRefused = (reason: RefusedReason): void => {
    try {
      const single = metrics.singleMetric();
      single.addDimension('Reason', reason);
      single.addMetric('OAuthCallbacksRefused', MetricUnit.Count, 1);
    } catch {
      // A metric never fails a login.
    }
  };
  let runtime:
    { config: SessionConfig; states: OAuthStateStore; secrets: ReturnType<typeof secretsClient> } | undefined;
  const init = () => {
    if (!runtime) {
      const config = parseSessionConfig(options.env);
      runtime = {
        config,
        states: new OAuthStateStore(
          required(config, 'oauthStateTableName'),
          config.oauthStateTtlSeconds,
          config.dynamodbEndpoint,
        ),
        secrets: secretsClient(config.secretsManagerEndpoint),
      };
    }
    return runtime;
  };

  const readApp = (config: SessionConfig, secrets: ReturnType<typeof secretsClient>) =>
    readJsonSecret(
      secrets,
      required(config, 'oauthAppSecretId'),
      oauthAppSecretSchema,
      '{clientId, secretCode, uid, actid?}',
    );

  const start = async (): Promise<APIGatewayProxyStructuredResultV2> => {
    // Unknown query parameters were refused by the request rules (readRoutedRequest) before this runs.
    const { config, states, secrets } = init();
    const app = await readApp(config, secrets);
    const { state, expiresAt } = await states.issue();
    const url = authorizeLink(required(config, 'brokerAuthorizeUrl'), { clientId: app.clientId, uid: app.uid });
    // Harmless to a broker that drops it; checked when a broker echoes it.
    url.searchParams.set('state', state);
    return json(200, {
      authorizeUrl: url.toString(),
      state,
      expiresAt: new Date(expiresAt * 1000).toISOString(),
      loginWindowSeconds: config.oauthStateTtlSeconds,
      uid: app.uid,
    });
  };

  /** The broker's session must be this deployment's account, or nothing is written. */
  const checkAccount = (session: BrokerSession, app: OAuthAppSecret): void => {
    const actid = app.actid ?? app.uid;
    if (session.uid === app.uid && session.actid === actid) return;
    throw new SessionAccountMismatchError(
      `This login is for account ${session.uid} (${session.actid}), but this deployment trades for ${app.uid} (${actid}): nothing was written. Sign in as ${app.uid}, then start again with GET /session/oauth/start.`,
      { details: [{ field: 'uid', message: `the broker's session is for another account than ${app.uid}` }] },
    );
  };

  const callback = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    // Only code and state are read; whatever else the broker adds is ignored and never echoed or logged.
    const query = event.queryStringParameters ?? {};
    const code = query.code ?? '';
    const state = query.state ?? '';
    if (state !== '' && !STATE.test(state)) {
      throw new ValidationFailedError(
        'The login link has a malformed state: start again with GET /session/oauth/start.',
        {
          details: [{ field: 'state', message: 'malformed' }],
        },
      );
    }
    if (!CODE.test(code)) {
      throw new ValidationFailedError('The broker sent no valid authorization code.', {
        details: [{ field: 'code', message: 'missing or malformed' }],
      });
    }
    const { config, states, secrets } = init();
    let attempt: number | undefined;
    let sourceAttempt: number | undefined;
    const source = sourceOf(event);
    const minutes = Math.round(config.oauthStateTtlSeconds / 60);
    // With a `state`, the login is consumed before anything else: a replayed or forged redirect stops here.
    // Without one, the callback takes one attempt on the pending login (bounded per source address); only a
    // successful exchange ends it.
    let pendingRef: string | undefined;
    if (state !== '') {
      if (!(await states.consume(state))) {
        throw new ValidationFailedError(
          'This login link was already used, has expired or was not issued here: start again with GET /session/oauth/start.',
          {
            details: [{ field: 'state', message: 'unknown, used or expired' }],
          },
        );
      }
    } else {
      const held = await states.attemptPending(source);
      if (!held.ok && held.reason === 'source-exhausted') {
        // This address only: the login keeps waiting for the trader's redirect from any other.
        options.logger.warn('oauth callback refused: too many attempts from one source', {
          oauthCallback: {
            outcome: 'source limit',
            source,
            attempt: held.attempt,
            sourceLimit: MAX_ATTEMPTS_PER_SOURCE,
          },
        });
        countRefused('SourceLimit');
        throw new RateLimitedError(
          `This address already sent ${MAX_ATTEMPTS_PER_SOURCE} redirects for this login, so it takes no more from here; the login still waits for a redirect from elsewhere. If you are signing in: start again with GET /session/oauth/start, then sign in at the broker.`,
          {
            details: [
              { field: 'code', message: `more than ${MAX_ATTEMPTS_PER_SOURCE} attempts from one address on one login` },
            ],
          },
        );
      }
      if (!held.ok) {
        countRefused('NoLogin');
        throw new ValidationFailedError(
          `No login was started here in the last ${minutes} minutes, or it was already completed: start again with GET /session/oauth/start.`,
          {
            details: [
              { field: 'state', message: `absent, and no login is waiting (the window is ${minutes} minutes)` },
            ],
          },
        );
      }
      pendingRef = held.ref;
      attempt = held.attempt;
      sourceAttempt = held.sourceAttempt;
    }
    const app = await readApp(config, secrets);
    const method = config.brokerLogin;
    let session: BrokerSession;
    try {
      if (!(await states.claimCode(code))) {
        throw new ValidationFailedError(
          'This authorization code was already used: start again with GET /session/oauth/start.',
          {
            details: [{ field: 'code', message: 'already used' }],
          },
        );
      }
      const target = { baseUrl: config.brokerBaseUrl, timeoutMs: config.brokerTimeoutMs };
      session =
        method === 'flattrade'
          ? await exchangeFlattradeCode(
              { tokenUrl: required(config, 'brokerTokenUrl'), timeoutMs: config.brokerTimeoutMs },
              app,
              code,
            )
          : await exchangeOAuthCode(target, app, code);
      checkAccount(session, app);
    } catch (error) {
      // A refused attempt leaves the pending login waiting for the trader's real redirect; it is logged (never the
      // code) so a flood of them shows.
      if (attempt !== undefined) {
        options.logger.warn('oauth callback refused: the login keeps waiting', {
          oauthCallback: {
            outcome: 'code refused',
            code: toGatewayError(error).code,
            source,
            attempt,
            sourceAttempt,
            sourceLimit: MAX_ATTEMPTS_PER_SOURCE,
          },
        });
        countRefused('CodeRefused');
      }
      throw error;
    }
    // The commit point: of two callbacks exchanging codes for one login, only the first here writes a session.
    if (pendingRef !== undefined && !(await states.completePending(pendingRef))) {
      throw new ValidationFailedError(
        'This login was already completed, or a newer one was started: start again with GET /session/oauth/start.',
        { details: [{ field: 'state', message: 'the pending login ended while this code was exchanged' }] },
      );
    }
    const renewedAt = new Date().toISOString();
    const versionId = await writeSession(secrets, config.brokerSecretId, { ...session, renewedAt, method });
    options.logger.info('session renewed', { session: { method, uid: session.uid, actid: session.actid } });
    await publishSessionRenewed(config, method, versionId, options.logger);
    const result = { stat: 'Ok', method, uid: session.uid, actid: session.actid, renewedAt };
    return wantsHtml(event)
      ? page(
          200,
          'Broker session renewed',
          `The gateway now trades for ${session.uid} (${session.actid}). You can close this window.`,
        )
      : json(200, result);
  };

  // The shell every function runs in (the invocation's context on each log line); errors are answered below.
  return shellHandler<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(
    { logger: options.logger, trigger: 'api' },
    async (event) => {
      const started = Date.now();
      const route = `${event.requestContext?.http?.method ?? '?'} ${event.rawPath ?? '?'}`;
      let response: APIGatewayProxyStructuredResultV2;
      let failure: GatewayError | undefined;
      try {
        // The request rules of every route (base/middleware/routed-request.ts); the callback's query is lenient.
        readRoutedRequest(OAUTH_ROUTES, event);
        if (route === 'GET /session/oauth/start') response = await start();
        else if (route === 'GET /session/oauth/callback') response = await callback(event);
        else response = json(404, { message: 'Not Found' });
      } catch (error) {
        failure = toGatewayError(error);
        response =
          wantsHtml(event) && route.endsWith('/callback')
            ? page(
                failure.status,
                'Broker session not renewed',
                // The page shows the broker's words beside the gateway's (the contract keeps them in brokerMessage).
                failure.brokerMessage === undefined
                  ? failure.message
                  : `${failure.message} The broker said: ${failure.brokerMessage}`,
              )
            : json(failure.status, { error: failure.toBody() });
      }
      try {
        options.logger.info('request', {
          access: {
            route,
            status: response.statusCode,
            latencyMs: Date.now() - started,
            ...(failure ? { code: failure.code } : {}),
          },
        });
      } catch {
        // Logging never fails a login.
      }
      return response;
    },
  );
};
