/** The routes of the Strategies function and of the signal webhook (docs/reference/signals.md): what their code reads. */
import { ownRoute as route } from '../base/definition/routes.js';
import type { FunctionSurface } from '../base/definition/types.js';
import {
  signalAccepted,
  signalList,
  signalListInput,
  signalView,
  strategyDeleted,
  strategyInput,
  strategyList,
  strategyPatch,
  strategyRecord,
  strategyWithUrl,
} from '../base/schemas/signals.js';

/** A strategy whose alerts (TradingView's JSON) place a GTT buy 0.5% under the alert's price. */
export const EXAMPLE_STRATEGY = {
  name: 'infy-dips',
  source: 'tradingview',
  action: {
    kind: 'gtt',
    order: { exch: 'NSE', prd: 'C', qty: 1 },
    trigger: { offset: '-0.5%' },
    price: { offset: '-0.5%' },
  },
  maxQty: 10,
} as const;
export const EXAMPLE_STRATEGY_ID = 'st0123456789abcdef';
export const EXAMPLE_SIGNAL_ID = 'sg019ac1e2f3a4b5c6d7e8f9a0';
/** A token of the right shape that no strategy has (the contract tests' and cold probes' requests). */
export const EXAMPLE_SIGNAL_TOKEN = 'example-token-0000000000000000000000000000';

/** The webhook's route throttle: a flood of alerts is stopped at the stage, before any function runs. */
export const SIGNAL_ROUTE_THROTTLE = { rateLimit: 10, burstLimit: 20 } as const;

export const STRATEGIES_ROUTES: FunctionSurface = {
  name: 'Strategies',
  routes: [
    route({
      method: 'POST',
      path: '/strategies',
      operationId: 'CreateStrategy',
      action: 'create',
      directBody: 'strategy',
      summary:
        'Define a strategy: {"name", "source": tradingview | chartink | amibroker | generic, "action": {"kind": gtt | oco | bracket | trailing-stop | cancel | kill-switch, ...}, "maxQty"?, "mode"?: live | paper, "allowIps"?, "ratePerMinute"?}. 201 with strategyId and webhookUrl (its token shown this once); the same key again: 200, the same strategy with a new token.',
      result: strategyWithUrl,
      body: true,
      bodySchema: strategyInput,
      idempotencyKey: 'required',
      successStatus: 201,
      kind: 'control',
      retrySafe: true,
      example: { body: EXAMPLE_STRATEGY },
    }),
    route({
      method: 'GET',
      path: '/strategies',
      operationId: 'ListStrategies',
      action: 'list',
      summary: 'The strategies of this deployment (no tokens: they are shown once, when set)',
      result: strategyList,
      kind: 'read',
      retrySafe: true,
    }),
    route({
      method: 'GET',
      path: '/strategies/{strategyId}',
      operationId: 'GetStrategy',
      action: 'get',
      summary: 'One strategy (its token is never shown again: rotate it for a new webhook URL)',
      result: strategyWithUrl.omit({ webhookUrl: true, idempotency: true }),
      pathParams: { strategyId: 'strategyId' },
      kind: 'read',
      retrySafe: true,
      example: { path: { strategyId: EXAMPLE_STRATEGY_ID } },
    }),
    route({
      method: 'PATCH',
      path: '/strategies/{strategyId}',
      operationId: 'UpdateStrategy',
      action: 'update',
      directBody: 'changes',
      summary:
        'Change a strategy and keep its webhook URL: {"mode"?, "qty"?, "maxQty"?, "ratePerMinute"?, "allowIps"?, "tag"?, "name"?, "trantype"?, "action"?} (null removes an optional field; qty and trantype are the action\'s order). Checked as POST /strategies checks a new one; unknown fields and bad values change nothing (400). Takes effect on the next alert.',
      result: strategyRecord,
      body: true,
      bodySchema: strategyPatch,
      pathParams: { strategyId: 'strategyId' },
      kind: 'control',
      retrySafe: true,
      example: { path: { strategyId: EXAMPLE_STRATEGY_ID }, body: { mode: 'paper', maxQty: 5 } },
    }),
    route({
      method: 'DELETE',
      path: '/strategies/{strategyId}',
      operationId: 'DeleteStrategy',
      action: 'delete',
      summary: 'Delete a strategy: its webhook URL stops working at once (signals already queued are refused)',
      result: strategyDeleted,
      pathParams: { strategyId: 'strategyId' },
      kind: 'control',
      retrySafe: true,
      example: { path: { strategyId: EXAMPLE_STRATEGY_ID } },
    }),
    route({
      method: 'POST',
      path: '/strategies/{strategyId}/token',
      operationId: 'RotateStrategyToken',
      action: 'rotate',
      summary:
        'A new webhook token for the strategy: the reply holds the new webhookUrl (shown once); the old URL stops working at once',
      result: strategyWithUrl,
      pathParams: { strategyId: 'strategyId' },
      kind: 'control',
      retrySafe: true,
      example: { path: { strategyId: EXAMPLE_STRATEGY_ID } },
    }),
    route({
      method: 'GET',
      path: '/signals',
      operationId: 'ListSignals',
      action: 'signals',
      summary:
        "The signals received (kept 30 days), newest first, each with its fate: received, acted (what each alert placed, or would have in paper mode) or refused (why); ?strategyId= one strategy's, ?state= one state's; paged with ?limit= and ?cursor=",
      result: signalList,
      query: Object.keys(signalListInput.shape),
      querySchema: signalListInput,
      kind: 'read',
      retrySafe: true,
      example: { query: { strategyId: EXAMPLE_STRATEGY_ID, limit: '10' } },
    }),
    route({
      method: 'GET',
      // `{id}` at this level for both signal routes: an HTTP API takes one variable name per level of a path.
      path: '/signals/{id}',
      operationId: 'GetSignal',
      action: 'signal',
      summary: 'One signal: its alerts, its redacted body, and what became of it (its results, or why it was refused)',
      result: signalView,
      pathParams: { id: 'signalId' },
      kind: 'read',
      retrySafe: true,
      example: { path: { id: EXAMPLE_SIGNAL_ID } },
    }),
  ],
  direct: { example: { action: 'list' } },
};

export const SIGNAL_WEBHOOK_ROUTES: FunctionSurface = {
  name: 'SignalWebhook',
  routes: [
    route({
      method: 'POST',
      // The token, in the `{id}` of GET /signals/{id} (one variable name per level at API Gateway).
      path: '/signals/{id}',
      operationId: 'PostSignal',
      summary:
        "Where a strategy's alerts are posted (its webhookUrl; unsigned: the token in the path is the secret). TradingView, ChartInk, Amibroker or generic JSON, application/json or text/plain, at most 8 KiB. 202 {signalId} once recorded (queued: false when the queue did not take it: the worker's sweep acts on it within minutes); 200 with the first signalId and duplicate: true for the same alert again.",
      result: signalAccepted,
      auth: 'token',
      body: true,
      pathParams: { id: 'token' },
      successStatus: 202,
      kind: 'order',
      retrySafe: false,
      example: {
        path: { id: EXAMPLE_SIGNAL_TOKEN },
        body: { action: 'buy', ticker: 'INFY', exchange: 'NSE', price: 1500 },
      },
      throttle: SIGNAL_ROUTE_THROTTLE,
    }),
  ],
};
