/**
 * When dynamo.ts tries a DynamoDB call again, and after how long: the AWS SDK's standard retry mode as the SDK the
 * gateway used before configures it for DynamoDB (@aws-sdk/client-dynamodb 3.1164 with @smithy/core's retry
 * submodule, `Retry.v2026`: `service-error-classification/constants.js`, `util-retry/retries-2026-config.js`,
 * `DefaultRetryBackoffStrategy.js`, `StandardRetryStrategy.js`):
 *
 * - 4 attempts in all (DynamoDB's default there; 3 for other services).
 * - Throttling, retried after `random() * min(1000 ms * 2^retries, 20 s)`: HTTP 429 or the codes of
 *   `THROTTLING_ERROR_CODES` (ThrottlingException, ProvisionedThroughputExceededException, RequestLimitExceeded,
 *   TooManyRequestsException, TransactionInProgressException, LimitExceededException, ...).
 * - Transient, after `random() * min(25 ms * 2^retries, 20 s)`: HTTP 500, 502, 503, 504 (and any other 5xx, as the
 *   SDK's server-error class), the codes TimeoutError, RequestTimeout, RequestTimeoutException, an
 *   InvalidSignatureException saying "Signature expired", and the network errors ECONNRESET, ECONNREFUSED, EPIPE,
 *   ETIMEDOUT, EHOSTUNREACH, ENETUNREACH, ENOTFOUND, EAI_AGAIN.
 * - Never an abort (AbortError) nor anything else (a condition that failed, a cancelled transaction, a refusal).
 * - A quota per client, as the SDK's: 500 tokens, a throttling retry costs 5 and another 14, a success after a
 *   retry gives its cost back and one without a retry gives 1; with too few tokens left the error stands.
 *
 * Left out: the SDK's clock-skew correction (Lambda's clock is synchronised) and Retry-After hints (DynamoDB sends
 * none).
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
export const TRANSIENT_DELAY_BASE_MS = 25;
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
  maxAttempts: number,
  quota: RetryQuota,
  random: () => number = Math.random,
): { kind: RetryKind; delayMs: number } | undefined => {
  if (attempt >= maxAttempts) return undefined;
  const kind = retryKindOf(error);
  if (!kind || !quota.take(kind)) return undefined;
  const base = kind === 'throttling' ? THROTTLING_DELAY_BASE_MS : TRANSIENT_DELAY_BASE_MS;
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
