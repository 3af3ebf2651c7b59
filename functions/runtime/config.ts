/**
 * Deployment configuration from the environment, read once per container and validated, so a misconfigured
 * deployment answers CONFIGURATION_ERROR naming the variable instead of failing somewhere deeper. The variables
 * themselves (names, schemas, documentation) are in the catalogue, runtime/env.ts.
 */
import type * as z from 'zod';

import { ConfigurationError } from '../contract/errors.js';
import { envName, envSchema, GUARDRAIL_KEYS } from './env.js';

/** The guardrails' configuration schema: their variables by names in, camelCase out (a GuardrailConfig). */
export const guardrailEnv = envSchema(GUARDRAIL_KEYS);

/** The gateway's variables: every operation function, the kill switch and the plans' engine read these. */
export const GATEWAY_KEYS = [
  'brokerBaseUrl',
  'brokerAuth',
  'brokerSecretId',
  'brokerTimeoutMs',
  'secretMaxAgeSeconds',
  'secretsManagerEndpoint',
  'idempotencyTableName',
  'idempotencyTtlSeconds',
  'idempotencyKeyRequired',
  'dynamodbEndpoint',
  'eventBusName',
  'eventsTableName',
  'eventbridgeEndpoint',
  'controlTableName',
  'instrumentsTableName',
  'orderRatePerSecond',
  'orderRatePerMinute',
  'orderRateMarginMs',
  'orderLateWindowMs',
  'marketOrders',
  'marketProtectionPercent',
  'priceTick',
  'algoId',
  ...GUARDRAIL_KEYS,
] as const;

/** The gateway's configuration schema: the environment by names in, camelCase out. */
export const gatewayEnv = envSchema(GATEWAY_KEYS, {
  rules: [
    {
      holds: (c) => !c.idempotencyKeyRequired || c.idempotencyTableName !== undefined,
      key: 'idempotencyTableName',
      error: `is required while ${envName('idempotencyKeyRequired')} is true (set the table, or ${envName('idempotencyKeyRequired')}=false)`,
    },
  ],
});

export type GatewayConfig = z.output<typeof gatewayEnv>;

/** The environment form of the configuration (what Lambda and the local runner provide). */
export type GatewayEnv = z.input<typeof gatewayEnv>;

/** Configuration given in code (tests, the local runner): the environment's names, values of any scalar type. */
export type GatewaySettings = { [K in keyof GatewayEnv]?: string | number | boolean };

/** Validates an environment against a schema; a problem is a CONFIGURATION_ERROR naming each variable. */
export const parseConfig = <S extends z.ZodType>(
  schema: S,
  env: Record<string, unknown>,
  what: string,
): z.output<S> => {
  const asEnv = Object.fromEntries(
    Object.entries(env).map(([name, value]) => [name, value === undefined ? undefined : String(value)]),
  );
  const parsed = schema.safeParse(asEnv);
  if (!parsed.success) {
    // details in the one shape of the error contract: {field, message}.
    const problems = parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
    throw new ConfigurationError(
      `Invalid ${what} configuration: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`,
      {
        details: problems,
      },
    );
  }
  return parsed.data;
};

export const parseGatewayConfig = (env: Record<string, string | undefined> | GatewaySettings): GatewayConfig =>
  parseConfig(gatewayEnv, env, 'gateway');
