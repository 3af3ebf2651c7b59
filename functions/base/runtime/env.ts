/**
 * The catalogue of the function set's environment: every variable a function reads, under a camelCase key, with its
 * name, its zod schema and its documentation. The one place a variable's name is written: each function's
 * configuration schema is built from here by keys (`envSchema`), reads the environment by names (so a problem is a
 * configuration error naming the variable) and answers camelCase keys (`config.brokerSecretId`); infra/ and local/
 * build environments with `environmentOf({ brokerSecretId: ... })`. Not here: the runtime's own variables
 * (the AWS region, Powertools' settings, the metric namespace, Node's options).
 */
import * as z from 'zod';

import { EXCHANGES, PRICE_TYPES, PRODUCTS } from '../schemas/input.js';
import { DECIMAL, flag, GUARDRAIL_DEFAULTS, httpUrl, limitSetting, list, TELEGRAM_CHAT } from './env-values.js';

export { GUARDRAIL_DEFAULTS, LIMIT_OFF } from './env-values.js';

/**
 * A variable of the catalogue: its name, and its schema built on first use (a function builds the schemas of its own
 * variables only, not the catalogue's sixty: zod schema construction is a visible part of a cold start).
 */
const variable = <const N extends string, S extends z.ZodType>(name: N, build: () => S) => {
  let schema: S | undefined;
  return {
    name,
    get schema(): S {
      return (schema ??= build());
    },
  };
};

