/**
 * The exchange's rules on an order's instrument, checked after the session is loaded and before anything is sent,
 * dry runs included, on every place and modify of a single GTT or an OCO (plans place through the same operations):
 * tick, lot and price precision (functions/safety/exchange-rules.ts), today's price band and the freeze quantity
 * (functions/safety/market-rules.ts). They come from the broker's SearchScrip, cached per container
 * (functions/broker/instruments.ts), and from GetQuotes (`uc`, `lc`) and GetSecurityInfo (`frzqty`), cached too
 * (functions/broker/market.ts); what was checked is kept for the dry run's reply. When they cannot be read, the
 * order is refused with the read's own retryable error (BROKER_TIMEOUT, BROKER_UNAVAILABLE, ...) and
 * `outcome: not_executed`: an order is never sent unchecked.
 */
import type { MiddlewareObj } from '@middy/core';

import { type BrokerCallDeps } from '../broker/call-broker.js';
import { closestSymbols, instrumentRules } from '../broker/instruments.js';
import { freezeQuantity, priceBand } from '../broker/market.js';
import { GatewayError } from '../contract/errors.js';
import type { AnyOperation } from '../contract/operation.js';
import type { GatewayConfig } from '../runtime/config.js';
import { checkExchangeRules, ruledOrders } from '../safety/exchange-rules.js';
import { checkGuardrails } from '../safety/guardrails.js';
import { checkedRules } from '../safety/market-rules.js';
import { priceInput } from '../safety/priced-orders.js';
import type { GatewayContext } from './context.js';

export const exchangeRules = (
  operation: AnyOperation,
  config: () => GatewayConfig,
): MiddlewareObj<unknown, unknown, Error, GatewayContext> => ({
  name: 'exchangeRules',
  before: async (request) => {
    if (!operation.guardedOrders) return;
    const state = request.context.gateway;
    if (!state.session || !state.refreshSession) return;
    const orders = ruledOrders(state.input);
    const { exch, tsym } = orders[0]!;
    const deps = brokerDeps(request.context, config());
    const read = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (error) {
        if (error instanceof GatewayError && error.code !== 'VALIDATION_FAILED') {
          const unread = `The exchange's rules for ${exch}:${tsym} could not be read (${what})`;
          error.message = `${unread}, so nothing was sent unchecked: ${error.message}`;
          error.outcome = 'not_executed';
        }
        throw error;
      }
    };
    const instrument = await read('SearchScrip', () => instrumentRules(exch, tsym, deps));
    const [band, freeze] = await Promise.all([
      read('GetQuotes', () => priceBand(exch, instrument.token, deps)),
      read('GetSecurityInfo', () => freezeQuantity(exch, instrument.token, deps)),
    ]);
    const rules = { ...instrument, band, freeze };
    if (state.converted) {
      // A converted market order's price goes on the instrument's tick (inward: inside the band), not PRICE_TICK's;
      // the guardrails judge the price that is sent.
      const settings = config();
      const priced = priceInput(operation, state.requestedInput, settings, rules.tick);
      state.input = priced.input;
      if (priced.converted) state.converted = priced.converted;
      for (const order of operation.guardedOrders(state.input)) checkGuardrails(operation.name, order, settings);
    }
    checkExchangeRules(state.converted ? ruledOrders(state.input) : orders, rules);
    state.exchangeRules = checkedRules(exch, tsym, rules);
  },
  // A symbol SearchScrip lists but the broker still refuses (`Invalid Trading Symbol`): the closest listed ones too.
  onError: async (request) => {
    const error = request.error;
    const state = request.context.gateway;
    if (
      !operation.guardedOrders ||
      !(error instanceof GatewayError) ||
      error.code !== 'BROKER_REJECTED' ||
      !/Invalid Trading Symbol/i.test(error.brokerMessage ?? '') ||
      !state.session ||
      !state.refreshSession
    )
      return;
    const { exch, tsym } = ruledOrders(state.input)[0]!;
    const suggestions = await closestSymbols(exch, tsym, brokerDeps(request.context, config())).catch(() => []);
    if (suggestions.length > 0) error.message = `${error.message} Did you mean ${suggestions.join(', ')}?`;
  },
});

/** The broker call of a middleware's read (SearchScrip, a PATCH's order), bounded by the Lambda's time left. */
export const brokerDeps = (context: GatewayContext, settings: GatewayConfig): BrokerCallDeps => ({
  baseUrl: settings.brokerBaseUrl,
  auth: settings.brokerAuth,
  timeoutMs: () =>
    Math.max(
      100,
      Math.min(
        settings.brokerTimeoutMs,
        (typeof context.getRemainingTimeInMillis === 'function'
          ? context.getRemainingTimeInMillis()
          : Number.POSITIVE_INFINITY) - 1_000,
      ),
    ),
  session: context.gateway.session!,
  refreshSession: context.gateway.refreshSession!,
});
