/**
 * The typed client of the gtt-gateway HTTP API: openapi-fetch on the types openapi-typescript generates from the
 * OpenAPI document (client/generated/), plus what a trader's script needs around it: SigV4 signing, an
 * Idempotency-Key per order call that every retry of that call reuses, retries only where they are safe, a timeout
 * per attempt and a deadline per call, and one error class (GttGatewayError) for every failure.
 *
 * Every operation of the document is reachable through `call(operationId, ...)`; the named methods (placeOrder,
 * listOrders, ...) are typed shorthands for the operations of the table today. docs/client.md has the rules.
 */
import { randomUUID } from 'node:crypto';

import createClient, { type Client } from 'openapi-fetch';

import { contractError, GttGatewayError, type GttGatewayErrorInit } from './errors.js';
import type { operations, paths } from './generated/openapi.js';
import { OPERATION_INFO, type OperationInfo } from './generated/operations.js';
import {
  type AwsCredentials,
  type CredentialsProvider,
  defaultCredentials,
  isLoopbackUrl,
  regionFromUrl,
  signRequest,
} from './signing.js';

// ---- types from the generated document ---------------------------------------------------------------------

export type OperationId = keyof operations & keyof typeof OPERATION_INFO;

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Responses<Id extends OperationId> = operations[Id]['responses'];
type Params<Id extends OperationId> = operations[Id]['parameters'];

/** What an operation answers on success (its 201 where it has one: the 200 is then the dry run). */
export type OperationResult<Id extends OperationId> =
  Responses<Id> extends { 201: infer R } ? JsonOf<R> : Responses<Id> extends { 200: infer R } ? JsonOf<R> : never;
/** The JSON body an operation takes (never: none). */
export type OperationBody<Id extends OperationId> = operations[Id] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;
/** Its path parameters (never: none). */
export type OperationPathParams<Id extends OperationId> = Params<Id> extends { path: infer P } ? P : never;
/** Its query parameters other than dryRun (never: none). */
export type OperationQuery<Id extends OperationId> =
  Params<Id> extends { query?: infer Q }
    ? [NonNullable<Q>] extends [never]
      ? never
      : Omit<NonNullable<Q>, 'dryRun'>
    : never;

export type GttOrderInput = OperationBody<'PlaceGTTOrder'>;
export type OcoOrderInput = OperationBody<'PlaceOCOOrder'>;
export type PlaceResult = OperationResult<'PlaceGTTOrder'>;
export type PlaceOcoResult = OperationResult<'PlaceOCOOrder'>;
export type ListFilters = OperationQuery<'GetPendingGTTOrder'>;
export type OrderList = OperationResult<'GetPendingGTTOrder'>;
export type GttOrder = OperationResult<'GetGTTOrder'>;
export type TriggeredList = OperationResult<'GetTriggeredGTTOrders'>;
export type TriggeredPage = OperationQuery<'GetTriggeredGTTOrders'>;

/** Calls `page` with each `nextCursor` until there is none; one list of every page's orders, without a cursor. */
const followPages = async <T extends { orders: unknown[]; nextCursor?: string | undefined }>(
  page: (cursor?: string) => Promise<T>,
): Promise<T> => {
  const first = await page();
  const orders = [...first.orders];
  let next = first.nextCursor;
  while (next) {
    const more = await page(next);
    orders.push(...more.orders);
    next = more.nextCursor;
  }
  const { nextCursor: _done, ...rest } = first;
  return { ...rest, orders } as T;
};
export type EnabledGtts = OperationResult<'GetEnabledGTTs'>;
export type ModifyResult = OperationResult<'ModifyGTTOrder'>;
export type ModifyOcoResult = OperationResult<'ModifyOCOOrder'>;
export type CancelResult = OperationResult<'CancelGTTOrder'>;
export type ClientDetails = OperationResult<'ClientDetails'>;
export type LogoutResult = OperationResult<'Logout'>;
export type LoginStart = OperationResult<'StartLogin'>;
export type SessionStatus = OperationResult<'GetSession'>;
export type KillSwitchState = OperationResult<'GetKillSwitch'>;
export type EventsPage = OperationResult<'ListEvents'>;
export type PlanInput = OperationBody<'CreatePlan'>;
export type PlanRecord = OperationResult<'GetPlan'>;
export type PlanCreated = OperationResult<'CreatePlan'>;
export type PlanList = OperationResult<'ListPlans'>;
export type EventsQuery = OperationQuery<'ListEvents'>;

