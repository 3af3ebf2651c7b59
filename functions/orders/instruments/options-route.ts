/**
 * `GET /options`'s route (docs/reference/options.md), served by the quote function beside `GET /quotes`
 * (orders/gateway/quote-stack.ts): a read of the instruments' copy and of the index's quote, no function of its own.
 */
import { ownRoute as route } from '../../base/definition/routes.js';
import type { FunctionSurface } from '../../base/definition/types.js';
import { optionChainInput, optionChainResult } from '../../base/schemas/option-chain.js';

/** The direct invocation's action that selects it (the quote function's own direct input has no `action`). */
export const OPTIONS_ACTION = 'options';

export const OPTIONS_ROUTES: FunctionSurface = {
  name: 'GetQuote',
  routes: [
    route({
      method: 'GET',
      path: '/options',
      operationId: 'GetOptionChain',
      action: OPTIONS_ACTION,
      summary:
        "The day's option chain of an index as traders name it (?underlying=NIFTY, BANKNIFTY, FINNIFTY, MIDCPNIFTY, SENSEX): its listed expiries, the one asked (?expiry=nearest, the default; next-month; or a listed date), its lot, tick and strike step, each strike's CE and PE symbol and token, and the index's last price and ATM strike when its quote can be read",
      result: optionChainResult,
      query: Object.keys(optionChainInput.shape),
      querySchema: optionChainInput,
      kind: 'read',
      retrySafe: true,
      example: { query: { underlying: 'NIFTY', expiry: 'nearest' } },
    }),
  ],
  direct: { example: { action: OPTIONS_ACTION, underlying: 'NIFTY' }, fields: ['action', 'underlying', 'expiry'] },
};
