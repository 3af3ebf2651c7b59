/** The routes of the OAuth function and of the session health check: what oauth.ts and health.ts read. */
import { ownRoute } from '../base/definition/routes.js';
import type { FunctionSurface, Route } from '../base/definition/types.js';
import { oauthCallbackResult, oauthStartResult, sessionStatusResult } from '../base/schemas/session.js';

/** The callback is hit by one browser once a morning: keep it far below anything abusive. */
export const CALLBACK_ROUTE_THROTTLE = { rateLimit: 2, burstLimit: 5 } as const;

/** A session route: the defaults of a function's own route, with its auth always said (the browser's are `none`). */
const sessionRoute = (r: Parameters<typeof ownRoute>[0] & Pick<Route, 'auth'>): Route => ownRoute(r);

export const OAUTH_ROUTES: FunctionSurface = {
  name: 'OAuthCallback',
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
};

export const SESSION_HEALTH_ROUTES: FunctionSurface = {
  name: 'SessionHealth',
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
  direct: { example: {} },
};
