/**
 * The transport's error mapping: how a failed attempt becomes a GttGatewayError (the gateway's contract answer, or
 * one of the client's own codes), whether it is worth another attempt, and what the caller finally gets.
 */
import { contractError, GttGatewayError } from './errors.js';

/** What openapi-fetch resolves with for one request. */
export interface RawResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** Errors of the connection itself, before any byte of the request could arrive: nothing was executed. */
export const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The first `code` along an error's chain of causes (undici nests the system error). */
export const causeCode = (error: unknown): string | undefined => {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
};

/** The answer's Retry-After, in seconds or as a date, as milliseconds from now. */
export const retryAfterMs = (response: Response): number | undefined => {
  const value = response.headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
};

/** Thrown inside the transport when the client cannot sign (no credentials): becomes CLIENT_CONFIG_ERROR, never retried. */
export class ClientSetupError extends Error {}

export const configError = (operation: string, message: string, cause?: unknown) =>
  new GttGatewayError({ code: 'CLIENT_CONFIG_ERROR', message, operation, ...(cause === undefined ? {} : { cause }) });

/** An HTTP answer that is not a success: the contract error, or HTTP_ERROR for anything else. */
export const answerError = (
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
export const retryable = (error: GttGatewayError, keyed: boolean): boolean => {
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
export const finalError = (
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
