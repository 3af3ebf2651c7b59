/**
 * Order safety checks that run after input validation and before any broker call: the per-request options
 * (idempotency key, dry run) must fit the operation, and orders must pass the deployment's guardrails.
 */
import { ConfigurationError, ValidationFailedError } from '../../base/contract/errors.js';
import {
  dryRunRefused,
  type RequestOptions,
  type RequestSource,
  supportsDryRun,
} from '../../base/contract/gateway-request.js';
import type { AnyOperation } from '../../base/contract/operation.js';
import type { GatewayConfig } from '../../base/runtime/config.js';
import { envName } from '../../base/runtime/env.js';
import { checkGuardrails } from '../safety/guardrails.js';
import { priceInput } from '../safety/priced-orders.js';
import type { RecordedOrder } from './context.js';

/** The order that passed the checks: market orders priced (`requested`: as asked), guardrails passed. */
export type CheckedOrder = RecordedOrder;

/** The request's options and its (validated, or a PATCH's merged) input, as order safety judges them. */
export interface SafetyRequest {
  source: RequestSource;
  options: RequestOptions;
  input: unknown;
}

/** `priced` is told the order before the guardrails judge it, so the audit record of a refusal shows what was judged. */
export const orderSafety = (
  operation: AnyOperation,
  request: SafetyRequest,
  settings: GatewayConfig,
  priced: (order: CheckedOrder) => void = () => undefined,
): CheckedOrder => {
  const { options, input } = request;
  const keyField = request.source === 'http' ? 'Idempotency-Key' : 'idempotencyKey';
  if (options.idempotencyKey !== undefined && !operation.idempotency) {
    throw new ValidationFailedError(`${keyField} is not supported by ${operation.name}.`, {
      details: [{ field: keyField, message: `not supported by ${operation.name}` }],
    });
  }
  if (options.idempotencyKey !== undefined && settings.idempotencyTableName === undefined) {
    // Silently ignoring the key would let the caller believe a retry is safe.
    throw new ConfigurationError(
      `This deployment has no idempotency table (${envName('idempotencyTableName')}), so ${keyField} cannot be honoured; nothing was sent.`,
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
  let checked: CheckedOrder = { input };
  if (operation.priceOrders) {
    // Market orders become protected limit orders (or are refused) before guardrails, dry run and broker see them;
    // on PRICE_TICK here, on the instrument's tick once its rules are read (exchange-rules.ts).
    const market = priceInput(operation, input, settings);
    if (market.converted) checked = { input: market.input, requested: input, converted: market.converted };
  }
  priced(checked);
  for (const order of operation.guardedOrders?.(checked.input) ?? []) checkGuardrails(operation.name, order, settings);
  return checked;
};
