/** The command line's exit codes, by error class (docs/reference/client.md). Exported for scripts that wrap the client. */
import type { GttGatewayError } from './errors.js';

export const EXIT_CODES = {
  OK: 0,
  /** Usage errors of the command line, VALIDATION_FAILED, GUARDRAIL_REJECTED: fix the input; nothing was sent. */
  USAGE: 2,
  /** ORDER_NOT_FOUND. */
  NOT_FOUND: 3,
  /**
   * BROKER_REJECTED, ORDER_CHANGED, RATE_LIMITED, GATEWAY_BUSY, TRADING_HALTED (and API Gateway throttling): the broker
   * did not act; OCO_LEGS_MISMATCH cancelled (`undone`): nothing of it is live.
   */
  REJECTED: 4,
  /** SESSION_EXPIRED: store a fresh broker token in the deployment's secret. */
  SESSION_EXPIRED: 5,
  /**
   * Any failure whose outcome is unknown (the order may exist: check the list) or `executed` (it is live though the
   * call failed: an OCO held otherwise than asked whose cancel failed), and timeouts / unavailability.
   */
  OUTCOME_UNKNOWN: 6,
  /** Configuration or internal errors, of the gateway or the client (credentials, region, URL, IAM 403). */
  CONFIGURATION: 7,
  /** IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_IN_PROGRESS. */
  IDEMPOTENCY: 8,
  /** Interrupted (Ctrl-C) before anything could have acted; an interrupted order that may have been sent is 6. */
  INTERRUPTED: 130,
} as const;

export const exitCodeFor = (error: GttGatewayError): number => {
  // Whatever the code: if the broker may have acted, the caller must look before acting again.
  if (error.outcome === 'unknown' || error.outcome === 'executed') return EXIT_CODES.OUTCOME_UNKNOWN;
  switch (error.code) {
    case 'VALIDATION_FAILED':
    case 'GUARDRAIL_REJECTED':
    case 'PAYLOAD_TOO_LARGE':
    case 'UNSUPPORTED_MEDIA_TYPE':
      return EXIT_CODES.USAGE;
    case 'ORDER_NOT_FOUND':
    case 'STRATEGY_NOT_FOUND':
    case 'ASSISTANT_NOT_FOUND':
    case 'SIGNAL_NOT_FOUND':
      return EXIT_CODES.NOT_FOUND;
    case 'BROKER_REJECTED':
    case 'ORDER_CHANGED':
    case 'RATE_LIMITED':
    case 'GATEWAY_BUSY':
    case 'TRADING_HALTED':
    case 'OCO_LEGS_MISMATCH':
      return EXIT_CODES.REJECTED;
    case 'SESSION_EXPIRED':
      return EXIT_CODES.SESSION_EXPIRED;
    case 'BROKER_TIMEOUT':
    case 'BROKER_UNAVAILABLE':
    case 'BROKER_BAD_REPLY':
    case 'CLIENT_TIMEOUT':
    case 'NETWORK_ERROR':
      return EXIT_CODES.OUTCOME_UNKNOWN;
    case 'IDEMPOTENCY_KEY_REUSED':
    case 'IDEMPOTENCY_IN_PROGRESS':
      return EXIT_CODES.IDEMPOTENCY;
    case 'CLIENT_ABORTED':
      return EXIT_CODES.INTERRUPTED;
    case 'HTTP_ERROR':
      if (error.status === 429) return EXIT_CODES.REJECTED;
      if (error.status !== undefined && error.status >= 500) return EXIT_CODES.OUTCOME_UNKNOWN;
      return EXIT_CODES.CONFIGURATION;
    default:
      return EXIT_CODES.CONFIGURATION;
  }
};
