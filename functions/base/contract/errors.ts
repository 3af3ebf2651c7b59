/**
 * The gateway's error contract, in one place.
 *
 * Every failure becomes a GatewayError subclass. Over HTTP it is rendered as
 * `{ "error": { code, message, details?, brokerMessage?, outcome? } }` with the row's status; on a direct
 * invocation it is thrown with `name` = the code in PascalCase so Step Functions `Retry`/`Catch` can match it.
 */

/** Every error code the gateway answers with, its HTTP status, and whether a blind retry is safe in principle. */
export const ERROR_CATALOG = {
  VALIDATION_FAILED: {
    status: 400,
    summary: 'The request does not satisfy the input schema; nothing was sent to the broker.',
  },
  ORDER_NOT_FOUND: { status: 404, summary: 'The broker does not know this GTT order (`Invalid Oi`).' },
  BROKER_REJECTED: { status: 422, summary: 'The broker answered `Not_Ok`; its text is in `brokerMessage`.' },
  SESSION_EXPIRED: {
    status: 503,
    summary: 'The broker session in the secret is no longer valid; rotate the access token in the secret.',
  },
  RATE_LIMITED: {
    status: 429,
    summary:
      "Over the order rate: this deployment's governor refused the call before sending it, or the broker refused it for exceeding its own limit; not executed. Retry after `Retry-After` seconds.",
  },
  BROKER_TIMEOUT: {
    status: 504,
    summary: 'The broker did not answer in time (`Server Timeout :` or our own request timeout).',
  },
  BROKER_UNAVAILABLE: { status: 502, summary: 'The broker could not be reached or answered with an HTTP 5xx.' },
  BROKER_BAD_REPLY: {
    status: 502,
    summary: 'The broker answered with something that is not JSON or not the documented shape.',
  },
  GUARDRAIL_REJECTED: {
    status: 422,
    summary: "The order breaks one of this deployment's guardrails; nothing was sent to the broker.",
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    summary: 'The idempotency key was already used with a different request body.',
  },
  ORDER_CHANGED: {
    status: 412,
    summary:
      'The pending order changed since it was read (If-Match, or the read just before sending a PATCH); `details` name the fields. Nothing was sent.',
  },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    summary:
      'A request with the same idempotency key is still in flight (or its write may still reach the broker); retry after `retryAfterSeconds` (in `details`).',
  },
  ORDER_BUSY: {
    status: 409,
    summary:
      'Another modify, PATCH or cancel of this GTT order is in flight; read the order again (GET /gtt-orders/{alId}) and decide. Nothing was sent.',
  },
  GATEWAY_BUSY: {
    status: 503,
    summary:
      "The gateway's own steps before the broker call (a burst, a cold start) left no time to send the order within its bound; nothing was sent. Retry after `Retry-After` seconds.",
  },
  CONFIGURATION_ERROR: { status: 500, summary: 'The deployment is misconfigured (environment or secret).' },
  INTERNAL_ERROR: { status: 500, summary: 'An unexpected error inside the gateway.' },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    summary: 'The request body is larger than the API accepts (the local API: 1 MB); nothing was sent to the broker.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    summary:
      'The request has a body (or a Content-Type) that is not `application/json`; nothing was sent to the broker.',
  },
  SESSION_ACCOUNT_MISMATCH: {
    status: 403,
    summary: "A broker login returned a session of another account than this deployment's; nothing was written.",
  },
  REQUEST_FORBIDDEN: {
    status: 403,
    summary:
      "The local API refuses requests from another origin (an `Origin` header that is not the local API) or for another host (DNS rebinding); a signal webhook refuses a source address outside its strategy's allowIps. Nothing was sent.",
  },
  PLAN_NOT_FOUND: {
    status: 404,
    summary: 'No plan has this id (GET /plans lists them; ended plans are kept 30 days).',
  },
  PLAN_BUSY: {
    status: 409,
    summary:
      'A step of the plan is at the broker right now (a place or a modify awaiting its answer); retry after `retryAfterSeconds` (in `details`).',
  },
  STRATEGY_NOT_FOUND: {
    status: 404,
    summary: 'No strategy has this id (GET /strategies lists them).',
  },
  ASSISTANT_NOT_FOUND: {
    status: 404,
    summary: 'No assistant has this id (GET /assistants lists them).',
  },
  SIGNAL_NOT_FOUND: {
    status: 404,
    summary: 'No signal has this id (GET /signals lists them; they are kept 30 days).',
  },
  SIGNAL_TOKEN_INVALID: {
    status: 401,
    summary:
      "The signal webhook's token is not one of a strategy's (mistyped, rotated or its strategy deleted); nothing was recorded.",
  },
  OCO_LEGS_MISMATCH: {
    status: 422,
    summary:
      'The OCO the broker took holds its legs otherwise than asked (read back from the pending list: `details` name each field asked and held); it was cancelled at once (`outcome: undone`), or, if that cancel failed, it is still live (`outcome: executed`): cancel it by hand (`details.al_id`).',
  },
  TRADING_HALTED: {
    status: 423,
    summary:
      'The kill switch is on: places and modifies are refused until it is turned off (DELETE /kill-switch); nothing was sent.',
  },
} as const satisfies Record<string, { status: number; summary: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** SESSION_EXPIRED -> SessionExpired: the `name` a direct invocation's error carries. */
export const errorName = (code: ErrorCode): string =>
  code
    .toLowerCase()
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/**
 * For place/modify/cancel: did the broker act? `unknown` means the request may have been executed
 * (timeout after sending, unreadable reply): the caller must check the pending list before retrying.
 * `not_executed` means the broker certainly did not act (refused connection, session or validation failure).
 */
/**
 * What the broker did, on a failure of a call that changes orders or the session: `unknown` (it may have acted),
 * `not_executed` (it certainly did not), `undone` (it acted and the gateway undid it at once: an order that landed
 * while the kill switch was on, or an OCO whose legs the broker holds otherwise than asked, cancelled; nothing of it
 * is live), `executed` (it acted and its order is live, though the request failed: an OCO whose legs differ and
 * whose cancel failed; cancel it by hand).
 */
export type Outcome = 'unknown' | 'not_executed' | 'undone' | 'executed';

/** The one shape of `details` when a request is refused field by field (VALIDATION_FAILED, CONFIGURATION_ERROR). */
export interface FieldProblem {
  /** The field, query parameter or header, as the caller named it (a nested field as `target.trigger`). */
  field: string;
  message: string;
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: unknown;
  brokerMessage?: string;
  outcome?: Outcome;
}

export interface GatewayErrorOptions {
  details?: unknown;
  brokerMessage?: string;
  outcome?: Outcome;
  cause?: unknown;
}

export abstract class GatewayError extends Error {
  abstract readonly code: ErrorCode;
  readonly details?: unknown;
  readonly brokerMessage?: string;
  outcome?: Outcome;

  constructor(message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.details = options.details;
    this.brokerMessage = options.brokerMessage;
    this.outcome = options.outcome;
  }

  get status(): number {
    return ERROR_CATALOG[this.code].status;
  }

  toBody(): ErrorBody {
    return {
      code: this.code,
      message: this.message,
      ...(this.details === undefined ? {} : { details: this.details }),
      ...(this.brokerMessage === undefined ? {} : { brokerMessage: this.brokerMessage }),
      ...(this.outcome === undefined ? {} : { outcome: this.outcome }),
    };
  }
}

// One class per code. `name` is set on the prototype so `instanceof` and Step Functions matching agree.
const define = <C extends ErrorCode>(code: C) => {
  class Coded extends GatewayError {
    readonly code: C = code;
  }
  Object.defineProperty(Coded.prototype, 'name', { value: errorName(code), writable: true, configurable: true });
  Object.defineProperty(Coded, 'name', { value: `${errorName(code)}Error` });
  return Coded;
};

export class ValidationFailedError extends define('VALIDATION_FAILED') {
  /**
   * Its details are always `{field, message}` problems. A request refused as invalid was never sent, whichever check
   * refused it (the schema's, qty 0 or an unknown side, or a rule after it): its outcome is `not_executed`.
   */
  constructor(
    message: string,
    options: Omit<GatewayErrorOptions, 'details'> & { details?: readonly FieldProblem[] } = {},
  ) {
    super(message, { ...options, outcome: options.outcome ?? 'not_executed' });
  }
}
export class OrderNotFoundError extends define('ORDER_NOT_FOUND') {}
export class BrokerRejectedError extends define('BROKER_REJECTED') {}
export class SessionExpiredError extends define('SESSION_EXPIRED') {}
export class RateLimitedError extends define('RATE_LIMITED') {}
export class BrokerTimeoutError extends define('BROKER_TIMEOUT') {}
export class BrokerUnavailableError extends define('BROKER_UNAVAILABLE') {}
export class BrokerBadReplyError extends define('BROKER_BAD_REPLY') {}
export class GuardrailRejectedError extends define('GUARDRAIL_REJECTED') {}
export class IdempotencyKeyReusedError extends define('IDEMPOTENCY_KEY_REUSED') {}
export class IdempotencyInProgressError extends define('IDEMPOTENCY_IN_PROGRESS') {}
export class ConfigurationError extends define('CONFIGURATION_ERROR') {}
export class InternalError extends define('INTERNAL_ERROR') {}
export class GatewayBusyError extends define('GATEWAY_BUSY') {}
export class PayloadTooLargeError extends define('PAYLOAD_TOO_LARGE') {}
export class UnsupportedMediaTypeError extends define('UNSUPPORTED_MEDIA_TYPE') {}
export class RequestForbiddenError extends define('REQUEST_FORBIDDEN') {}
export class SessionAccountMismatchError extends define('SESSION_ACCOUNT_MISMATCH') {}
export class TradingHaltedError extends define('TRADING_HALTED') {}
export class OcoLegsMismatchError extends define('OCO_LEGS_MISMATCH') {}
export class PlanNotFoundError extends define('PLAN_NOT_FOUND') {}
export class PlanBusyError extends define('PLAN_BUSY') {}
export class OrderChangedError extends define('ORDER_CHANGED') {}
export class OrderBusyError extends define('ORDER_BUSY') {}
export class StrategyNotFoundError extends define('STRATEGY_NOT_FOUND') {}
export class AssistantNotFoundError extends define('ASSISTANT_NOT_FOUND') {}
export class SignalNotFoundError extends define('SIGNAL_NOT_FOUND') {}
export class SignalTokenInvalidError extends define('SIGNAL_TOKEN_INVALID') {}

const CLASSES: Record<ErrorCode, new (message: string, options?: GatewayErrorOptions) => GatewayError> = {
  // Stored bodies of VALIDATION_FAILED carry `{field, message}` details, as every one is built.
  VALIDATION_FAILED: ValidationFailedError as new (message: string, options?: GatewayErrorOptions) => GatewayError,
  ORDER_NOT_FOUND: OrderNotFoundError,
  BROKER_REJECTED: BrokerRejectedError,
  SESSION_EXPIRED: SessionExpiredError,
  RATE_LIMITED: RateLimitedError,
  BROKER_TIMEOUT: BrokerTimeoutError,
  BROKER_UNAVAILABLE: BrokerUnavailableError,
  BROKER_BAD_REPLY: BrokerBadReplyError,
  GUARDRAIL_REJECTED: GuardrailRejectedError,
  IDEMPOTENCY_KEY_REUSED: IdempotencyKeyReusedError,
  IDEMPOTENCY_IN_PROGRESS: IdempotencyInProgressError,
  CONFIGURATION_ERROR: ConfigurationError,
  INTERNAL_ERROR: InternalError,
  GATEWAY_BUSY: GatewayBusyError,
  PAYLOAD_TOO_LARGE: PayloadTooLargeError,
  UNSUPPORTED_MEDIA_TYPE: UnsupportedMediaTypeError,
  REQUEST_FORBIDDEN: RequestForbiddenError,
  SESSION_ACCOUNT_MISMATCH: SessionAccountMismatchError,
  TRADING_HALTED: TradingHaltedError,
  OCO_LEGS_MISMATCH: OcoLegsMismatchError,
  PLAN_NOT_FOUND: PlanNotFoundError,
  PLAN_BUSY: PlanBusyError,
  ORDER_CHANGED: OrderChangedError,
  ORDER_BUSY: OrderBusyError,
  STRATEGY_NOT_FOUND: StrategyNotFoundError,
  ASSISTANT_NOT_FOUND: AssistantNotFoundError,
  SIGNAL_NOT_FOUND: SignalNotFoundError,
  SIGNAL_TOKEN_INVALID: SignalTokenInvalidError,
};

/** Rebuilds an error from its contract body (e.g. one stored with an idempotency record). */
export const errorFromBody = (body: ErrorBody): GatewayError =>
  new CLASSES[body.code](body.message, {
    details: body.details,
    brokerMessage: body.brokerMessage,
    outcome: body.outcome,
  });

/** Anything thrown becomes a GatewayError; unknown errors become INTERNAL_ERROR without leaking their text. */
export const toGatewayError = (error: unknown): GatewayError =>
  error instanceof GatewayError
    ? error
    : new InternalError('Unexpected error in the gateway; see the function logs for the request id.', { cause: error });

/**
 * The contract body a direct invocation's error carries as its message (what base/middleware/error-contract.ts's
 * `directInvocationError` throws); undefined for any other error.
 */
const contractBodyOf = (error: unknown): ErrorBody | undefined => {
  try {
    const body = (JSON.parse((error as Error).message) as { error?: ErrorBody }).error;
    if (body && typeof body.code === 'string' && body.code in ERROR_CATALOG && typeof body.message === 'string')
      return body;
  } catch {
    // not the contract's shape
  }
  return undefined;
};

/** What a table entry invoked directly threw, as the GatewayError it was; any other error as `toGatewayError`. */
export const fromDirectInvocation = (error: unknown): GatewayError => {
  if (error instanceof GatewayError) return error;
  const body = contractBodyOf(error);
  return body ? errorFromBody(body) : toGatewayError(error);
};

/**
 * The retry-after of a RATE_LIMITED (or GATEWAY_BUSY) error, in whole seconds (1 when the broker refused: it counts
 * per second).
 */
export const retryAfterSeconds = (details: unknown): number => {
  const value =
    typeof details === 'object' && details !== null
      ? (details as { retryAfterSeconds?: unknown }).retryAfterSeconds
      : undefined;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 1;
};