/** Every environment variable of the function set, by camelCase key. */
export const ENV = {
  /**
   * Base address of the broker service with its path prefix (`https://host/NorenWClientTP`); requests go to
   * `{base}/<Operation>`, and a base without a path gets `/ClientAPI`.
   */
  brokerBaseUrl: variable('BROKER_BASE_URL', httpUrl),
  /** How the session token travels: `bearer` (Authorization header, the OAuth deployments) or `jkey` (`&jKey=`). */
  brokerAuth: variable('BROKER_AUTH', () =>
    z.enum(['bearer', 'jkey'], { error: 'must be bearer or jkey' }).default('bearer'),
  ),
  /** Name or ARN of the Secrets Manager secret holding `{accessToken, uid, actid, brkname?}`. */
  brokerSecretId: variable('BROKER_SECRET_ID', () =>
    z.string().min(1, { error: 'must name the broker session secret' }),
  ),
  /** Per-request timeout towards the broker; keep it below the Lambda timeout. */
  brokerTimeoutMs: variable('BROKER_TIMEOUT_MS', () => z.coerce.number().int().min(100).max(60_000).default(8_000)),
  /** How long a fetched secret is reused by a warm container before it is read again. */
  secretMaxAgeSeconds: variable('SECRET_MAX_AGE_SECONDS', () =>
    z.coerce.number().int().min(1).max(86_400).default(300),
  ),
  /** Local runs and tests only: where the Secrets Manager client sends its calls. */
  secretsManagerEndpoint: variable('SECRETS_MANAGER_ENDPOINT', () => httpUrl().optional()),
  /** DynamoDB table of the idempotency records (Powertools layout: partition key `id`, TTL on `expiration`). */
  idempotencyTableName: variable('IDEMPOTENCY_TABLE_NAME', () => z.string().min(3).max(255).optional()),
  /** How long an idempotency key is remembered: retries within this window never act twice. */
  idempotencyTtlSeconds: variable('IDEMPOTENCY_TTL_SECONDS', () =>
    z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 86_400)
      .default(86_400),
  ),
  /** Place without an Idempotency-Key is refused unless this is `false`. */
  idempotencyKeyRequired: variable('IDEMPOTENCY_KEY_REQUIRED', () =>
    z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .default('true')
      .transform((v) => v === 'true'),
  ),
  /** Local runs and tests only: where the DynamoDB client sends its calls. */
  dynamodbEndpoint: variable('DYNAMODB_ENDPOINT', () => httpUrl().optional()),
  /** The EventBridge bus of the lifecycle events (docs/reference/events.md); absent: the order operations publish nothing. */
  eventBusName: variable('EVENT_BUS_NAME', () => z.string().min(1).max(256).optional()),
  /** The events table (published markers, the watcher's snapshot): the watcher skips what the gateway published. */
  eventsTableName: variable('EVENTS_TABLE_NAME', () => z.string().min(3).max(255).optional()),
  /** Local runs and tests only: where the EventBridge client sends PutEvents. */
  eventbridgeEndpoint: variable('EVENTBRIDGE_ENDPOINT', () => httpUrl().optional()),
  /**
   * The trading controls table (partition key `pk`): the order-rate governor and the kill switch, shared by every
   * container (docs/explanation/compliance.md). Absent: no governor (a sandbox); every deployment and `npm start` set it.
   */
  controlTableName: variable('CONTROL_TABLE_NAME', () => z.string().min(3).max(255).optional()),
  /**
   * The account's copy of the instruments' rules (partition key `pk`, TTL `expiresAt`; docs/explanation/exchange-rules.md): the
   * order path reads today's tick, lot, band and freeze from it. Absent: every container reads the broker once a day
   * per symbol (SearchScrip, GetQuotes, GetSecurityInfo).
   */
  instrumentsTableName: variable('INSTRUMENTS_TABLE_NAME', () => z.string().min(3).max(255).optional()),
  /**
   * Where the family's daily symbol master of an exchange is, with `{exch}` (e.g.
   * `https://api.shoonya.com/{exch}_symbols.txt.zip`). Absent: `<broker API host>/{exch}_symbols.txt.zip`.
   */
  symbolMasterUrl: variable('SYMBOL_MASTER_URL', () =>
    httpUrl()
      .refine((v) => v.includes('{exch}'), { error: 'must contain {exch}' })
      .optional(),
  ),
  /** The exchanges whose symbol masters the InstrumentRefresh loads into the copy (comma-separated; BFO: SENSEX's options). */
  symbolMasterExchanges: variable('SYMBOL_MASTER_EXCHANGES', () =>
    (list('SYMBOL_MASTER_EXCHANGES', EXCHANGES) as z.ZodType<string[] | undefined, string | undefined>).transform(
      (v) => v ?? ['NSE', 'BSE', 'NFO', 'BFO'],
    ),
  ),
  /** Order writes (place, modify, cancel) per second, counted over any second; the broker's own limit is above it. */
  orderRatePerSecond: variable('ORDER_RATE_PER_SECOND', () => z.coerce.number().int().min(1).max(100).default(8)),
  /** Order writes per minute, counted over any minute. */
  orderRatePerMinute: variable('ORDER_RATE_PER_MINUTE', () => z.coerce.number().int().min(1).max(6_000).default(120)),
  /**
   * How much longer than a second a permit counts (ms): the spread of the time from a permit to the request's arrival
   * at the broker. 250 by default; a deployment that measures more spread raises it (it lowers the sustained rate).
   */
  orderRateMarginMs: variable('ORDER_RATE_MARGIN_MS', () => z.coerce.number().int().min(0).max(2_000).default(250)),
  /**
   * How long after a broker write's deadline the broker may still act on it (ms): a write whose outcome is unknown is
   * sent again only after this, and only when the broker's books do not show it (docs/explanation/order-safety.md, "The late
   * window"). 15 s by default: above the family's own gateway timeout (about 10 s) with room for a queue at the broker.
   */
  orderLateWindowMs: variable('ORDER_LATE_WINDOW_MS', () =>
    z.coerce.number().int().min(1_000).max(300_000).default(15_000),
  ),
  /** MKT / SL-MKT orders and legs: `convert` into LMT / SL-LMT with a price protection band, or `reject` them. */
  marketOrders: variable('MARKET_ORDERS', () =>
    z.enum(['convert', 'reject'], { error: 'must be convert or reject' }).default('convert'),
  ),
  /** The protection band: `auto` (by price and instrument, as brokers publish theirs) or a flat percentage (0.1 to 20). */
  marketProtectionPercent: variable('MARKET_PROTECTION_PERCENT', () =>
    z
      .string()
      .regex(/^(auto|(?:\d{1,2})(?:\.\d{1,2})?)$/, { error: 'must be auto or a percentage such as 1 or 0.5' })
      .refine((v) => v === 'auto' || (Number(v) >= 0.1 && Number(v) <= 20), {
        error: 'must be auto or a percentage from 0.1 to 20',
      })
      .default('auto'),
  ),
  /**
   * Option plans: minutes before the close (15:30 India time) on an expiry day from which no new entry is made on
   * that expiry's contracts (`nearest` then takes the next expiry; a date given is refused). 30 by default.
   */
  optionEntryCutoffMinutes: variable('OPTION_ENTRY_CUTOFF_MINUTES', () =>
    z.coerce.number().int().min(0).max(375).default(30),
  ),
  /** The price grid converted prices are rounded to (the exchanges' 0.05 for most instruments). */
  priceTick: variable('PRICE_TICK', () =>
    z
      .string()
      .regex(/^\d{1,6}(?:\.\d{1,8})?$/, { error: 'must be a positive decimal such as 0.05' })
      .refine((v) => Number(v) > 0, { error: 'must be greater than 0' })
      .default('0.05'),
  ),
  /**
   * The exchange algo id orders carry as `algo_id` (CDK context `algoId`): empty by default. Unregistered flow uses
   * the exchanges' generic one (NSE 99999, BSE 9999999999999999) if the broker asks for it.
   */
  algoId: variable('ALGO_ID', () =>
    z
      .string()
      .regex(/^[A-Za-z0-9]{1,32}$/, { error: 'must be 1 to 32 letters or digits (the exchange algo id)' })
      .optional()
      .or(z.literal('').transform(() => undefined)),
  ),
  /** Guardrail: turns placing and modifying off altogether (cancel and reads stay available). */
  guardrailReadOnly: variable('GUARDRAIL_READ_ONLY', () => flag()),
  /**
   * Guardrail: the largest quantity of an order. Unset or empty: the default, GUARDRAIL_DEFAULTS.maxQty; `off`: no
   * limit (docs/explanation/order-safety.md).
   */
  guardrailMaxQty: variable('GUARDRAIL_MAX_QTY', () =>
    limitSetting(GUARDRAIL_DEFAULTS.maxQty, /^[1-9]\d{0,9}$/, 'must be a positive whole number'),
  ),
  /**
   * Guardrail: qty × prc, or qty × d for market price types, in the instrument's currency. Unset or empty: the
   * default, GUARDRAIL_DEFAULTS.maxOrderValue; `off`: no limit.
   */
  guardrailMaxOrderValue: variable('GUARDRAIL_MAX_ORDER_VALUE', () =>
    limitSetting(GUARDRAIL_DEFAULTS.maxOrderValue, DECIMAL, 'must be a positive decimal number'),
  ),
  /** Guardrail: the exchanges orders may go to (comma-separated). */
  guardrailExchanges: variable('GUARDRAIL_EXCHANGES', () => list('GUARDRAIL_EXCHANGES', EXCHANGES)),
  /** Guardrail: the products orders may carry (comma-separated). */
  guardrailProducts: variable('GUARDRAIL_PRODUCTS', () => list('GUARDRAIL_PRODUCTS', PRODUCTS)),
  /** Guardrail: the price types orders may carry (comma-separated). */
  guardrailPriceTypes: variable('GUARDRAIL_PRICE_TYPES', () => list('GUARDRAIL_PRICE_TYPES', PRICE_TYPES)),
  /** Guardrail: the only symbols orders may be for (comma-separated). */
  guardrailSymbolsAllow: variable('GUARDRAIL_SYMBOLS_ALLOW', () => list('GUARDRAIL_SYMBOLS_ALLOW')),
  /** Guardrail: symbols orders may not be for (comma-separated). */
  guardrailSymbolsDeny: variable('GUARDRAIL_SYMBOLS_DENY', () => list('GUARDRAIL_SYMBOLS_DENY')),
  /** Watcher: runs an order must be missing from both lists before it is `GTT Removed` (the history may lag a little). */
  watcherRemovedAfterRuns: variable('WATCHER_REMOVED_AFTER_RUNS', () =>
    z.coerce.number().int().min(1).max(60).default(2),
  ),
  /** Session: how a browser login becomes a token: `oauth` (GenAcsTok) or `flattrade` (its token URL); see base/broker/presets.ts. */
  brokerLogin: variable('BROKER_LOGIN', () =>
    z.enum(['oauth', 'flattrade'], { error: 'must be oauth or flattrade' }).default('oauth'),
  ),
  /**
   * Session: the broker's login page, as a template with `{clientId}` and `{uid}` (e.g.
   * `https://host/OAuthlogin/authorize/oauth?client_id={clientId}`); without `{clientId}`, `client_id` is added.
   */
  brokerAuthorizeUrl: variable('BROKER_AUTHORIZE_URL', () =>
    z
      .string()
      .refine((v) => /^https?:\/\/\S+$/.test(v) && URL.canParse(v.replace(/\{(clientId|uid)\}/g, 'x')), {
        error: 'must be an http(s) URL (template)',
      })
      .optional(),
  ),
  /** Session, `flattrade` login: where the redirect's code is exchanged for a token. */
  brokerTokenUrl: variable('BROKER_TOKEN_URL', () => httpUrl().optional()),
  /** Session, OAuth: the secret holding `{clientId, secretCode, uid, actid?}`. */
  oauthAppSecretId: variable('OAUTH_APP_SECRET_ID', () => z.string().min(1).optional()),
  /** Session, OAuth: the DynamoDB table of issued `state` values (partition key `state`, TTL on `expiresAt`). */
  oauthStateTableName: variable('OAUTH_STATE_TABLE_NAME', () => z.string().min(3).optional()),
  /**
   * Session, OAuth: the login window, how long a started login (and its `state`) may wait for the broker's redirect;
   * a redirect without `state` is accepted only within it, once.
   */
  oauthStateTtlSeconds: variable('OAUTH_STATE_TTL_SECONDS', () =>
    z.coerce.number().int().min(30).max(3_600).default(600),
  ),
  /** Session, TOTP login: the secret holding `{uid, password, totpSeed, apiSecret, vendorCode?, imei?}`. */
  loginSecretId: variable('LOGIN_SECRET_ID', () => z.string().min(1).optional()),
  /** Notify formatter: the chat format it builds (`slack` or `telegram`; `raw` needs no formatter). */
  notifyFormat: variable('NOTIFY_FORMAT', () => z.enum(['slack', 'telegram'], { error: 'must be slack or telegram' })),
  /** Notify formatter, Telegram: the chat the messages go to, a numeric id or `@channel` (`telegram` needs it). */
  notifyTelegramChatId: variable('NOTIFY_TELEGRAM_CHAT_ID', () =>
    z
      .string()
      .optional()
      .transform((v) => v || undefined)
      .refine((v) => v === undefined || TELEGRAM_CHAT.test(v), {
        error: 'must be a numeric chat id (e.g. -1001234567890) or @channel',
      }),
  ),
  /** The signal queue (SQS) the webhook sends each recorded signal to, for the signal worker (docs/reference/signals.md). */
  signalQueueUrl: variable('SIGNAL_QUEUE_URL', () => httpUrl().optional()),
  /** Local runs and tests only: where the SQS calls go (the local queue, local/sqs.ts). */
  sqsEndpoint: variable('SQS_ENDPOINT', () => httpUrl().optional()),
  /**
   * The base of the webhook URLs the strategies' replies show (a custom domain, with its base path). Absent: the
   * API's own URL, from the request (`https://<requestContext.domainName>`).
   */
  signalBaseUrl: variable('SIGNAL_BASE_URL', () => httpUrl().optional()),
  /** `npm start --mcp-open` only, never deployed: `/mcp` lets token-less loopback callers in (docs/reference/assistants.md). */
  mcpOpenOnLoopback: variable('MCP_OPEN_ON_LOOPBACK', () =>
    z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .optional()
      .transform((v) => v === 'true'),
  ),
} as const;

