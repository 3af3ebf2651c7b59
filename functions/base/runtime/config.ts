/**
 * Deployment configuration from the environment, read once per container and validated, so a misconfigured
 * deployment answers CONFIGURATION_ERROR naming the variable instead of failing somewhere deeper. The variables
 * themselves (names, schemas, documentation) are in the catalogue, base/runtime/env.ts.
 */
import type * as z from 'zod';

import { ConfigurationError } from '../contract/errors.js';
import { envName, envReadsOf, envSchema, GUARDRAIL_KEYS } from './env.js';

/** The guardrails' configuration schema: their variables by names in, camelCase out (a GuardrailConfig). */
export const guardrailEnv = envSchema(GUARDRAIL_KEYS);
/** The order-rate governor's limits (what GET /session shows; the order path reads them with the rest). */
export const orderRateEnv = envSchema(['orderRatePerSecond', 'orderRatePerMinute']);

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
  'optionEntryCutoffMinutes',
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

/**
 * The environment Lambda gave this process. Only functions/base/runtime/ reads `process.env`
 * (test/unit/env-agreement.test.ts): a function reads its variables through a schema of the catalogue
 * (`parseConfig`), and passes this on by name to what parses its own (the plans' and the signal worker's in-process
 * gateway).
 */
export const deployedEnv = (): Readonly<Record<string, string | undefined>> => process.env;

/**
 * The one way a function reads its environment: validates it against a schema of the catalogue (`envSchema`),
 * reading only the variables that schema names; a problem is a CONFIGURATION_ERROR naming each variable. Without an
 * environment, the process's own (Lambda's).
 */
export const parseConfig = <S extends z.ZodType>(
  schema: S,
  env: Readonly<Record<string, unknown>> | undefined,
  what: string,
): z.output<S> => {
  const given = env ?? deployedEnv();
  const reads = envReadsOf(schema);
  if (!reads) throw new TypeError(`the ${what} configuration's schema is not one of the catalogue's (envSchema)`);
  const names = reads.keys.map((key) => envName(key));
  const asEnv = Object.fromEntries(
    names.map((name) => [name, given[name] === undefined ? undefined : String(given[name])]),
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

export const parseGatewayConfig = (env?: Record<string, string | undefined> | GatewaySettings): GatewayConfig =>
  parseConfig(gatewayEnv, env, 'gateway');
