/**
 * The session secret one deployment acts for: `{accessToken, uid, actid, brkname?}` as JSON in Secrets Manager.
 * The token lives only there, in memory, and in the Authorization header: never in jData, a log line or a reply.
 */
import * as z from 'zod';
import './zod-config.js';

export const brokerSecretSchema = z
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
  })
  .refine((s) => s.loggedOutAt !== undefined || s.accessToken.length > 0, {
    error: 'accessToken must be a non-empty string',
    path: ['accessToken'],
  });

/** The session one deployment acts for. The token lives only here and in the Authorization header. */
export type BrokerSession = z.output<typeof brokerSecretSchema>;

/** The broker app of an OAuth deployment: its own secret, readable only by the OAuth function. */
export const oauthAppSecretSchema = z.object({
  /** The app's client id at the broker (often `<uid>_U`). */
  clientId: z.string().min(1, { error: 'clientId must be a non-empty string' }),
  /** The app's secret code: only ever hashed into the GenAcsTok checksum. */
  secretCode: z.string().min(1, { error: 'secretCode must be a non-empty string' }),
  /** The trading account's user id (GenAcsTok wants it). */
  uid: z.string().min(1, { error: 'uid must be a non-empty string' }),
});
export type OAuthAppSecret = z.output<typeof oauthAppSecretSchema>;

/** Credentials of a classic (TOTP) deployment: their own secret, readable only by the renewal function. */
export const loginCredentialsSchema = z.object({
  uid: z.string().min(1, { error: 'uid must be a non-empty string' }),
  password: z.string().min(1, { error: 'password must be a non-empty string' }),
  /** The base32 seed of the account's authenticator (TOTP, 6 digits, 30 s). */
  totpSeed: z
    .string()
    .transform((s) => s.replace(/\s+/g, '').toUpperCase())
    .pipe(z.string().regex(/^[A-Z2-7]{16,}=*$/, { error: 'totpSeed must be a base32 seed of at least 16 characters' })),
  /** The API secret the broker issued with the vendor code. */
  apiSecret: z.string().min(1, { error: 'apiSecret must be a non-empty string' }),
  /** Vendor code; brokers of this family usually issue `<uid>_U`. */
  vendorCode: z.string().min(1).optional(),
  /** Any device string; the broker records it. */
  imei: z.string().min(1).optional(),
});
export type LoginCredentials = z.output<typeof loginCredentialsSchema>;

/** GenAcsTok's success: the official clients key success on `access_token`. */
export const genAcsTokReply = z.looseObject({
  stat: z.literal('Ok'),
  access_token: z.string().min(1),
  uid: z.string().min(1).optional(),
  USERID: z.string().min(1).optional(),
  actid: z.string().min(1),
  brkname: z.string().optional(),
  expires_in: z.string().optional(),
});

/** QuickAuth's success: `susertoken` is the session token. */
export const quickAuthReply = z.looseObject({
  stat: z.literal('Ok'),
  susertoken: z.string().min(1),
  actid: z.string().min(1).optional(),
  brkname: z.string().optional(),
});
