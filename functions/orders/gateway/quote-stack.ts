/**
 * The quote function's stack: `GET /quotes` (the operation table's getQuote on the gateway stack) and, beside it in
 * the same Lambda, `GET /options` (the day's option chain, orders/instruments/option-chain-read.ts), sharing the
 * container's configuration, session and instruments' copy. A request of `GET /options` (its route key, or a direct
 * invocation with `{"action": "options"}`) goes to the chain; any other to the operation, as before.
 */
import type { Context } from 'aws-lambda';

import { lastTradedPrice } from '../../base/broker/market.js';
import { isHttpApiEvent } from '../../base/contract/gateway-request.js';
import type { AnyOperation } from '../../base/contract/operation.js';
import { validateInput } from '../../base/contract/validate-input.js';
import { createRoutedFunction } from '../../base/middleware/routed-function.js';
import { routeMatches } from '../../base/middleware/routed-request.js';
import { logger as defaultLogger } from '../../base/runtime/logger.js';
import { optionChainInput } from '../../base/schemas/option-chain.js';
import { chainsFromCopy } from '../instruments/chain-copy.js';
import { readOptionChain } from '../instruments/option-chain-read.js';
import { DEFAULT_EXPIRY_CUTOFF_MINUTES } from '../instruments/option-pick.js';
import { OPTIONS_ACTION, OPTIONS_ROUTES } from '../instruments/options-route.js';
import { brokerDeps, deadlineOf } from './broker-deps.js';
import { createGatewayStack, type GatewayHandler, type GatewayOptions, lazyCollaborators } from './gateway-handler.js';

/** Whether the event asks for the option chain rather than a quote: its route, or a direct `{"action": "options"}`. */
const asksOptions = (event: unknown): boolean =>
  isHttpApiEvent(event)
    ? OPTIONS_ROUTES.routes.some((route) => routeMatches(route, event))
    : typeof event === 'object' && event !== null && (event as { action?: unknown }).action === OPTIONS_ACTION;

export const createQuoteStack = (operation: AnyOperation, options: GatewayOptions = {}): GatewayHandler => {
  const parts = lazyCollaborators(operation, options);
  const quotes = createGatewayStack(operation, options, parts);
  const chain = createRoutedFunction(
    OPTIONS_ROUTES,
    async (request, context) => {
      const deadline = deadlineOf(context);
      const input = validateInput(optionChainInput, request.fields);
      const { config, sessions, instruments } = parts();
      if (!instruments) throw new Error('the quote function was built without the instruments copy');
      const broker = brokerDeps(
        config,
        { session: () => sessions.current(), refreshSession: () => sessions.refresh() },
        deadline,
      );
      return {
        body: await readOptionChain(
          {
            chains: chainsFromCopy(instruments),
            // Never an ATM from another instrument's price (the family's GetQuotes sometimes answers one).
            lastPrice: async (exch, token) =>
              String(await lastTradedPrice(exch, token, `${exch} token ${token}`, broker)),
            cutoffMinutes: config.optionEntryCutoffMinutes ?? DEFAULT_EXPIRY_CUTOFF_MINUTES,
          },
          input,
          deadline,
        ),
      };
    },
    { logger: options.logger ?? defaultLogger },
  );
  return (event: unknown, context: Context) => (asksOptions(event) ? chain(event, context) : quotes(event, context));
};
