/**
 * The order path's first two steps, before anything is read or sent.
 *
 * - `parseRequest`: either entry shape read into one request, the input validated with the entry's schema.
 * - `checkOrder`: the per-request options judged, here and only here (an idempotency key the entry takes, a table and
 *   a journal to honour it, a key where one is required, a dry run the entry offers), and the deployment's guardrails
 *   on every order that has its price. A market order has none yet: it is priced once, on the instrument's tick, by
 *   the exchange's rules (exchange-rules.ts), and judged there; MARKET_ORDERS=reject refuses it here.
 */
import { ConfigurationError, ValidationFailedError } from '../../base/contract/errors.js';
import {
  dryRunRefused,
  type GatewayRequest,
  readGatewayRequest,
  supportsDryRun,
} from '../../base/contract/gateway-request.js';
import type { AnyOperation } from '../../base/contract/operation.js';
import { validateInput } from '../../base/contract/validate-input.js';
import type { GatewayConfig } from '../../base/runtime/config.js';
import { envName } from '../../base/runtime/env.js';
import { checkGuardrails } from '../safety/guardrails.js';
import { hasMarketOrders, priceInput } from '../safety/priced-orders.js';

/** A request that passed its operation's input schema: its options and the validated input. */
export interface ParsedRequest {
  request: GatewayRequest;
  /** The operation schema's output. */
  input: unknown;
}

/**
 * `read` is told the request before validation, so the audit record of a rejected request still shows what was
 * asked.
 */
export const parseRequest = (
  operation: AnyOperation,
  event: unknown,
  read: (request: GatewayRequest) => void = () => undefined,
): ParsedRequest => {
  const request = readGatewayRequest(operation, event);
  read(request);
  return { request, input: validateInput(operation.input, request.payload) };
};

/** The order that passed the checks: `market` when its market orders are still to be priced (and judged). */
export interface CheckedOrder {
  input: unknown;
  market: boolean;
}

/** `input`: the validated input (a PATCH: the merged order); `journal`: whether the stack has one. */
export const checkOrder = (
  operation: AnyOperation,
  request: GatewayRequest,
  input: unknown,
  settings: GatewayConfig,
  journal: boolean,
): CheckedOrder => {
  const { options } = request;
  const keyField = request.source === 'http' ? 'Idempotency-Key' : 'idempotencyKey';
  if (options.idempotencyKey !== undefined) {
    if (!operation.idempotency)
      throw new ValidationFailedError(`${keyField} is not supported by ${operation.name}.`, {
        details: [{ field: keyField, message: `not supported by ${operation.name}` }],
      });
    // Silently ignoring the key would let the caller believe a retry is safe.
    if (settings.idempotencyTableName === undefined)
      throw new ConfigurationError(
        `This deployment has no idempotency table (${envName('idempotencyTableName')}), so ${keyField} cannot be honoured; nothing was sent.`,
      );
    if (!journal)
      throw new ConfigurationError(
        `${operation.name} was built without idempotency support, so its key cannot be honoured; nothing was sent.`,
      );
  }
  // The same refusal as the query parameter's (base/contract/gateway-request.ts), for a direct payload's dryRun.
  if (options.dryRun && !supportsDryRun(operation)) throw dryRunRefused(operation);
  if (
    operation.idempotency === 'required' &&
    settings.idempotencyKeyRequired &&
    !options.dryRun &&
    options.idempotencyKey === undefined
  ) {
    throw new ValidationFailedError(
      `${operation.name} needs an ${keyField} (any unique string per order, reused on every retry of that order) so a retry can never place it twice.`,
      { details: [{ field: keyField, message: 'is required' }] },
    );
  }
  // MARKET_ORDERS=reject refuses a market order now; otherwise it is priced on its instrument's tick, then judged.
  if (settings.marketOrders === 'reject') priceInput(operation, input, settings);
  const market = hasMarketOrders(operation, input);
  if (!market)
    for (const order of operation.guardedOrders?.(input) ?? []) checkGuardrails(operation.name, order, settings);
  return { input, market };
};
