/** Configuration of the session functions, from the environment, checked like the gateway's. */
import type * as z from 'zod';

import { ConfigurationError } from '../base/contract/errors.js';
import { parseConfig } from '../base/runtime/config.js';
import { envName, envSchema } from '../base/runtime/env.js';

/**
 * The session functions' configuration schema (base/runtime/env.ts): the broker and AWS settings of the function set, as
 * the gateway reads them, plus the logins' own.
 */
export const sessionEnv = envSchema([
  'brokerBaseUrl',
  'brokerSecretId',
  'brokerTimeoutMs',
  'brokerAuth',
  'secretsManagerEndpoint',
  'dynamodbEndpoint',
  'eventBusName',
  'eventbridgeEndpoint',
  'brokerLogin',
  'brokerAuthorizeUrl',
  'brokerTokenUrl',
  'oauthAppSecretId',
  'oauthStateTableName',
  'oauthStateTtlSeconds',
  'loginSecretId',
  'controlTableName',
]);
export type SessionConfig = z.output<typeof sessionEnv>;

export const parseSessionConfig = (env?: Record<string, string | undefined>): SessionConfig =>
  parseConfig(sessionEnv, env, 'session function');

/** A setting one function needs: missing is a configuration error naming it. */
export const required = <K extends keyof SessionConfig>(
  config: SessionConfig,
  key: K,
): NonNullable<SessionConfig[K]> => {
  const value = config[key];
  if (value === undefined) throw new ConfigurationError(`${envName(key)} is not set for this function`);
  return value as NonNullable<SessionConfig[K]>;
};