type Catalogue = typeof ENV;
/** The camelCase key of an environment variable. */
export type EnvKey = keyof Catalogue;
/** An environment variable's name, by its key. */
export type EnvName<K extends EnvKey = EnvKey> = Catalogue[K]['name'];

/** The name of the variable with this key (for messages that name it). */
export const envName = <K extends EnvKey>(key: K): EnvName<K> => ENV[key].name;

/** Schemas that replace the catalogue's for one function (e.g. a variable it requires). */
export type EnvOverrides<K extends EnvKey> = Partial<Record<K, z.ZodType>>;
type SchemaOf<K extends EnvKey, O, P extends K> = P extends keyof O
  ? NonNullable<O[P]> extends z.ZodType
    ? NonNullable<O[P]>
    : Catalogue[P]['schema']
  : Catalogue[P]['schema'];
type ShapeByName<K extends EnvKey, O> = { [P in K as EnvName<P>]: SchemaOf<K, O, P> };
/** The environment a schema reads: by names, as Lambda and the local runner provide it. */
export type EnvInput<K extends EnvKey, O = object> = z.input<z.ZodObject<ShapeByName<K, O>>>;
/** What a schema answers: camelCase keys. */
export type EnvOutput<K extends EnvKey, O = object> = { [P in K]: z.output<SchemaOf<K, O, P>> };

