/**
 * Every failure of a client call is a GttGatewayError: the gateway's error contract
 * (`{"error": {code, message, details?, brokerMessage?, outcome?}}`, docs/reference/http-api.md) with its HTTP status, or one
 * of the client's own codes when no contract answer came back (network, timeout, a non-contract HTTP answer).
 */
import type { components } from './generated/openapi.js';

/** The gateway's codes, from the OpenAPI document. */
export type ContractErrorCode = components['schemas']['Error']['error']['code'];
export type Outcome = NonNullable<components['schemas']['Error']['error']['outcome']>;

/** Codes the client gives failures that are not a contract answer. */
export const CLIENT_ERROR_CODES = {
  /** No HTTP answer: connection refused, reset, DNS. Order calls carry an outcome (refused: not_executed, else unknown). */
  NETWORK_ERROR: 'The request could not be sent or its answer was lost.',
  /** An attempt (or the call's overall deadline) ran out of time. Order calls: outcome unknown. */
  CLIENT_TIMEOUT: 'No answer within the client timeout.',
  /** The caller's AbortSignal fired. Order calls: outcome unknown if a request was sent. */
  CLIENT_ABORTED: 'The caller aborted the call.',
  /** An HTTP answer outside the contract, e.g. API Gateway's own `{"message":"Forbidden"}` (IAM, signature) or 404 for an unknown route. */
  HTTP_ERROR: 'An HTTP error that is not in the error contract (API Gateway itself, a proxy).',
  /** A success status whose body is not JSON. */
  BAD_RESPONSE: 'A success answer the client could not read.',
  /** The client is misconfigured: bad URL, no region, no AWS credentials. Nothing was sent. */
  CLIENT_CONFIG_ERROR: 'The client is misconfigured; nothing was sent.',
} as const;
export type ClientErrorCode = keyof typeof CLIENT_ERROR_CODES;
export type GttErrorCode = ContractErrorCode | ClientErrorCode;

export interface GttGatewayErrorInit {
  code: GttErrorCode;
  message: string;
  /** HTTP status of the answer; undefined when none came back. */
  status?: number;
  outcome?: Outcome;
  details?: unknown;
  brokerMessage?: string;
  operation: string;
  attempts?: number;
  idempotencyKey?: string;
  cause?: unknown;
}

export class GttGatewayError extends Error {
  override readonly name = 'GttGatewayError';
  readonly code: GttErrorCode;
  readonly status: number | undefined;
  /**
   * Place, modify, cancel (and logout): `unknown` means the broker may have acted (check the pending orders before
   * acting again); `not_executed` means it certainly did not. Undefined for reads.
   */
  outcome: Outcome | undefined;
  readonly details: unknown;
  readonly brokerMessage: string | undefined;
  /** The OpenAPI operationId of the call (PlaceGTTOrder, ...). */
  readonly operation: string;
  /** How many HTTP attempts the call made. */
  attempts: number;
  /** The Idempotency-Key every attempt carried: retry the same order later with it, and it can never be placed twice. */
  readonly idempotencyKey: string | undefined;

  constructor(init: GttGatewayErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.outcome = init.outcome;
    this.details = init.details;
    this.brokerMessage = init.brokerMessage;
    this.operation = init.operation;
    this.attempts = init.attempts ?? 1;
    this.idempotencyKey = init.idempotencyKey;
  }

  /** True for the gateway's own contract answers, false for the client's codes. */
  get isContractError(): boolean {
    return !(this.code in CLIENT_ERROR_CODES);
  }

  toJSON() {
    return {
      code: this.code,
      message: this.message,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.details === undefined ? {} : { details: this.details }),
      ...(this.brokerMessage === undefined ? {} : { brokerMessage: this.brokerMessage }),
      ...(this.outcome === undefined ? {} : { outcome: this.outcome }),
      operation: this.operation,
      attempts: this.attempts,
      ...(this.idempotencyKey === undefined ? {} : { idempotencyKey: this.idempotencyKey }),
    };
  }
}

export const isGttGatewayError = (error: unknown): error is GttGatewayError => error instanceof GttGatewayError;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The contract body `{error: {code, message, ...}}`, if that is what `body` is. */
export const contractError = (body: unknown): components['schemas']['Error']['error'] | undefined => {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  const { code, message } = body.error;
  if (typeof code !== 'string' || typeof message !== 'string') return undefined;
  return body.error as components['schemas']['Error']['error'];
};
