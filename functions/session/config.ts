/** Configuration of the session functions, from the environment, checked like the gateway's. */
import * as z from 'zod';

import { ConfigurationError } from '../contract/errors.js';
import { configFields, parseConfig } from '../runtime/config.js';

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/** The broker and AWS settings of the function set, as the gateway reads them, plus the logins' own. */
export const sessionConfigSchema = configFields
  .pick({
    BROKER_BASE_URL: true,
    BROKER_SECRET_ID: true,
    BROKER_TIMEOUT_MS: true,
    BROKER_AUTH: true,
    SECRETS_MANAGER_ENDPOINT: true,
    DYNAMODB_ENDPOINT: true,
    EVENT_BUS_NAME: true,
    EVENTBRIDGE_ENDPOINT: true,
  })
  .extend({
    /** How a browser login becomes a token: `oauth` (GenAcsTok) or `flattrade` (its token URL); see broker/presets.ts. */
    BROKER_LOGIN: z.enum(['oauth', 'flattrade'], { error: 'must be oauth or flattrade' }).default('oauth'),
    /**
     * The broker's login page, as a template with `{clientId}` and `{uid}` (e.g.
     * `https://host/OAuthlogin/authorize/oauth?client_id={clientId}`); without `{clientId}`, `client_id` is added.
     */
    BROKER_AUTHORIZE_URL: z
      .string()
      .refine((v) => /^https?:\/\/\S+$/.test(v) && URL.canParse(v.replace(/\{(clientId|uid)\}/g, 'x')), {
        error: 'must be an http(s) URL (template)',
      })
      .optional(),
    /** `flattrade` login: where the redirect's code is exchanged for a token. */
    BROKER_TOKEN_URL: httpUrl.optional(),
    /** OAuth: the secret holding `{clientId, secretCode, uid, actid?}`. */
    OAUTH_APP_SECRET_ID: z.string().min(1).optional(),
    /** OAuth: the DynamoDB table of issued `state` values (partition key `state`, TTL on `expiresAt`). */
    OAUTH_STATE_TABLE_NAME: z.string().min(3).optional(),
    /**
     * OAuth: the login window, how long a started login (and its `state`) may wait for the broker's redirect; a
     * redirect without `state` is accepted only within it, once.
     */
    OAUTH_STATE_TTL_SECONDS: z.coerce.number().int().min(30).max(3_600).default(600),
    /** TOTP login: the secret holding `{uid, password, totpSeed, apiSecret, vendorCode?, imei?}`. */
    LOGIN_SECRET_ID: z.string().min(1).optional(),
  });
export type SessionConfig = z.output<typeof sessionConfigSchema>;

export const parseSessionConfig = (env: Record<string, string | undefined>): SessionConfig =>
  parseConfig(sessionConfigSchema, env, 'session function');

/** A setting one function needs: missing is a configuration error naming it. */
export const required = <K extends keyof SessionConfig>(
  config: SessionConfig,
  name: K,
): NonNullable<SessionConfig[K]> => {
  const value = config[name];
  if (value === undefined) throw new ConfigurationError(`${String(name)} is not set for this function`);
  return value as NonNullable<SessionConfig[K]>;
};