/** The object schema of these variables by their names, without the camelCase transform. */
export const envObject = <const K extends EnvKey, O extends EnvOverrides<K> = object>(
  keys: readonly K[],
  overrides?: O,
): z.ZodObject<ShapeByName<K, O>> =>
  z.object(
    Object.fromEntries(
      keys.map((key) => [ENV[key].name, (overrides as EnvOverrides<K> | undefined)?.[key] ?? ENV[key].schema]),
    ),
  ) as unknown as z.ZodObject<ShapeByName<K, O>>;

/** A rule across variables, checked on the camelCase values; a failure names the variable of `key`. */
export interface EnvRule<K extends EnvKey, O> {
  holds: (values: EnvOutput<K, O>) => boolean;
  key: K;
  error: string;
}

const camelCased = <K extends EnvKey>(keys: readonly K[], byName: Record<string, unknown>) =>
  Object.fromEntries(keys.map((key) => [key, byName[ENV[key].name]]));

/** What each schema of `envSchema` reads: its keys, and each variable's schema (for the check of test/unit/). */
const READS = new WeakMap<z.ZodType, { keys: readonly EnvKey[]; shape: Readonly<Record<string, z.ZodType>> }>();

/** The variables a schema built by `envSchema` reads, each with the schema it reads it with; undefined for others. */
export const envReadsOf = (schema: z.ZodType) => READS.get(schema);

