/**
 * The manifest's session functions: they make, check or end the session the other functions trade with, so they
 * are not broker operations with it. The OAuth callback is the one route without IAM auth.
 */
import type { EnvKey } from '../runtime/env.js';
import { oauthCallbackResult, oauthStartResult, sessionStatusResult } from '../schemas/session.js';
import { factoryWithLogger } from './routes.js';
import type { FunctionEntry, Route } from './types.js';

/** NSE's equity and F&O sessions end at 15:30 India time; MCX trades until 23:30 (then -c endOfDayLogout=cron(...)). */
export const END_OF_DAY_LOGOUT_CRON = 'cron(0 16 ? * MON-FRI *)';
/** The callback is hit by one browser once a morning: keep it far below anything abusive. */
export const CALLBACK_ROUTE_THROTTLE = { rateLimit: 2, burstLimit: 5 } as const;

const sessionRoute = (
  r: Omit<Route, 'query' | 'pathParams' | 'body' | 'successStatus' | 'dryRun' | 'example'> & Partial<Route>,
): Route => ({
  query: [],
  pathParams: {},
  body: false,
  successStatus: 200,
  dryRun: false,
  example: {},
  ...r,
});

/** What every session function reads: where the broker is, the session secret, how the token travels. */
const SESSION_ENV: EnvKey[] = ['brokerBaseUrl', 'brokerSecretId', 'brokerAuth'];

export const OAUTH: FunctionEntry = {
  name: 'OAuthCallback',
  id: 'oauth',
  summary: "OAuth login: start a login (the broker's login page); exchange the redirect's code for a token",
  routes: [
    sessionRoute({
      method: 'GET',
      path: '/session/oauth/start',
      auth: 'iam',
      operationId: 'StartLogin',
      action: 'start',
      // A new login value each time, nothing at the broker: a repeat only starts a newer login.
      kind: 'read',
      retrySafe: true,
      summary:
        "Start a browser login: the broker's login page for this app (open it, sign in; the broker redirects to the callback)",
      result: oauthStartResult,
    }),
    sessionRoute({
      method: 'GET',
      path: '/session/oauth/callback',
      auth: 'none',
      operationId: 'CompleteLogin',
      action: 'callback',
      // Exchanges a code (once): never repeated automatically.
      kind: 'session',
      retrySafe: false,
      summary:
        "Where the broker's login page redirects (code, and state when the broker echoes it): exchanges the code and writes the session. HTML for a browser (Accept: text/html), JSON otherwise.",
      result: oauthCallbackResult,
      query: ['code', 'state'],
      requiredQuery: ['code'],
      example: { query: { code: 'example-code' } },
      throttle: CALLBACK_ROUTE_THROTTLE,
      lenientQuery: true,
    }),
  ],
  env: {
    keys: [
      ...SESSION_ENV,
      'oauthAppSecretId',
      'brokerAuthorizeUrl',
      'brokerLogin',
      'brokerTokenUrl',
      'oauthStateTableName',
      'oauthStateTtlSeconds',
      'eventBusName',
    ],
    deploymentSettings: false,
  },
  grants: ['sessionSecret:write', 'oauthAppSecret:read', 'bus:publish', 'oauthStateTable'],
  bundle: {
    memory: 'standard',
    handler: factoryWithLogger('../session/oauth.js', 'createOAuthHandler'),
  },
};

export const SESSION_RENEWAL: FunctionEntry = {
  name: 'SessionRenewal',
  id: 'session-renewal',
  summary: 'Classic deployments: log in with QuickAuth (password, TOTP) before the market opens',
  routes: [],
  // 08:15 IST, Monday to Friday: after the broker's overnight session reset, before pre-open at 09:00.
  trigger: { kind: 'schedule', cron: 'cron(15 8 ? * MON-FRI *)', description: 'TOTP login before the market opens' },
  env: { keys: [...SESSION_ENV, 'loginSecretId', 'eventBusName'], deploymentSettings: false },
  grants: ['sessionSecret:write', 'loginSecret:read', 'bus:publish'],
  bundle: {
    memory: 'standard',
    handler: factoryWithLogger('../session/totp-login.js', 'createSessionRenewal'),
  },
  deployedWhen: 'totpRenewal',
};

export const SESSION_HEALTH: FunctionEntry = {
  name: 'SessionHealth',
  id: 'session-health',
  summary:
    'Pre-market check that the session works (ClientDetails), published as the SessionAlive metric; GET /session',
  // `gtt session`: whose session, since when, alive or not.
  routes: [
    sessionRoute({
      method: 'GET',
      path: '/session',
      auth: 'iam',
      operationId: 'GetSession',
      kind: 'read',
      retrySafe: true,
      summary:
        'The session the gateway trades with: account, since when, and whether the broker still takes it (one ClientDetails call)',
      result: sessionStatusResult,
    }),
  ],
  // 08:45 IST, Monday to Friday: after the renewal, early enough to log in by hand before 09:15.
  trigger: {
    kind: 'schedule',
    cron: 'cron(45 8 ? * MON-FRI *)',
    description: 'session health check before the market opens',
  },
  direct: { example: {} },
  // The deployment's settings: GET /session shows the guardrails in force.
  env: { keys: SESSION_ENV, deploymentSettings: true },
  grants: ['sessionSecret:read'],
  bundle: {
    memory: 'standard',
    handler: factoryWithLogger('../session/health.js', 'createSessionHealthCheck'),
  },
};

export const SESSION_LOGOUT: FunctionEntry = {
  name: 'SessionLogout',
  id: 'session-logout',
  summary: "End-of-day logout after the market closes: the broker session ends and the secret's token is blanked",
  routes: [],
  // 16:00 IST, Monday to Friday: after NSE's close, long before the next morning's login.
  trigger: {
    kind: 'schedule',
    cron: END_OF_DAY_LOGOUT_CRON,
    description: 'end-of-day logout after the market closes',
    setting: 'endOfDayLogout',
  },
  // The control table: the logout tells every container the session ended (safety/trading-controls.ts).
  env: { keys: [...SESSION_ENV, 'controlTableName'], deploymentSettings: false },
  grants: ['sessionSecret:write', 'controlTable:switch'],
  bundle: {
    memory: 'standard',
    handler: factoryWithLogger('../session/end-of-day.js', 'createEndOfDayLogout'),
  },
  deployedWhen: 'endOfDayLogout',
};

export const SESSION_FUNCTIONS: readonly FunctionEntry[] = [OAUTH, SESSION_RENEWAL, SESSION_HEALTH, SESSION_LOGOUT];
