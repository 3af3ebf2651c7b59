/**
 * Deployment configuration from the environment, read once per container and validated, so a misconfigured
 * deployment answers CONFIGURATION_ERROR naming the variable instead of failing somewhere deeper.
 */
import * as z from 'zod';

import { ConfigurationError } from '../contract/errors.js';
import { guardrailEnvSchema } from '../safety/guardrails.js';

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/** Every setting of the function set, before the cross-field rules (the watcher picks its own from here). */
export const configFields = z
  .object({
    /**
     * Base address of the broker service with its path prefix (`https://host/NorenWClientTP`); requests go to
     * `{base}/<Operation>`, and a base without a path gets `/ClientAPI`.
     */
    BROKER_BASE_URL: httpUrl,
    /** How the session token travels: `bearer` (Authorization header, the OAuth deployments) or `jkey` (`&jKey=`). */
    BROKER_AUTH: z.enum(['bearer', 'jkey'], { error: 'must be bearer or jkey' }).default('bearer'),
    /** Name or ARN of the Secrets Manager secret holding `{accessToken, uid, actid, brkname?}`. */
    BROKER_SECRET_ID: z.string().min(1, { error: 'must name the broker session secret' }),
    /** Per-request timeout towards the broker; keep it below the Lambda timeout. */
    BROKER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8_000),
    /** How long a fetched secret is reused by a warm container before it is read again. */
    SECRET_MAX_AGE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
    /** Local runs and tests only: where the Secrets Manager client sends its calls. */
    SECRETS_MANAGER_ENDPOINT: httpUrl.optional(),
    /** DynamoDB table of the idempotency records (Powertools layout: partition key `id`, TTL on `expiration`). */
    IDEMPOTENCY_TABLE_NAME: z.string().min(3).max(255).optional(),
    /** How long an idempotency key is remembered: retries within this window never act twice. */
    IDEMPOTENCY_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 86_400)
      .default(86_400),
    /** Place without an Idempotency-Key is refused unless this is `false`. */
    IDEMPOTENCY_KEY_REQUIRED: z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .default('true')
      .transform((v) => v === 'true'),
    /** Local runs and tests only: where the DynamoDB client sends its calls. */
    DYNAMODB_ENDPOINT: httpUrl.optional(),
    /** The EventBridge bus of the lifecycle events (docs/events.md); absent: the order operations publish nothing. */
    EVENT_BUS_NAME: z.string().min(1).max(256).optional(),
    /** The events table (published markers, the watcher's snapshot): the watcher skips what the gateway published. */
    EVENTS_TABLE_NAME: z.string().min(3).max(255).optional(),
    /** Local runs and tests only: where the EventBridge client sends PutEvents. */
    EVENTBRIDGE_ENDPOINT: httpUrl.optional(),
    /**
     * The trading controls table (partition key `pk`): the order-rate governor and the kill switch, shared by every
     * container (docs/compliance.md). Absent: no governor (a sandbox); every deployment and `npm start` set it.
     */
    CONTROL_TABLE_NAME: z.string().min(3).max(255).optional(),
    /** Order writes (place, modify, cancel) per second, counted over any second; the broker's own limit is above it. */
    ORDER_RATE_PER_SECOND: z.coerce.number().int().min(1).max(100).default(8),
    /** Order writes per minute, counted over any minute. */
    ORDER_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(6_000).default(120),
    /**
     * How much longer than a second a permit counts (ms): the spread of the time from a permit to the request's arrival
     * at the broker. 250 by default; a deployment that measures more spread raises it (it lowers the sustained rate).
     */
    ORDER_RATE_MARGIN_MS: z.coerce.number().int().min(0).max(2_000).default(250),
    /** MKT / SL-MKT orders and legs: `convert` into LMT / SL-LMT with a price protection band, or `reject` them. */
    MARKET_ORDERS: z.enum(['convert', 'reject'], { error: 'must be convert or reject' }).default('convert'),
    /** The protection band: `auto` (by price and instrument, as brokers publish theirs) or a flat percentage (0.1 to 20). */
    MARKET_PROTECTION_PERCENT: z
      .string()
      .regex(/^(auto|(?:\d{1,2})(?:\.\d{1,2})?)$/, { error: 'must be auto or a percentage such as 1 or 0.5' })
      .refine((v) => v === 'auto' || (Number(v) >= 0.1 && Number(v) <= 20), {
        error: 'must be auto or a percentage from 0.1 to 20',
      })
      .default('auto'),
    /** The price grid converted prices are rounded to (the exchanges' 0.05 for most instruments). */
    PRICE_TICK: z
      .string()
      .regex(/^\d{1,6}(?:\.\d{1,8})?$/, { error: 'must be a positive decimal such as 0.05' })
      .refine((v) => Number(v) > 0, { error: 'must be greater than 0' })
      .default('0.05'),
    /**
     * The exchange algo id orders carry as `algo_id` (CDK context `algoId`): empty by default. Unregistered flow uses
     * the exchanges' generic one (NSE 99999, BSE 9999999999999999) if the broker asks for it.
     */
    ALGO_ID: z
      .string()
      .regex(/^[A-Za-z0-9]{1,32}$/, { error: 'must be 1 to 32 letters or digits (the exchange algo id)' })
      .optional()
      .or(z.literal('').transform(() => undefined)),
  })
  .extend(guardrailEnvSchema.shape);

export const gatewayConfigSchema = configFields.refine(
  (c) => !c.IDEMPOTENCY_KEY_REQUIRED || c.IDEMPOTENCY_TABLE_NAME !== undefined,
  {
    path: ['IDEMPOTENCY_TABLE_NAME'],
    error: 'is required while IDEMPOTENCY_KEY_REQUIRED is true (set the table, or IDEMPOTENCY_KEY_REQUIRED=false)',
  },
);

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;

/** Settings a deployment may choose (CDK context, or the environment of `npm start`); the rest is wiring. */
export const DEPLOYMENT_SETTINGS = [
  'GUARDRAIL_READ_ONLY',
  'GUARDRAIL_MAX_QTY',
  'GUARDRAIL_MAX_ORDER_VALUE',
  'GUARDRAIL_EXCHANGES',
  'GUARDRAIL_PRODUCTS',
  'GUARDRAIL_PRICE_TYPES',
  'GUARDRAIL_SYMBOLS_ALLOW',
  'GUARDRAIL_SYMBOLS_DENY',
  'IDEMPOTENCY_KEY_REQUIRED',
  'IDEMPOTENCY_TTL_SECONDS',
  'SECRET_MAX_AGE_SECONDS',
  'ORDER_RATE_PER_SECOND',
  'ORDER_RATE_MARGIN_MS',
  'ORDER_RATE_PER_MINUTE',
  'MARKET_ORDERS',
  'MARKET_PROTECTION_PERCENT',
  'PRICE_TICK',
  'ALGO_ID',
] as const satisfies readonly (keyof GatewayEnv)[];
/** The environment form of the configuration (what Lambda and the local runner provide). */
export type GatewayEnv = z.input<typeof gatewayConfigSchema>;

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
  parseConfig(gatewayConfigSchema, env, 'gateway');