/**
 * One function's configuration schema: reads these variables by name (each with the catalogue's schema unless
 * overridden), checks the rules across them, and answers their values under camelCase keys.
 */
export const envSchema = <const K extends EnvKey, O extends EnvOverrides<K> = object>(
  keys: readonly K[],
  options: { overrides?: O; rules?: readonly EnvRule<NoInfer<K>, NoInfer<O>>[] } = {},
): z.ZodType<EnvOutput<K, O>, EnvInput<K, O>> => {
  // Built on first use: a module may declare the schemas of several functions (or of a part its function never
  // reads); only the one parsed costs its construction at a cold start.
  let object: z.ZodObject | undefined;
  const objectOf = () => (object ??= envObject(keys, options.overrides));
  const schema = z.lazy(() =>
    objectOf()
      .superRefine((byName, ctx) => {
        const values = camelCased(keys, byName) as EnvOutput<K, O>;
        for (const rule of options.rules ?? [])
          if (!rule.holds(values))
            ctx.addIssue({ code: 'custom', path: [ENV[rule.key].name], message: rule.error, input: byName });
      })
      .transform((byName) => camelCased(keys, byName) as EnvOutput<K, O>),
  ) as unknown as z.ZodType<EnvOutput<K, O>, EnvInput<K, O>>;
  READS.set(schema, {
    keys,
    get shape() {
      return objectOf().shape as Record<string, z.ZodType>;
    },
  });
  return schema;
};

/** The guardrails' variables (orders/safety/guardrails.ts): every order function reads them with the gateway's. */
export const GUARDRAIL_KEYS = [
  'guardrailReadOnly',
  'guardrailMaxQty',
  'guardrailMaxOrderValue',
  'guardrailExchanges',
  'guardrailProducts',
  'guardrailPriceTypes',
  'guardrailSymbolsAllow',
  'guardrailSymbolsDeny',
] as const;

/** Settings a deployment may choose (CDK context, or the environment of `npm start`); the rest is wiring. */
export const DEPLOYMENT_KEYS = [
  ...GUARDRAIL_KEYS,
  'idempotencyKeyRequired',
  'idempotencyTtlSeconds',
  'secretMaxAgeSeconds',
  'orderRatePerSecond',
  'orderRateMarginMs',
  'orderRatePerMinute',
  'orderLateWindowMs',
  'marketOrders',
  'marketProtectionPercent',
  'optionEntryCutoffMinutes',
  'priceTick',
  'algoId',
  'symbolMasterUrl',
  'symbolMasterExchanges',
  'watcherRemovedAfterRuns',
] as const satisfies readonly EnvKey[];
export type DeploymentKey = (typeof DEPLOYMENT_KEYS)[number];
/** The deployment settings by name (CDK context keys, `npm start`'s environment). */
export const DEPLOYMENT_SETTINGS = DEPLOYMENT_KEYS.map(envName) as readonly EnvName<DeploymentKey>[];

/** Values by key, of any scalar type; undefined: not set. */
export type EnvValues = { [K in EnvKey]?: string | number | boolean | undefined };

/**
 * An environment by names from values by keys (infra/, local/): `{ brokerSecretId: 'x', orderRatePerSecond: 8 }` is
 * `{ BROKER_SECRET_ID: 'x', ORDER_RATE_PER_SECOND: '8' }`, in the same order, without the undefined ones.
 */
export const environmentOf = (values: EnvValues): Record<string, string> =>
  Object.fromEntries(
    Object.entries(values).flatMap(([key, value]) =>
      value === undefined ? [] : [[ENV[key as EnvKey].name, String(value)]],
    ),
  );
