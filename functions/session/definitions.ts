/**
 * The definitions of the session functions: they make, check or end the session the other functions trade with, so
 * they are not broker operations with it. The OAuth callback is the one route without IAM auth.
 */
import type { FunctionDefinition, FunctionEntry, FunctionNotes } from '../base/definition/types.js';
import type { EnvKey } from '../base/runtime/env.js';
import { createEndOfDayLogout } from './end-of-day.js';
import { createSessionHealthCheck } from './health.js';
import { createOAuthHandler } from './oauth.js';
import { OAUTH_ROUTES, SESSION_HEALTH_ROUTES } from './routes.js';
import { createSessionRenewal } from './totp-login.js';

/** NSE's equity and F&O sessions end at 15:30 India time; MCX trades until 23:30 (then -c endOfDayLogout=cron(...)). */
export const END_OF_DAY_LOGOUT_CRON = 'cron(0 16 ? * MON-FRI *)';

/** What every session function reads: where the broker is, the session secret, how the token travels. */
const SESSION_ENV: EnvKey[] = ['brokerBaseUrl', 'brokerSecretId', 'brokerAuth'];

/** Built in the `Session` construct; its role's description says which secrets and tables it reaches. */
const sessionNotes = ({ name, grants }: Pick<FunctionEntry, 'name' | 'grants'>): FunctionNotes => {
  const has = (grant: (typeof grants)[number]) => grants.includes(grant);
  const credentials = has('oauthAppSecret:read') || has('loginSecret:read');
  return {
    home: 'session',
    roleDescription: `gtt-gateway ${name}: its log group, ${has('sessionSecret:write') ? 'read and write' : 'read'} the session secret${credentials ? ', read its own credentials' : ''}${has('oauthStateTable') ? ', the OAuth state table' : ''}`,
  };
};

const sessionAlarms = (name: string): FunctionDefinition['alarms'] => ({
  errors: { description: `${name}: function errors (a failed login or an unreadable secret)`, threshold: 1 },
});

const OAUTH_GRANTS: FunctionEntry['grants'] = [
  'sessionSecret:write',
  'oauthAppSecret:read',
  'bus:publish',
  'oauthStateTable',
];

export const OAUTH: FunctionDefinition = {
  ...OAUTH_ROUTES,
  id: 'oauth',
  summary: "OAuth login: start a login (the broker's login page); exchange the redirect's code for a token",
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
  grants: OAUTH_GRANTS,
  notes: sessionNotes({ name: OAUTH_ROUTES.name, grants: OAUTH_GRANTS }),
  alarms: sessionAlarms(OAUTH_ROUTES.name),
  bundle: { memory: 'standard', handler: { kind: 'factory', from: '../session/oauth.js' } },
  audit: true,
  create: createOAuthHandler,
};

const RENEWAL_GRANTS: FunctionEntry['grants'] = ['sessionSecret:write', 'loginSecret:read', 'bus:publish'];

export const SESSION_RENEWAL: FunctionDefinition = {
  name: 'SessionRenewal',
  id: 'session-renewal',
  summary: 'Classic deployments: log in with QuickAuth (password, TOTP) before the market opens',
  routes: [],
  // 08:15 IST, Monday to Friday: after the broker's overnight session reset, before pre-open at 09:00.
  trigger: { kind: 'schedule', cron: 'cron(15 8 ? * MON-FRI *)', description: 'TOTP login before the market opens' },
  env: { keys: [...SESSION_ENV, 'loginSecretId', 'eventBusName'], deploymentSettings: false },
  grants: RENEWAL_GRANTS,
  notes: sessionNotes({ name: 'SessionRenewal', grants: RENEWAL_GRANTS }),
  alarms: sessionAlarms('SessionRenewal'),
  bundle: { memory: 'standard', handler: { kind: 'factory', from: '../session/totp-login.js' } },
  audit: true,
  create: createSessionRenewal,
  deployedWhen: 'totpRenewal',
};

export const SESSION_HEALTH: FunctionDefinition = {
  ...SESSION_HEALTH_ROUTES,
  id: 'session-health',
  summary:
    'Pre-market check that the session works (ClientDetails), published as the SessionAlive metric; GET /session',
  // 08:45 IST, Monday to Friday: after the renewal, early enough to log in by hand before 09:15.
  trigger: {
    kind: 'schedule',
    cron: 'cron(45 8 ? * MON-FRI *)',
    description: 'session health check before the market opens',
  },
  // The deployment's settings: GET /session shows the guardrails in force and the governor's limits (the broker's
  // own rate, from its preset, unless the deployment sets one).
  env: { keys: [...SESSION_ENV, 'orderRatePerSecond', 'orderRatePerMinute'], deploymentSettings: true },
  grants: ['sessionSecret:read'],
  notes: sessionNotes({ name: SESSION_HEALTH_ROUTES.name, grants: ['sessionSecret:read'] }),
  alarms: sessionAlarms(SESSION_HEALTH_ROUTES.name),
  bundle: { memory: 'standard', handler: { kind: 'factory', from: '../session/health.js' } },
  create: createSessionHealthCheck,
};

const LOGOUT_GRANTS: FunctionEntry['grants'] = ['sessionSecret:write', 'controlTable:sessionEnd'];

export const SESSION_LOGOUT: FunctionDefinition = {
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
  // The control table: the logout tells every container the session ended (orders/safety/trading-controls.ts).
  env: { keys: [...SESSION_ENV, 'controlTableName'], deploymentSettings: false },
  grants: LOGOUT_GRANTS,
  notes: sessionNotes({ name: 'SessionLogout', grants: LOGOUT_GRANTS }),
  alarms: sessionAlarms('SessionLogout'),
  bundle: { memory: 'standard', handler: { kind: 'factory', from: '../session/end-of-day.js' } },
  create: createEndOfDayLogout,
  deployedWhen: 'endOfDayLogout',
};

export const SESSION_FUNCTIONS: readonly FunctionDefinition[] = [
  OAUTH,
  SESSION_RENEWAL,
  SESSION_HEALTH,
  SESSION_LOGOUT,
];
