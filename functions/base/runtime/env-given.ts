/**
 * Which variables a function is given and which it reads, by catalogue key (base/runtime/env.ts), and the check that the
 * two agree. Given: its definition's `env.keys` (the manifest), the deployment's settings when `deploymentSettings`,
 * what every function gets (`EVERY_FUNCTION_KEYS`) and, on this machine and in tests only, the local endpoints.
 * Read: the variables of the schemas its code parses (`envSchema`, through `parseConfig`). infra/ and local/ build a
 * function's environment from `givenKeys`; test/unit/env-agreement.test.ts runs `envMismatches` on every function.
 */
import type * as z from 'zod';

import { DEPLOYMENT_KEYS, environmentOf, type EnvKey, envName, envReadsOf, envSchema, type EnvValues } from './env.js';

/** Set for every function: by its construct in AWS (infra/constructs/gateway-function.ts), by the local runner here. */
export const EVERY_FUNCTION_KEYS = ['brokerTimeoutMs'] as const satisfies readonly EnvKey[];

/** Local runs and tests only: where the AWS clients send their calls (a deployment never sets them). */
export const LOCAL_ENDPOINT_KEYS = [
  'secretsManagerEndpoint',
  'dynamodbEndpoint',
  'eventbridgeEndpoint',
  'sqsEndpoint',
] as const satisfies readonly EnvKey[];

/**
 * Set by `npm start` only, never by a deployment: `/mcp` answering token-less callers on loopback
 * (`npm start --mcp-open`, for the MCP conformance suite and a first try).
 */
export const LOCAL_ONLY_KEYS = [...LOCAL_ENDPOINT_KEYS, 'mcpOpenOnLoopback'] as const satisfies readonly EnvKey[];

/** What `deploymentSettings: true` gives a function: the deployment's settings and how the token travels. */
export const SETTINGS_KEYS = [...DEPLOYMENT_KEYS, 'brokerAuth'] as const satisfies readonly EnvKey[];

/** The deployment's settings by name, each with the catalogue's rules (what `npm start` checks before it starts). */
export const deploymentEnv = envSchema(DEPLOYMENT_KEYS);

/** A function's declared environment: the manifest entry's (or definition's) `env`. */
export interface EnvDeclaration {
  keys: readonly EnvKey[];
  deploymentSettings: boolean;
}

/** The variables a deployment gives a function: its keys, the settings when it takes them, and every function's. */
export const givenKeys = (env: EnvDeclaration): ReadonlySet<EnvKey> =>
  new Set<EnvKey>([...env.keys, ...(env.deploymentSettings ? SETTINGS_KEYS : []), ...EVERY_FUNCTION_KEYS]);

/**
 * A function's environment by names, as infra/ and local/ build it: the values of its keys and every function's
 * (from `values`, by catalogue key; undefined: not set), those of `also` (the local endpoints), and the deployment's
 * settings by name (`settings`, with BROKER_AUTH) when it takes them.
 */
export const functionEnvironment = (
  env: EnvDeclaration,
  values: EnvValues,
  settings: Readonly<Record<string, string>>,
  also: readonly EnvKey[] = [],
): Record<string, string> => ({
  ...environmentOf(
    Object.fromEntries([...env.keys, ...EVERY_FUNCTION_KEYS, ...also].map((key) => [key, values[key]])) as EnvValues,
  ),
  ...(env.deploymentSettings ? settings : {}),
});

/** One function to check: its name, its declaration, and the schemas its code parses (`envSchema`'s). */
export interface EnvReader {
  name: string;
  env: EnvDeclaration;
  schemas: readonly z.ZodType[];
}

const readsOf = (schema: z.ZodType, owner: string) => {
  const reads = envReadsOf(schema);
  if (!reads) throw new TypeError(`${owner}: a schema that is not one of the catalogue's (envSchema)`);
  return reads;
};

/** Whether a schema accepts the variable's absence (optional, or a default): a function without it still starts. */
const absentIsFine = (schema: z.ZodType, key: EnvKey): boolean =>
  readsOf(schema, 'absentIsFine').shape[envName(key)]?.safeParse(undefined).success ?? true;

/**
 * Where the functions' declarations and their schemas disagree, one line each (empty: they agree):
 * - a declared key that none of its schemas reads (a variable set for nothing);
 * - `deploymentSettings` on a function that reads none of the deployment's settings;
 * - a variable its schemas read that it is not given: a setting no deployment can make, or a cold start that fails.
 *   A schema several functions share (the gateway's, the session functions') may read a variable one of them is not
 *   given when the schema does without it (that function has no use for it), but some function of those sharing it
 *   must be given it.
 */
export const envMismatches = (readers: readonly EnvReader[]): string[] => {
  const sharers = new Map<z.ZodType, EnvReader[]>();
  for (const reader of readers)
    for (const schema of new Set(reader.schemas)) sharers.set(schema, [...(sharers.get(schema) ?? []), reader]);
  const local = new Set<EnvKey>(LOCAL_ONLY_KEYS);
  const problems: string[] = [];
  for (const reader of readers) {
    const read = new Set(reader.schemas.flatMap((schema) => readsOf(schema, reader.name).keys));
    const given = givenKeys(reader.env);
    for (const key of reader.env.keys)
      if (!read.has(key)) problems.push(`${reader.name} declares ${envName(key)} (${key}), which its code never reads`);
    if (reader.env.deploymentSettings && !DEPLOYMENT_KEYS.some((key) => read.has(key)))
      problems.push(`${reader.name} takes the deployment's settings, but reads none of them`);
    const reported = new Set<EnvKey>();
    for (const schema of reader.schemas) {
      const others = (sharers.get(schema) ?? []).filter((r) => r !== reader);
      for (const key of readsOf(schema, reader.name).keys) {
        if (given.has(key) || local.has(key) || reported.has(key)) continue;
        const shared = others.length > 0 && absentIsFine(schema, key);
        if (shared && others.some((other) => givenKeys(other.env).has(key))) continue;
        reported.add(key);
        problems.push(
          `${reader.name} reads ${envName(key)} (${key}), which it is not given: declare it in its env keys` +
            (absentIsFine(schema, key) ? ' (no deployment can set it now)' : ' (its cold start fails without it)'),
        );
      }
    }
  }
  return problems;
};
