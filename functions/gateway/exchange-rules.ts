/**
 * The exchange's rules on an order's instrument, checked after the session is loaded and before anything is sent,
 * dry runs included, on every place and modify of a single GTT or an OCO (plans place through the same operations):
 * tick, lot and price precision (functions/safety/exchange-rules.ts), today's price band and the freeze quantity
 * (functions/safety/market-rules.ts). They are today's rules from this container, the account's copy (one GetItem)
 * or, when the copy has none for today, the broker (SearchScrip, GetQuotes, GetSecurityInfo), written back to the
 * copy: functions/instruments/rules.ts. What was checked, and where it came from, is kept for the dry run's reply.
 * When neither gives today's rules, the order is refused with the read's own retryable error (BROKER_TIMEOUT,
 * BROKER_UNAVAILABLE, ...) and `outcome: not_executed`: an order is never sent unchecked.
 *
 * The read is one promise (`todaysRules`) that depends only on the session and the order's symbol: it could start
 * beside the order core's first round trip (the journal's claim) if the core wants to overlap them.
 */
import type { MiddlewareObj } from '@middy/core';

import { type BrokerCallDeps } from '../broker/call-broker.js';
import { closestSymbols } from '../broker/instruments.js';
import { GatewayError } from '../contract/errors.js';
import type { AnyOperation } from '../contract/operation.js';
import type { InstrumentCopy } from '../instruments/copy.js';
import { todaysRules } from '../instruments/rules.js';
import type { GatewayConfig } from '../runtime/config.js';
import { checkExchangeRules, ruledOrders } from '../safety/exchange-rules.js';
import { checkGuardrails } from '../safety/guardrails.js';
import { checkedRules } from '../safety/market-rules.js';
import { priceInput } from '../safety/priced-orders.js';
import type { GatewayContext } from './context.js';

export const exchangeRules = (
  operation: AnyOperation,
  config: () => GatewayConfig,
  copy: () => InstrumentCopy | undefined = () => undefined,
  onCopyError: (error: unknown, what: 'read' | 'write') => void = () => {},
): MiddlewareObj<unknown, unknown, Error, GatewayContext> => ({
  name: 'exchangeRules',
  before: async (request) => {
    if (!operation.guardedOrders) return;
    const state = request.context.gateway;
    if (!state.session || !state.refreshSession) return;
    const orders = ruledOrders(state.input);
    const { exch, tsym } = orders[0]!;
    const deps = brokerDeps(request.context, config());
    const rules = await todaysRules(exch, tsym, deps, { copy: copy(), onCopyError });
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
    state.exchangeRules = checkedRules(exch, tsym, rules, rules.source);
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
