/**
 * Order safety checks that run after input validation and before any broker call: the per-request options
 * (idempotency key, dry run) must fit the operation, and orders must pass the deployment's guardrails.
 */
import type { MiddlewareObj } from '@middy/core';

import { ConfigurationError, ValidationFailedError } from '../contract/errors.js';
import { dryRunRefused, supportsDryRun } from '../contract/gateway-request.js';
import type { AnyOperation } from '../contract/operation.js';
import type { GatewayConfig } from '../runtime/config.js';
import { envName } from '../runtime/env.js';
import { checkGuardrails } from '../safety/guardrails.js';
import { priceInput } from '../safety/priced-orders.js';
import type { GatewayContext } from './context.js';

export const orderSafety = (
  operation: AnyOperation,
  config: () => GatewayConfig,
): MiddlewareObj<unknown, unknown, Error, GatewayContext> => ({
  name: 'orderSafety',
  before: (request) => {
    const state = request.context.gateway;
    const options = state.request!.options;
    const settings = config();
    const keyField = state.source === 'http' ? 'Idempotency-Key' : 'idempotencyKey';
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
    // The same refusal as the query parameter's (contract/gateway-request.ts), for a direct payload's dryRun.
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
    if (operation.priceOrders) {
      // Market orders become protected limit orders (or are refused) before guardrails, dry run and broker see them;
      // on PRICE_TICK here, on the instrument's tick once its rules are read (exchange-rules.ts).
      const priced = priceInput(operation, state.input, settings);
      if (priced.converted) {
        state.requestedInput = state.input;
        state.input = priced.input;
        state.converted = priced.converted;
      }
    }
    for (const order of operation.guardedOrders?.(state.input) ?? []) checkGuardrails(operation.name, order, settings);
  },
});