/**
 * A dry run's answer (docs/order-safety.md): the exact request the gateway would send, token masked. The OpenAPI
 * document only says "an object" for it, so its shape is written here.
 */
export interface DryRunResult {
  dryRun: true;
  operation: string;
  request: {
    method: 'POST';
    url: string;
    headers: Record<string, string>;
    body: string;
    jData: Record<string, unknown>;
  };
}

/** Input of the generic `call`: path parameters, query parameters and body, each as the document types them. */
export interface CallInput<Id extends OperationId> {
  path?: OperationPathParams<Id>;
  query?: OperationQuery<Id>;
  body?: OperationBody<Id>;
}

// ---- options ---------------------------------------------------------------------------------------------------

export interface RetryEvent {
  operation: OperationId;
  /** The attempt that failed (1 = the first). */
  attempt: number;
  error: GttGatewayError;
  delayMs: number;
  idempotencyKey: string | undefined;
}

export interface GttClientOptions {
  /** The API's base URL: `https://<api-id>.execute-api.<region>.amazonaws.com` or `http://127.0.0.1:3000` (`npm start`). */
  baseUrl: string;
  /** SigV4-sign requests (IAM auth). `'auto'` (default): sign unless the URL is loopback (`npm start` checks no signature). */
  sign?: boolean | 'auto';
  /** Signing region; default: parsed from an `execute-api` host, else AWS_REGION / AWS_DEFAULT_REGION. */
  region?: string;
  /** Credentials or a provider of them; default: the AWS SDK's default chain (`@aws-sdk/credential-provider-node`). */
  credentials?: AwsCredentials | CredentialsProvider;
  /** Per attempt (ms). Default 10 000. */
  timeoutMs?: number;
  /** Per call, across all attempts and waits (ms). Default 30 000. */
  deadlineMs?: number;
  /** Attempts of a retry-safe call (1 = no retries). Default 4. Calls that are not retry-safe get one. */
  maxAttempts?: number;
  /** Backoff: the wait before retry n is in [d/2, d] with d = min(retryMaxDelayMs, retryBaseDelayMs * 2^(n-1)). */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** Called before each retry (logging). */
  onRetry?: (event: RetryEvent) => void;
  /** The HTTP transport (after signing); default globalThis.fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Jitter source in [0, 1); default Math.random. */
  random?: () => number;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  deadlineMs?: number;
  maxAttempts?: number;
}

export interface OrderOptions extends CallOptions {
  /**
   * The order's Idempotency-Key. Default: a fresh UUID per call, sent with every retry of that call. Pass your own
   * to make retries across processes safe (the same key again replays the first answer); `false` sends none, and
   * then nothing is retried.
   */
  idempotencyKey?: string | false;
  /** Validate and show the exact request the gateway would send to the broker; nothing is sent. */
  dryRun?: boolean;
}

type DryRun = { dryRun: true };

// ---- the client --------------------------------------------------------------------------------------------------

interface RawResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

interface Attempt {
  signal: AbortSignal;
  key: string | undefined;
  dryRun: boolean;
}

/** openapi-fetch without the per-path typing, for the generic `call`. */
interface UntypedClient {
  request(method: string, url: string, init: Record<string, unknown>): Promise<RawResult>;
}

const DEFAULTS = {
  timeoutMs: 10_000,
  deadlineMs: 30_000,
  maxAttempts: 4,
  retryBaseDelayMs: 250,
  retryMaxDelayMs: 4_000,
};

/** Errors of the connection itself, before any byte of the request could arrive: nothing was executed. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const causeCode = (error: unknown): string | undefined => {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
};

const retryAfterMs = (response: Response): number | undefined => {
  const value = response.headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
};

/** Thrown inside the transport when the client cannot sign (no credentials): becomes CLIENT_CONFIG_ERROR, never retried. */
class ClientSetupError extends Error {}

