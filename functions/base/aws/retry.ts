/**
 * When the AWS client (json-client.ts) tries a call again, and after how long: the AWS SDK's standard retry mode as
 * the SDK clients the gateway used before configure it (@aws-sdk/client-dynamodb, -secrets-manager, -eventbridge
 * 3.1164 with @smithy/core's retry submodule, `Retry.v2026`: `service-error-classification/constants.js`,
 * `util-retry/retries-2026-config.js`, `DefaultRetryBackoffStrategy.js`, `StandardRetryStrategy.js`, and each
 * client's `resolveRetryConfig` defaults). One policy; per service only its attempts and transient base differ:
 *
 * - 4 attempts in all for DynamoDB (`DYNAMODB_RETRY`), 3 for other services (`STANDARD_RETRY`).
 * - Throttling, retried after `random() * min(1000 ms * 2^retries, 20 s)`: HTTP 429 or the codes of
 *   `THROTTLING_ERROR_CODES` (ThrottlingException, ProvisionedThroughputExceededException, RequestLimitExceeded,
 *   TooManyRequestsException, TransactionInProgressException, LimitExceededException, ...).
 * - Transient, after `random() * min(base * 2^retries, 20 s)`, the base 25 ms for DynamoDB and 50 ms for other
 *   services: HTTP 500, 502, 503, 504 (and any other 5xx, as the
 *   SDK's server-error class), the codes TimeoutError, RequestTimeout, RequestTimeoutException, an
 *   InvalidSignatureException saying "Signature expired", and the network errors ECONNRESET, ECONNREFUSED, EPIPE,
 *   ETIMEDOUT, EHOSTUNREACH, ENETUNREACH, ENOTFOUND, EAI_AGAIN.
 * - Never an abort (AbortError) nor anything else (a condition that failed, a cancelled transaction, a refusal).
 * - A quota per client, as the SDK's: 500 tokens, a throttling retry costs 5 and another 14, a success after a
 *   retry gives its cost back and one without a retry gives 1; with too few tokens left the error stands.
 *
 * Left out: the SDK's clock-skew correction (Lambda's clock is synchronised) and Retry-After hints (none of these
 * services sends one).
 */

const THROTTLING_CODES = new Set([
  'BandwidthLimitExceeded',
  'EC2ThrottledException',
  'LimitExceededException',
  'PriorRequestNotComplete',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
  'ThrottledException',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'TransactionInProgressException',
]);
const TRANSIENT_CODES = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException']);
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

export const THROTTLING_DELAY_BASE_MS = 1_000;

/** A service's attempts per call and the base of its transient backoff (the rest is one policy). */
export interface RetryPolicy {
  maxAttempts: number;
  transientBaseMs: number;
}

/** DynamoDB's, as its SDK client sets them (`defaultBaseDelay: 25, defaultMaxAttempts: 4`). */
export const DYNAMODB_RETRY: RetryPolicy = { maxAttempts: 4, transientBaseMs: 25 };
/** Every other service's: the SDK's defaults (3 attempts, `Retry.delay()` 50 ms). */
export const STANDARD_RETRY: RetryPolicy = { maxAttempts: 3, transientBaseMs: 50 };
const MAX_DELAY_MS = 20_000;
const INITIAL_TOKENS = 500;
const THROTTLING_COST = 5;
const TRANSIENT_COST = 14;

export type RetryKind = 'throttling' | 'transient';

interface Classified {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  $metadata?: { httpStatusCode?: number | undefined };
}

/** Which kind of retryable error this is, or undefined when it is not one. */
export const retryKindOf = (error: unknown): RetryKind | undefined => {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as Classified;
  if (e.name === 'AbortError') return undefined;
  const status = e.$metadata?.httpStatusCode ?? 0;
  if (status === 429 || THROTTLING_CODES.has(String(e.name))) return 'throttling';
  if (
    (status >= 500 && status <= 599) ||
    TRANSIENT_CODES.has(String(e.name)) ||
    NETWORK_CODES.has(String(e.code)) ||
    (e.name === 'InvalidSignatureException' && String(e.message).includes('Signature expired'))
  )
    return 'transient';
  return undefined;
};

/** The retry tokens of one client (module comment). */
export class RetryQuota {
  private tokens = INITIAL_TOKENS;
  private lastCost = 0;

  take(kind: RetryKind): boolean {
    const cost = kind === 'throttling' ? THROTTLING_COST : TRANSIENT_COST;
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    this.lastCost = cost;
    return true;
  }

  succeeded(afterRetry: boolean): void {
    this.tokens = Math.min(INITIAL_TOKENS, this.tokens + (afterRetry ? this.lastCost : 1));
  }

  get available(): number {
    return this.tokens;
  }
}

/** Whether attempt number `attempt` (from 1) that failed with `error` is tried again, and after how long. */
export const retryDecision = (
  error: unknown,
  attempt: number,
  policy: RetryPolicy,
  quota: RetryQuota,
  random: () => number = Math.random,
): { kind: RetryKind; delayMs: number } | undefined => {
  if (attempt >= policy.maxAttempts) return undefined;
  const kind = retryKindOf(error);
  if (!kind || !quota.take(kind)) return undefined;
  const base = kind === 'throttling' ? THROTTLING_DELAY_BASE_MS : policy.transientBaseMs;
  return { kind, delayMs: Math.floor(random() * Math.min(base * 2 ** (attempt - 1), MAX_DELAY_MS)) };
};

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    if (ms <= 0) return resolve();
    const done = () => {
      signal?.removeEventListener('abort', abort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
