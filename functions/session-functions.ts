import type * as z from 'zod';

import { oauthCallbackResult, oauthStartResult, sessionStatusResult } from './schemas/session.js';

/**
 * The session lifecycle functions, as a table like the operation table: the CDK stack and the local runner build
 * their functions, routes, schedules and permissions from it. They are not broker operations with the deployment's
 * session (they make or check that session), so they are not entries of the operation table.
 */
export interface SessionRoute {
  method: 'GET';
  path: string;
  /** Its name in the OpenAPI document and the client. */
  operationId: string;
  summary: string;
  /** What it answers with 200 (JSON). */
  result: z.ZodType;
  /** Query parameters it reads (every other is refused, except on the callback, which ignores them). */
  query?: readonly string[];
  /** As the operation table's: `read` changes nothing at the broker, `session` makes a session. */
  kind: 'read' | 'session';
  /** Safe to repeat automatically (the client's retries read this from the OpenAPI document). */
  retrySafe: boolean;
  /** `iam`: SigV4 like every gateway route. `none`: the broker's login page sends a browser here (login-protected). */
  auth: 'iam' | 'none';
}

export interface SessionFunction {
  /** Logical name of the Lambda. */
  name: 'OAuthCallback' | 'SessionRenewal' | 'SessionHealth' | 'SessionLogout';
  /** Entry file in handlers/ and function name suffix. */
  id: 'oauth' | 'session-renewal' | 'session-health' | 'session-logout';
  summary: string;
  routes: readonly SessionRoute[];
  /** Run by EventBridge Scheduler before the market opens (India time). */
  schedule?: { cron: string; description: string };
  /** What it may do with the secrets: read or write the session, read its own credentials. */
  sessionSecret: 'read' | 'write';
  credentials?: 'oauthApp' | 'login';
  /** Uses the table of OAuth `state` values. */
  oauthStateTable?: boolean;
}

/** NSE's equity and F&O sessions end at 15:30 India time; MCX trades until 23:30 (then -c endOfDayLogout=cron(...)). */
export const END_OF_DAY_LOGOUT_CRON = 'cron(0 16 ? * MON-FRI *)';

export const SESSION_FUNCTIONS: readonly SessionFunction[] = [
  {
    name: 'OAuthCallback',
    id: 'oauth',
    summary: "OAuth login: start a login (the broker's login page); exchange the redirect's code for a token",
    routes: [
      {
        method: 'GET',
        path: '/session/oauth/start',
        auth: 'iam',
        operationId: 'StartLogin',
        // A new login value each time, nothing at the broker: a repeat only starts a newer login.
        kind: 'read',
        retrySafe: true,
        summary:
          "Start a browser login: the broker's login page for this app (open it, sign in; the broker redirects to the callback)",
        result: oauthStartResult,
      },
      {
        method: 'GET',
        path: '/session/oauth/callback',
        auth: 'none',
        operationId: 'CompleteLogin',
        // Exchanges a code (once): never repeated automatically.
        kind: 'session',
        retrySafe: false,
        summary:
          "Where the broker's login page redirects (code, and state when the broker echoes it): exchanges the code and writes the session. HTML for a browser (Accept: text/html), JSON otherwise.",
        result: oauthCallbackResult,
        query: ['code', 'state'],
      },
    ],
    sessionSecret: 'write',
    credentials: 'oauthApp',
    oauthStateTable: true,
  },
  {
    name: 'SessionRenewal',
    id: 'session-renewal',
    summary: 'Classic deployments: log in with QuickAuth (password, TOTP) before the market opens',
    routes: [],
    // 08:15 IST, Monday to Friday: after the broker's overnight session reset, before pre-open at 09:00.
    schedule: { cron: 'cron(15 8 ? * MON-FRI *)', description: 'TOTP login before the market opens' },
    sessionSecret: 'write',
    credentials: 'login',
  },
  {
    name: 'SessionHealth',
    id: 'session-health',
    summary:
      'Pre-market check that the session works (ClientDetails), published as the SessionAlive metric; GET /session',
    // `gtt session`: whose session, since when, alive or not.
    routes: [
      {
        method: 'GET',
        path: '/session',
        auth: 'iam',
        operationId: 'GetSession',
        kind: 'read',
        retrySafe: true,
        summary:
          'The session the gateway trades with: account, since when, and whether the broker still takes it (one ClientDetails call)',
        result: sessionStatusResult,
      },
    ],
    // 08:45 IST, Monday to Friday: after the renewal, early enough to log in by hand before 09:15.
    schedule: { cron: 'cron(45 8 ? * MON-FRI *)', description: 'session health check before the market opens' },
    sessionSecret: 'read',
  },
  {
    name: 'SessionLogout',
    id: 'session-logout',
    summary: "End-of-day logout after the market closes: the broker session ends and the secret's token is blanked",
    routes: [],
    // 16:00 IST, Monday to Friday: after NSE's close, long before the next morning's login.
    schedule: { cron: END_OF_DAY_LOGOUT_CRON, description: 'end-of-day logout after the market closes' },
    sessionSecret: 'write',
  },
];