const configError = (operation: string, message: string, cause?: unknown) =>
  new GttGatewayError({ code: 'CLIENT_CONFIG_ERROR', message, operation, ...(cause === undefined ? {} : { cause }) });

const positive = (name: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw configError('createGttClient', `${name} must be a positive number, got ${String(value)}`);
  return value;
};

export class GttClient {
  readonly baseUrl: string;
  /** Whether requests are SigV4-signed. */
  readonly signing: boolean;
  readonly region: string | undefined;
  /**
   * The underlying openapi-fetch client, typed by the generated `paths`: no retries, no error mapping. Signing
   * applies. For whatever the named methods do not cover.
   */
  readonly raw: Client<paths>;

  private readonly options: Required<
    Pick<GttClientOptions, 'timeoutMs' | 'deadlineMs' | 'maxAttempts' | 'retryBaseDelayMs' | 'retryMaxDelayMs'>
  >;
  private readonly credentials: CredentialsProvider;
  private readonly transport: (request: Request) => Promise<Response>;
  private readonly random: () => number;
  private readonly onRetry: ((event: RetryEvent) => void) | undefined;

  constructor(options: GttClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch (error) {
      throw configError('createGttClient', `baseUrl is not a URL: ${JSON.stringify(options.baseUrl)}`, error);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw configError('createGttClient', `baseUrl must be http(s), got ${url.protocol}`);
    this.baseUrl = url.href.replace(/\/+$/, '');
    this.signing = options.sign === undefined || options.sign === 'auto' ? !isLoopbackUrl(url) : options.sign;
    this.region = options.region ?? regionFromUrl(url) ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
    if (this.signing && !this.region) {
      throw configError(
        'createGttClient',
        `SigV4 needs a region: pass \`region\` (${url.hostname} is not an execute-api host) or set AWS_REGION.`,
      );
    }
    this.options = {
      timeoutMs: positive('timeoutMs', options.timeoutMs, DEFAULTS.timeoutMs),
      deadlineMs: positive('deadlineMs', options.deadlineMs, DEFAULTS.deadlineMs),
      maxAttempts: Math.floor(positive('maxAttempts', options.maxAttempts, DEFAULTS.maxAttempts)),
      retryBaseDelayMs: positive('retryBaseDelayMs', options.retryBaseDelayMs, DEFAULTS.retryBaseDelayMs),
      retryMaxDelayMs: positive('retryMaxDelayMs', options.retryMaxDelayMs, DEFAULTS.retryMaxDelayMs),
    };
    const credentials = options.credentials ?? defaultCredentials;
    this.credentials = typeof credentials === 'function' ? credentials : () => Promise.resolve(credentials);
    this.transport = options.fetch ?? ((request) => fetch(request));
    this.random = options.random ?? Math.random;
    this.onRetry = options.onRetry;
    this.raw = createClient<paths>({ baseUrl: this.baseUrl, fetch: (request) => this.send(request) });
  }

  /** Signs (when signing) and sends one request. */
  private async send(request: Request): Promise<Response> {
    if (!this.signing) return this.transport(request);
    let credentials: AwsCredentials;
    try {
      credentials = await this.credentials();
    } catch (error) {
      throw new ClientSetupError(
        `No AWS credentials for SigV4 (${error instanceof Error ? error.message : String(error)}); nothing was sent.`,
        { cause: error },
      );
    }
    return this.transport(await signRequest(request, { region: this.region!, credentials }));
  }

  // ---- the operations ----

  /** PlaceGTTOrder: `POST /gtt-orders`. */
  placeOrder(order: GttOrderInput, options: OrderOptions & DryRun): Promise<DryRunResult>;
  placeOrder(order: GttOrderInput, options?: OrderOptions): Promise<PlaceResult>;
  placeOrder(order: GttOrderInput, options: OrderOptions = {}): Promise<PlaceResult | DryRunResult> {
    return this.run('PlaceGTTOrder', options, ({ signal, key, dryRun }) =>
      this.raw.POST('/gtt-orders', {
        params: { header: keyHeader(key), query: dryRunQuery(dryRun) },
        body: order,
        signal,
      }),
    );
  }

  /** PlaceOCOOrder: `POST /gtt-orders/oco`. */
  placeOco(oco: OcoOrderInput, options: OrderOptions & DryRun): Promise<DryRunResult>;
  placeOco(oco: OcoOrderInput, options?: OrderOptions): Promise<PlaceOcoResult>;
  placeOco(oco: OcoOrderInput, options: OrderOptions = {}): Promise<PlaceOcoResult | DryRunResult> {
    return this.run('PlaceOCOOrder', options, ({ signal, key, dryRun }) =>
      this.raw.POST('/gtt-orders/oco', {
        params: { header: keyHeader(key), query: dryRunQuery(dryRun) },
        body: oco,
        signal,
      }),
    );
  }

  /**
   * GetPendingGTTOrder: `GET /gtt-orders[?tsym=&exch=&limit=&cursor=]`, one page (100 orders unless `limit`, at most
   * 1,000); `nextCursor` is there while more remain.
   */
  listOrders(filters: ListFilters = {}, options: CallOptions = {}): Promise<OrderList> {
    return this.run('GetPendingGTTOrder', options, ({ signal }) =>
      this.raw.GET('/gtt-orders', { params: { query: filters }, signal }),
    );
  }

  /** Every pending order (of the filters), following `nextCursor` page by page: one call per page. */
  async listAllOrders(filters: Omit<ListFilters, 'cursor'> = {}, options: CallOptions = {}): Promise<OrderList> {
    return followPages((cursor) => this.listOrders({ ...filters, ...(cursor ? { cursor } : {}) }, options));
  }

  /** GetGTTOrder: `GET /gtt-orders/{alId}`. */
  getOrder(alId: string, options: CallOptions = {}): Promise<GttOrder> {
    return this.run('GetGTTOrder', options, ({ signal }) =>
      this.raw.GET('/gtt-orders/{alId}', { params: { path: { alId } }, signal }),
    );
  }

  /** GetTriggeredGTTOrders: `GET /gtt-orders/triggered[?limit=&cursor=]`, one page, like `listOrders`. */
  triggered(options: CallOptions = {}, page: TriggeredPage = {}): Promise<TriggeredList> {
    return this.run('GetTriggeredGTTOrders', options, ({ signal }) =>
      this.raw.GET('/gtt-orders/triggered', { params: { query: page }, signal }),
    );
  }

  /** The whole triggered history, following `nextCursor`. */
  async allTriggered(options: CallOptions = {}, page: Omit<TriggeredPage, 'cursor'> = {}): Promise<TriggeredList> {
    return followPages((cursor) => this.triggered(options, { ...page, ...(cursor ? { cursor } : {}) }));
  }

  /** GetEnabledGTTs: `GET /gtt-orders/enabled`. */
  enabled(options: CallOptions = {}): Promise<EnabledGtts> {
    return this.run('GetEnabledGTTs', options, ({ signal }) => this.raw.GET('/gtt-orders/enabled', { signal }));
  }

  /** ModifyGTTOrder: `PUT /gtt-orders/{alId}` (a full replacement of the order's fields). */
  modifyOrder(alId: string, order: GttOrderInput, options: OrderOptions & DryRun): Promise<DryRunResult>;
  modifyOrder(alId: string, order: GttOrderInput, options?: OrderOptions): Promise<ModifyResult>;
  modifyOrder(alId: string, order: GttOrderInput, options: OrderOptions = {}): Promise<ModifyResult | DryRunResult> {
    return this.run('ModifyGTTOrder', options, ({ signal, key, dryRun }) =>
      this.raw.PUT('/gtt-orders/{alId}', {
        params: { path: { alId }, header: keyHeader(key), query: dryRunQuery(dryRun) },
        body: order,
        signal,
      }),
    );
  }

  /** ModifyOCOOrder: `PUT /gtt-orders/oco/{alId}` (both legs again: a full replacement). */
  modifyOco(alId: string, oco: OcoOrderInput, options: OrderOptions & DryRun): Promise<DryRunResult>;
  modifyOco(alId: string, oco: OcoOrderInput, options?: OrderOptions): Promise<ModifyOcoResult>;
  modifyOco(alId: string, oco: OcoOrderInput, options: OrderOptions = {}): Promise<ModifyOcoResult | DryRunResult> {
    return this.run('ModifyOCOOrder', options, ({ signal, key, dryRun }) =>
      this.raw.PUT('/gtt-orders/oco/{alId}', {
        params: { path: { alId }, header: keyHeader(key), query: dryRunQuery(dryRun) },
        body: oco,
        signal,
      }),
    );
  }

  /** CancelGTTOrder: `DELETE /gtt-orders/{alId}` (single or OCO). */
  cancelOrder(alId: string, options: OrderOptions & DryRun): Promise<DryRunResult>;
  cancelOrder(alId: string, options?: OrderOptions): Promise<CancelResult>;
  cancelOrder(alId: string, options: OrderOptions = {}): Promise<CancelResult | DryRunResult> {
    return this.run('CancelGTTOrder', options, ({ signal, key, dryRun }) =>
      this.raw.DELETE('/gtt-orders/{alId}', {
        params: { path: { alId }, header: keyHeader(key), query: dryRunQuery(dryRun) },
        signal,
      }),
    );
  }

  /** ClientDetails: `GET /client`. */
  clientDetails(options: CallOptions = {}): Promise<ClientDetails> {
    return this.run('ClientDetails', options, ({ signal }) => this.raw.GET('/client', { signal }));
  }

  /** Logout: `POST /session/logout`. Never retried: after it, every call answers SESSION_EXPIRED. */
  logout(options: CallOptions = {}): Promise<LogoutResult> {
    return this.run('Logout', { ...options, maxAttempts: 1 }, ({ signal }) =>
      this.raw.POST('/session/logout', { signal }),
    );
  }

  /** StartLogin: `GET /session/oauth/start`: the broker's login page to open (a browser login, then the callback). */
  startLogin(options: CallOptions = {}): Promise<LoginStart> {
    return this.run('StartLogin', options, ({ signal }) => this.raw.GET('/session/oauth/start', { signal }));
  }

  /**
   * The kill switch: `on` (POST /kill-switch: refuse places and modifies, cancel every pending order), `off`
   * (DELETE), `status` (GET). On and off are sent once (a repeat is harmless but not automatic).
   */
  killSwitch(action: 'on' | 'off' | 'status', options: CallOptions = {}): Promise<KillSwitchState> {
    if (action === 'on')
      return this.run('ActivateKillSwitch', options, ({ signal }) => this.raw.POST('/kill-switch', { signal }));
    if (action === 'off')
      return this.run('ReleaseKillSwitch', options, ({ signal }) => this.raw.DELETE('/kill-switch', { signal }));
    return this.run('GetKillSwitch', options, ({ signal }) => this.raw.GET('/kill-switch', { signal }));
  }

  /**
   * ListEvents: `GET /events[?since=&type=&limit=&cursor=]`: the account's lifecycle events of the last 30 days,
   * oldest first, since `since` (default: the start of today, India time); one page, like `listOrders`.
   */
  events(query: EventsQuery = {}, options: CallOptions = {}): Promise<EventsPage> {
    return this.run('ListEvents', options, ({ signal }) => this.raw.GET('/events', { params: { query }, signal }));
  }

  /** Every event since `since` (of `type`), following `nextCursor` page by page. */
  async allEvents(query: Omit<EventsQuery, 'cursor'> = {}, options: CallOptions = {}): Promise<EventsPage> {
    const first = await this.events(query, options);
    const events = [...first.events];
    let next = first.nextCursor;
    while (next) {
      const more = await this.events({ ...query, cursor: next }, options);
      events.push(...more.events);
      next = more.nextCursor;
    }
    const { nextCursor: _done, ...rest } = first;
    return { ...rest, events };
  }

  /**
   * CreatePlan: `POST /plans` with an Idempotency-Key (made up when absent, and kept for the retries): a bracket or
   * a trailing stop (docs/plans.md). The same key again answers the same plan.
   */
  createPlan(plan: PlanInput, options: OrderOptions = {}): Promise<PlanCreated> {
    return this.run('CreatePlan', options, ({ signal, key }) =>
      this.raw.POST('/plans', { params: { header: keyHeader(key) }, body: plan, signal }),
    );
  }

  /** ListPlans: `GET /plans`, a page at a time (`nextCursor` while more remain). */
  plans(page: { limit?: number; cursor?: string } = {}, options: CallOptions = {}): Promise<PlanList> {
    return this.run('ListPlans', options, ({ signal }) => this.raw.GET('/plans', { params: { query: page }, signal }));
  }

  /** GetPlan: `GET /plans/{planId}`. */
  getPlan(planId: string, options: CallOptions = {}): Promise<PlanRecord> {
    return this.run('GetPlan', options, ({ signal }) =>
      this.raw.GET('/plans/{planId}', { params: { path: { planId } }, signal }),
    );
  }

  /** CancelPlan: `DELETE /plans/{planId}`: its live GTT cancelled, the plan ended. */
  cancelPlan(planId: string, options: CallOptions = {}): Promise<PlanRecord> {
    return this.run('CancelPlan', options, ({ signal }) =>
      this.raw.DELETE('/plans/{planId}', { params: { path: { planId } }, signal }),
    );
  }

  /** GetSession: `GET /session`: whose session the gateway trades with, since when, alive or not. */
  session(options: CallOptions = {}): Promise<SessionStatus> {
    return this.run('GetSession', options, ({ signal }) => this.raw.GET('/session', { signal }));
  }

  /**
   * Any operation of the OpenAPI document by its operationId, with the same keys, retries, timeouts and errors as
   * the named methods: operations added to the table are callable as soon as the types are regenerated.
   */
  call<Id extends OperationId>(
    operation: Id,
    input: CallInput<Id>,
    options: OrderOptions & DryRun,
  ): Promise<DryRunResult>;
  call<Id extends OperationId>(
    operation: Id,
    input?: CallInput<Id>,
    options?: OrderOptions,
  ): Promise<OperationResult<Id>>;
  call<Id extends OperationId>(
    operation: Id,
    input: CallInput<Id> = {},
    options: OrderOptions = {},
  ): Promise<OperationResult<Id> | DryRunResult> {
    const info: OperationInfo = OPERATION_INFO[operation];
    const untyped = this.raw as unknown as UntypedClient;
    return this.run(operation, options, ({ signal, key, dryRun }) =>
      untyped.request(info.method.toLowerCase(), info.path, {
        params: { path: input.path, query: { ...input.query, ...dryRunQuery(dryRun) }, header: keyHeader(key) },
        ...(input.body === undefined ? {} : { body: input.body }),
        signal,
      }),
    );
  }

  // ---- attempts, retries, errors ----

  private async run<T>(
    operation: OperationId,
    options: OrderOptions,
    attempt: (a: Attempt) => Promise<RawResult>,
  ): Promise<T> {
    const info: OperationInfo = OPERATION_INFO[operation];
    const dryRun = options.dryRun === true;
    const key =
      options.idempotencyKey === false
        ? undefined
        : (options.idempotencyKey ?? (info.idempotencyKey !== undefined && !dryRun ? randomUUID() : undefined));
    // Changes something at the broker, so failures carry an outcome. A dry run sends nothing.
    const changes = info.kind !== 'read' && !dryRun;
    const keyed = key !== undefined && info.idempotencyKey !== undefined;
    // The operation table's word, carried by the OpenAPI document: not guessed from the HTTP method.
    const retrySafe = info.retrySafe || dryRun || keyed;
    const maxAttempts = retrySafe ? Math.max(1, Math.floor(options.maxAttempts ?? this.options.maxAttempts)) : 1;
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    const deadline = Date.now() + (options.deadlineMs ?? this.options.deadlineMs);

    let uncertain = false;
    for (let n = 1; ; n++) {
      const result = await this.attemptOnce(attempt, {
        operation,
        key,
        changes,
        dryRun,
        timeoutMs,
        deadline,
        signal: options.signal,
      });
      if (result.ok) return result.data as T;
      const { error } = result;
      error.attempts = n;
      const delay = this.backoff(n, error.code === 'IDEMPOTENCY_IN_PROGRESS' ? undefined : result.retryAfterMs);
      const again =
        retrySafe &&
        n < maxAttempts &&
        retryable(error, keyed) &&
        Date.now() + delay < deadline &&
        !options.signal?.aborted;
      if (!again) throw finalError(error, { changes, uncertain, key });
      if (error.outcome === 'unknown') uncertain = true;
      this.onRetry?.({ operation, attempt: n, error, delayMs: delay, idempotencyKey: key });
      await sleep(delay, options.signal);
    }
  }

  /** One HTTP attempt, bounded by the attempt timeout and the call's deadline; every failure becomes a GttGatewayError. */
  private async attemptOnce(
    attempt: (a: Attempt) => Promise<RawResult>,
    c: {
      operation: OperationId;
      key: string | undefined;
      changes: boolean;
      dryRun: boolean;
      timeoutMs: number;
      deadline: number;
      signal: AbortSignal | undefined;
    },
  ): Promise<{ ok: true; data: unknown } | { ok: false; error: GttGatewayError; retryAfterMs?: number }> {
    const base = { operation: c.operation, ...(c.key === undefined ? {} : { idempotencyKey: c.key }) };
    /** For calls that change something: unknown, unless nothing can have been sent. */
    const outcome = (notSent: boolean) =>
      c.changes ? { outcome: notSent ? ('not_executed' as const) : ('unknown' as const) } : {};
    const fail = (init: Omit<GttGatewayErrorInit, 'operation'>) => ({
      ok: false as const,
      error: new GttGatewayError({ ...base, ...init }),
    });
    if (c.signal?.aborted)
      return fail({ code: 'CLIENT_ABORTED', message: `${c.operation}: aborted before it was sent.`, ...outcome(true) });

    const remaining = c.deadline - Date.now();
    const byDeadline = remaining < c.timeoutMs;
    const controller = new AbortController();
    let why: 'timeout' | 'caller' | undefined;
    const timer = setTimeout(
      () => {
        why = 'timeout';
        controller.abort();
      },
      Math.max(0, Math.min(c.timeoutMs, remaining)),
    );
    const onCallerAbort = () => {
      why = 'caller';
      controller.abort();
    };
    c.signal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      const result = await attempt({ signal: controller.signal, key: c.key, dryRun: c.dryRun });
      if (result.response.ok && result.error === undefined) return { ok: true, data: result.data };
      const retryAfter = retryAfterMs(result.response);
      return {
        ok: false,
        error: answerError(result, c.changes, base),
        ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
      };
    } catch (thrown) {
      if (thrown instanceof ClientSetupError)
        return fail({ code: 'CLIENT_CONFIG_ERROR', message: thrown.message, cause: thrown.cause, ...outcome(true) });
      if (why === 'timeout') {
        const limit = byDeadline ? "the call's deadline ran out" : `no answer within ${c.timeoutMs} ms`;
        return fail({ code: 'CLIENT_TIMEOUT', message: `${c.operation}: ${limit}.`, cause: thrown, ...outcome(false) });
      }
      if (why === 'caller')
        return fail({
          code: 'CLIENT_ABORTED',
          message: `${c.operation}: aborted by the caller.`,
          cause: thrown,
          ...outcome(false),
        });
      if (thrown instanceof SyntaxError) {
        return fail({
          code: 'BAD_RESPONSE',
          message: `${c.operation}: the success answer is not JSON (${thrown.message}).`,
          cause: thrown,
          ...outcome(false),
        });
      }
      const code = causeCode(thrown);
      const text = thrown instanceof Error ? thrown.message : String(thrown);
      return fail({
        code: 'NETWORK_ERROR',
        message: `${c.operation}: ${text}${code ? ` (${code})` : ''} at ${this.baseUrl}.`,
        cause: thrown,
        ...outcome(code !== undefined && NOT_SENT.has(code)),
      });
    } finally {
      clearTimeout(timer);
      c.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  private backoff(attempt: number, retryAfter: number | undefined): number {
    const ceiling = Math.min(this.options.retryMaxDelayMs, this.options.retryBaseDelayMs * 2 ** (attempt - 1));
    const jittered = ceiling / 2 + (this.random() * ceiling) / 2;
    return Math.round(
      retryAfter === undefined ? jittered : Math.min(this.options.retryMaxDelayMs, Math.max(jittered, retryAfter)),
    );
  }
}

export const createGttClient = (options: GttClientOptions): GttClient => new GttClient(options);

// ---- helpers -------------------------------------------------------------------------------------------------------

/** The Idempotency-Key header, or none (openapi-fetch leaves out undefined headers). */
const keyHeader = (key: string | undefined) => ({ 'Idempotency-Key': key }) as { 'Idempotency-Key': string };
const dryRunQuery = (dryRun: boolean) => (dryRun ? { dryRun: true } : {});

/** An HTTP answer that is not a success: the contract error, or HTTP_ERROR for anything else. */
const answerError = (
  result: RawResult,
  changes: boolean,
  base: { operation: string; idempotencyKey?: string },
): GttGatewayError => {
  const status = result.response.status;
  const body = result.response.ok ? undefined : result.error;
  const contract = contractError(body);
  if (contract) {
    return new GttGatewayError({
      ...base,
      code: contract.code,
      message: contract.message,
      status,
      ...(contract.outcome === undefined ? {} : { outcome: contract.outcome }),
      ...(contract.details === undefined ? {} : { details: contract.details }),
      ...(contract.brokerMessage === undefined ? {} : { brokerMessage: contract.brokerMessage }),
    });
  }
  const text =
    typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
      ? (body as { message: string }).message
      : typeof body === 'string' && body.trim() !== ''
        ? body.trim().slice(0, 300)
        : result.response.statusText || 'no body';
  return new GttGatewayError({
    ...base,
    code: 'HTTP_ERROR',
    message: `HTTP ${status} outside the gateway's error contract: ${text}`,
    status,
    // API Gateway refuses 4xx before the function runs; a 5xx of its own (integration failure or timeout) may come after it ran.
    ...(changes ? { outcome: status >= 500 ? 'unknown' : 'not_executed' } : {}),
  });
};

/**
 * Worth another attempt (the call is already known to be retry-safe): the key is still in flight (409), a rate
 * limit (429), the broker or API unavailable (502/503/504), no answer at all. Never a session expiry. A 5xx whose
 * outcome the gateway says is unknown, on a call with a key, is not repeated: the gateway stored that answer under
 * the key, so every retry would only replay it.
 */
const retryable = (error: GttGatewayError, keyed: boolean): boolean => {
  switch (error.code) {
    case 'SESSION_EXPIRED':
    case 'CLIENT_ABORTED':
    case 'CLIENT_CONFIG_ERROR':
    case 'BAD_RESPONSE':
      return false;
    case 'CLIENT_TIMEOUT':
    case 'NETWORK_ERROR':
    case 'IDEMPOTENCY_IN_PROGRESS':
      return true;
  }
  if (error.status === 429) return true;
  if (error.status === 502 || error.status === 503 || error.status === 504) {
    return !(keyed && error.isContractError && error.outcome === 'unknown');
  }
  return false;
};

/**
 * The error the caller gets. Once an attempt of a call that changes something got no answer, a later failure
 * cannot prove that the broker did not act (that attempt may still be in flight): its outcome becomes unknown.
 */
const finalError = (
  error: GttGatewayError,
  c: { changes: boolean; uncertain: boolean; key: string | undefined },
): GttGatewayError => {
  if (!c.changes) return error;
  // The gateway's own unknown outcome, stored under the key: its message already says what to do.
  const storedByGateway = error.isContractError && error.outcome === 'unknown';
  if (c.uncertain && error.outcome !== 'unknown') {
    error.outcome = 'unknown';
    error.message += ` An earlier attempt of this call got no answer (${error.attempts} attempts in all), so the broker may have acted.`;
  }
  if (error.outcome !== 'unknown' || storedByGateway) return error;
  error.message +=
    c.key === undefined
      ? ' Check the pending orders before acting again.'
      : ` Calling again with idempotency key ${c.key} is safe: it returns the first attempt's result once it is known, never a second order.`;
  return error;
};

const sleep = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
