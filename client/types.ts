/**
 * The client's types: what each operation takes and answers, read from the types openapi-typescript generates from
 * the OpenAPI document (client/generated/), and the options of the client and of its calls.
 */
import type { GttGatewayError } from './errors.js';
import type { components, operations } from './generated/openapi.js';
import type { OPERATION_INFO } from './generated/operations.js';
import type { AwsCredentials, CredentialsProvider } from './signing.js';

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
/** A pending order as lists show it. */
export type GttOrder = OrderList['orders'][number];
/** One order by id: a GttOrder, and whose word it is (`source`; `asOf` for the watcher's copy). */
export type GttOrderRead = OperationResult<'GetGTTOrder'>;
export type TriggeredList = OperationResult<'GetTriggeredGTTOrders'>;
export type TriggeredPage = OperationQuery<'GetTriggeredGTTOrders'>;

export type EnabledGtts = OperationResult<'GetEnabledGTTs'>;
/** An instrument's quote: last traded price, today's band, tick and lot. */
export type Quote = OperationResult<'GetQuote'>;
export type QuoteQuery = OperationQuery<'GetQuote'>;
/** An instrument's price bars of a span, oldest first. */
export type Series = OperationResult<'GetSeries'>;
export type SeriesQuery = OperationQuery<'GetSeries'>;
/** The day's option chain of an index: its expiries, lot, strike step and each strike's CE and PE. */
export type OptionChain = OperationResult<'GetOptionChain'>;
export type OptionChainQuery = OperationQuery<'GetOptionChain'>;
export type ModifyResult = OperationResult<'ModifyGTTOrder'>;
export type ModifyOcoResult = OperationResult<'ModifyOCOOrder'>;
/** What a PATCH changes: only the fields given (at least one). */
export type GttOrderChanges = OperationBody<'PatchGTTOrder'>;
export type OcoOrderChanges = OperationBody<'PatchOCOOrder'>;
export type PatchResult = OperationResult<'PatchGTTOrder'>;
export type PatchOcoResult = OperationResult<'PatchOCOOrder'>;
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
export type StrategyInput = OperationBody<'CreateStrategy'>;
export type StrategyCreated = OperationResult<'CreateStrategy'>;
export type StrategyRecord = OperationResult<'GetStrategy'>;
export type StrategyList = OperationResult<'ListStrategies'>;
export type StrategyDeleted = OperationResult<'DeleteStrategy'>;
export type StrategyChanges = OperationBody<'UpdateStrategy'>;
export type SignalAccepted = OperationResult<'PostSignal'>;
export type AssistantInput = OperationBody<'CreateAssistant'>;
export type AssistantCreated = OperationResult<'CreateAssistant'>;
export type AssistantRecord = OperationResult<'GetAssistant'>;
export type AssistantList = OperationResult<'ListAssistants'>;
export type AssistantDeleted = OperationResult<'DeleteAssistant'>;
export type AssistantToken = OperationResult<'RotateAssistantToken'>;
export type SignalList = OperationResult<'ListSignals'>;
export type SignalRecord = OperationResult<'GetSignal'>;
export type SignalsQuery = OperationQuery<'ListSignals'>;
export type EventsQuery = OperationQuery<'ListEvents'>;

/**
 * A dry run's answer (docs/explanation/order-safety.md): the exact request the gateway would send, token masked. The OpenAPI
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
  /** Place and modify: the exchange's rules checked, with their values (a band or freeze not given was not checked). */
  exchangeRules?: components['schemas']['DryRun']['exchangeRules'];
}

/** Input of the generic `call`: path parameters, query parameters and body, each as the document types them. */
export interface CallInput<Id extends OperationId> {
  path?: OperationPathParams<Id>;
  query?: OperationQuery<Id>;
  body?: OperationBody<Id>;
  /** The `If-Match` header of a PATCH: the order's version (the `ETag` of `GET /gtt-orders/{alId}`) it is meant for. */
  ifMatch?: string;
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

/** The options of a dry run: the call resolves to a DryRunResult. */
export type DryRun = { dryRun: true };
