/** What the manifest's routes share, and the throttles of the stage (infra/constructs/api.ts applies them). */
import type { EnvKey } from '../runtime/env.js';
import type { Route } from './types.js';

/** The order routes' throttle: a runaway script is stopped at the stage, at the governor's own rate. */
export const ORDER_ROUTE_THROTTLE = { rateLimit: 8, burstLimit: 8 } as const;

/** A route of a function of its own (not an operation of the table), with the defaults most have. */
export const ownRoute = (
  r: Omit<Route, 'auth' | 'query' | 'pathParams' | 'body' | 'successStatus' | 'dryRun' | 'example'> & Partial<Route>,
): Route => ({
  auth: 'iam',
  query: [],
  pathParams: {},
  body: false,
  successStatus: 200,
  // A function of its own offers no dry run unless its route says so: `dryRun` is refused by name.
  dryRun: false,
  example: {},
  ...r,
});

/** What the order functions get, for the functions that act through the table's entries in-process. */
export const ORDER_ACTOR_ENV: EnvKey[] = [
  'brokerBaseUrl',
  'brokerSecretId',
  'idempotencyTableName',
  'controlTableName',
  'orderRatePerSecond',
  'orderRatePerMinute',
];
