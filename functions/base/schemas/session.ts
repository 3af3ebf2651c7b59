/**
 * The session secret one deployment acts for: `{accessToken, uid, actid, brkname?}` as JSON in Secrets Manager.
 * The token lives only there, in memory, and in the Authorization header: never in jData, a log line or a reply.
 */
import './zod-config.js';

import * as z from 'zod';

export const brokerSecretSchema = z.lazy(() =>
  z
    .object({
      /** Empty (or absent) only in a logged-out secret. */
      accessToken: z.string().default(''),
      uid: z.string().min(1, { error: 'uid must be a non-empty string' }),
      actid: z.string().min(1, { error: 'actid must be a non-empty string' }),
      brkname: z.string().min(1).optional(),
      /**
       * Set by Logout (an ISO time) once it has ended the session's token(s) at the broker: every function then
       * answers SESSION_EXPIRED without calling the broker. A login writes a whole new session, which clears it.
       */
      loggedOutAt: z.string().min(1).optional(),
      /** When and how our login functions wrote this session (absent when a token was put by hand). */
      renewedAt: z.string().optional(),
      method: z.enum(['oauth', 'flattrade', 'totp']).optional(),
    })
    .refine((s) => s.loggedOutAt !== undefined || s.accessToken.length > 0, {
      error: 'accessToken must be a non-empty string',
      path: ['accessToken'],
    }),
);

/** The session one deployment acts for. The token lives only here and in the Authorization header. */
export type BrokerSession = z.output<typeof brokerSecretSchema>;

/** The broker app of an OAuth deployment: its own secret, readable only by the OAuth function. */
export const oauthAppSecretSchema = z.lazy(() =>
  z.object({
    /** The app's client id at the broker (often `<uid>_U`). */
    clientId: z.string().min(1, { error: 'clientId must be a non-empty string' }),
    /** The app's secret code: only ever hashed into the GenAcsTok checksum. */
    secretCode: z.string().min(1, { error: 'secretCode must be a non-empty string' }),
    /** The trading account's user id (GenAcsTok wants it); a login of any other account is refused. */
    uid: z.string().min(1, { error: 'uid must be a non-empty string' }),
    /** The trading account's account id when it differs from the uid; a login of any other account is refused. */
    actid: z.string().min(1, { error: 'actid must be a non-empty string when given' }).optional(),
  }),
);
export type OAuthAppSecret = z.output<typeof oauthAppSecretSchema>;

/** Credentials of a classic (TOTP) deployment: their own secret, readable only by the renewal function. */
export const loginCredentialsSchema = z.lazy(() =>
  z.object({
    uid: z.string().min(1, { error: 'uid must be a non-empty string' }),
    password: z.string().min(1, { error: 'password must be a non-empty string' }),
    /** The base32 seed of the account's authenticator (TOTP, 6 digits, 30 s). */
    totpSeed: z
      .string()
      .transform((s) => s.replace(/\s+/g, '').toUpperCase())
      .pipe(
        z.string().regex(/^[A-Z2-7]{16,}=*$/, { error: 'totpSeed must be a base32 seed of at least 16 characters' }),
      ),
    /** The API secret the broker issued with the vendor code. */
    apiSecret: z.string().min(1, { error: 'apiSecret must be a non-empty string' }),
    /** Vendor code; brokers of this family usually issue `<uid>_U`. */
    vendorCode: z.string().min(1).optional(),
    /** Any device string; the broker records it. */
    imei: z.string().min(1).optional(),
  }),
);
export type LoginCredentials = z.output<typeof loginCredentialsSchema>;

/**
 * GenAcsTok's success, read as real clients read it: success is the presence of `access_token` (`stat` is not
 * documented on this reply); the account from `uid` or `USERID`, its account id from `actid` or `AccountId`.
 */
export const genAcsTokReply = z.lazy(() =>
  z.looseObject({
    stat: z.string().optional(),
    access_token: z.string().min(1),
    uid: z.string().min(1).optional(),
    USERID: z.string().min(1).optional(),
    actid: z.string().min(1).optional(),
    AccountId: z.string().min(1).optional(),
    brkname: z.string().optional(),
    expires_in: z.string().optional(),
  }),
);

/** Flattrade's token exchange: `{stat: "Ok", token, client}`; the token is a jKey. */
export const flattradeTokenReply = z.lazy(() =>
  z.looseObject({
    stat: z.literal('Ok'),
    token: z.string().min(1),
    client: z.string().min(1),
  }),
);

/** QuickAuth's success: `susertoken` is the session token. */
export const quickAuthReply = z.lazy(() =>
  z.looseObject({
    stat: z.literal('Ok'),
    susertoken: z.string().min(1),
    actid: z.string().min(1).optional(),
    brkname: z.string().optional(),
  }),
);

// ---- what the session routes answer (the OpenAPI document shows them) -------------------------------------------

/** `GET /session/oauth/start`: the broker's login page for this app, with the login's `state`. */
export const oauthStartResult = z.lazy(() =>
  z.object({
    authorizeUrl: z.string().describe('Open this in a browser and sign in at the broker; it redirects to the callback'),
    state: z.string().describe('The login value; checked if the broker echoes it, otherwise the login window applies'),
    expiresAt: z.string().describe('When this login stops waiting for the redirect (ISO 8601)'),
    loginWindowSeconds: z.number().int(),
    uid: z.string().describe('The account to sign in as (a login of any other account is refused)'),
  }),
);

/** `GET /session/oauth/callback`: the new session (never its token). */
export const oauthCallbackResult = z.lazy(() =>
  z.object({
    stat: z.literal('Ok'),
    method: z.enum(['oauth', 'flattrade']),
    uid: z.string(),
    actid: z.string(),
    renewedAt: z.string(),
  }),
);

/** `GET /session`: whose session the gateway trades with, since when, and whether the broker still takes it. */
export const sessionStatusResult = z.lazy(() =>
  z.object({
    alive: z.boolean(),
    checkedAt: z.string(),
    uid: z.string().optional(),
    actid: z.string().optional(),
    since: z.string().optional().describe('When our login functions wrote it (absent for a token put by hand)'),
    method: z.string().optional().describe('oauth, flattrade or totp'),
    loggedOutAt: z
      .string()
      .optional()
      .describe('When it was logged out (the end-of-day logout or a Logout call), until the next login'),
    code: z.string().optional().describe('Why it is not usable: an error code, e.g. SESSION_EXPIRED, or LOGGED_OUT'),
    reason: z.string().optional(),
    guardrails: z
      .object({
        readOnly: z.boolean(),
        maxQty: z.string().describe('The largest qty of an order, or off'),
        maxOrderValue: z.string().describe('The largest qty × prc (qty × d for market types), or off'),
        exchanges: z.array(z.string()).optional(),
        products: z.array(z.string()).optional(),
        priceTypes: z.array(z.string()).optional(),
        symbolsAllow: z.array(z.string()).optional(),
        symbolsDeny: z.array(z.string()).optional(),
      })
      .optional()
      .describe(
        "The guardrails in force: this deployment's settings, or the defaults (docs/explanation/order-safety.md)",
      ),
    orderRate: z
      .object({ perSecond: z.number().int(), perMinute: z.number().int() })
      .optional()
      .describe(
        "The order-rate governor's limits: the most orders a second and a minute (docs/explanation/compliance.md)",
      ),
  }),
);
