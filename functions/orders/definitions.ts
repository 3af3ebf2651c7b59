/**
 * The definitions of the operation table's functions (operations.ts): one function per broker operation,
 * its route, environment, grants, notes, alarms, bundle and factory derived from the entry's own flags, so an
 * operation is one definition. Its factory binds the operation to the shared gateway stack with exactly the
 * factories its entry needs (`needsOf`, gateway/collaborators.ts: `GATEWAY_BINDINGS`), as its generated handler file
 * does (manifest/handler-files.ts).
 */
import * as z from 'zod';

import type { AnyOperation } from '../base/contract/operation.js';
import { ORDER_ROUTE_THROTTLE } from '../base/definition/routes.js';
import type { FunctionDefinition, FunctionEntry, Grant, Route } from '../base/definition/types.js';
import { createOutboxEvents } from '../events/core/outbox-events.js';
import {
  type CollaboratorFactories,
  dynamoLeases,
  dynamoOrderCopy,
  needsOf,
  stackNeedsOf,
} from './gateway/collaborators.js';
import { createGatewayStack } from './gateway/gateway-handler.js';
import { createQuoteStack } from './gateway/quote-stack.js';
import { dynamoInstrumentCopy } from './instruments/copy.js';
import { OPTIONS_ROUTES } from './instruments/options-route.js';
import { dynamoJournal } from './journal-factory.js';
import {
  cancelGttOrder,
  clientDetails,
  getEnabledGtts,
  getGttOrder,
  getOrderBook,
  getPendingGttOrders,
  getPositions,
  getQuote,
  getSeries,
  getTriggeredGttOrders,
  logout,
  modifyGttOrder,
  modifyOcoOrder,
  patchGttOrder,
  patchOcoOrder,
  placeGttOrder,
  placeOcoOrder,
} from './operations.js';
import { dynamoTradingControls } from './safety/trading-controls.js';

/** Place and modify check an order's instrument, and a quote reads one: both read today's rules through the copy. */
const readsInstruments = (op: AnyOperation): boolean => needsOf(op).instruments;

/**
 * The factories an operation's gateway stack may be given, each only where its entry needs it, so the other bundles
 * carry no DynamoDB client and none an EventBridge client: the journal where it takes keys, the outbox's
 * event producer where it has a lifecycle event (a deployed order function queues its events in the outbox,
 * events/core/outbox-events.ts), the trading controls where it writes orders, the leases where it changes an order, the
 * watcher's copy where it reads one, the instruments' copy where it checks an order. `name` and `from` are how the
 * handler file imports it (relative to functions/handlers/).
 */
export const GATEWAY_BINDINGS = [
  {
    option: 'journal',
    name: 'dynamoJournal',
    from: '../orders/journal-factory.js',
    value: dynamoJournal,
  },
  {
    option: 'events',
    name: 'createOutboxEvents',
    from: '../events/core/outbox-events.js',
    value: createOutboxEvents,
  },
  {
    option: 'controls',
    name: 'dynamoTradingControls',
    from: '../orders/safety/trading-controls.js',
    value: dynamoTradingControls,
  },
  {
    option: 'leases',
    name: 'dynamoLeases',
    from: '../orders/gateway/collaborators.js',
    value: dynamoLeases,
  },
  {
    option: 'copy',
    name: 'dynamoOrderCopy',
    from: '../orders/gateway/collaborators.js',
    value: dynamoOrderCopy,
  },
  {
    option: 'instruments',
    name: 'dynamoInstrumentCopy',
    from: '../orders/instruments/copy.js',
    value: dynamoInstrumentCopy,
  },
] as const satisfies readonly {
  option: keyof CollaboratorFactories;
  name: string;
  from: string;
  value: unknown;
}[];

/**
 * The bindings of one operation's stack, in the table's order: what `needsOf` names (and, for an entry that reads
 * its order back, what its cancel's does: `stackNeedsOf`).
 */
export const bindingsOf = (op: AnyOperation) => GATEWAY_BINDINGS.filter((binding) => stackNeedsOf(op)[binding.option]);

const split = (op: AnyOperation): Route['example'] => {
  const pathFields = Object.entries(op.pathParams ?? {});
  const query = op.query ?? [];
  const example = op.example;
  const path = Object.fromEntries(pathFields.map(([param, field]) => [param, String(example[field])]));
  const queryValues = Object.fromEntries(
    query.filter((name) => example[name] !== undefined).map((name) => [name, String(example[name])]),
  );
  const notBody = [...pathFields.map(([, field]) => field), ...query];
  const body = Object.fromEntries(Object.entries(example).filter(([name]) => !notBody.includes(name)));
  return {
    ...(pathFields.length ? { path } : {}),
    ...(Object.keys(queryValues).length ? { query: queryValues } : {}),
    ...(Object.keys(body).length || op.route.method !== 'GET' ? { body } : {}),
  };
};

/** The fields of an input schema, as its JSON Schema names them. */
export const inputFields = (schema: z.ZodType): string[] =>
  Object.keys(
    (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> })
      .properties ?? {},
  );

export const operationRoute = (op: AnyOperation): Route => {
  const notBody = [...Object.values(op.pathParams ?? {}), ...(op.query ?? [])];
  return {
    operationId: op.name,
    method: op.route.method,
    path: op.route.path,
    summary: op.summary,
    kind: op.kind,
    retrySafe: op.retrySafe,
    auth: 'iam',
    query: op.query ?? [],
    pathParams: op.pathParams ?? {},
    body: inputFields(op.input).some((name) => !notBody.includes(name)),
    result: op.result,
    successStatus: op.successStatus,
    ...(op.idempotency ? { idempotencyKey: op.idempotency } : {}),
    dryRun: op.kind === 'order',
    example: split(op),
    ...(op.kind === 'order' ? { throttle: ORDER_ROUTE_THROTTLE } : {}),
  };
};

const grantsOf = (op: AnyOperation): Grant[] => [
  'sessionSecret:read',
  // Logout marks the secret logged out (a new version without the token), so every function stops at once.
  ...(op.broker === 'Logout' ? (['sessionSecret:write'] as const) : []),
  ...(op.idempotency ? (['idempotencyTable'] as const) : []),
  // The one-order read: the watcher's copy of the pending list (orders/gateway/order-copy.ts).
  ...(op.fromCopy ? (['eventsTable:copy', 'controlTable:leases'] as const) : []),
  ...(op.kind === 'order' ? (['controlTable:governor'] as const) : []),
  // Place and modify read the exchange's rules from the account's copy (and write what they read from the broker).
  ...(readsInstruments(op) ? (['instrumentsTable:copy'] as const) : []),
  // Logout tells every container the session ended: the account's control item (its UpdateItem).
  ...(op.broker === 'Logout' ? (['controlTable:sessionEnd'] as const) : []),
];

const envOf = (op: AnyOperation): FunctionEntry['env'] => ({
  keys: [
    'brokerBaseUrl',
    'brokerSecretId',
    'idempotencyTableName',
    ...(op.kind === 'order' ? (['controlTableName', 'orderRatePerSecond', 'orderRatePerMinute'] as const) : []),
    ...(op.broker === 'Logout' ? (['controlTableName'] as const) : []),
    ...(readsInstruments(op) ? (['instrumentsTableName'] as const) : []),
    // The bus's name only: it names the deployment in every event id; the events go to the outbox.
    ...(op.lifecycle ? (['eventBusName'] as const) : []),
    ...(op.fromCopy ? (['eventsTableName', 'controlTableName'] as const) : []),
  ],
  deploymentSettings: true,
});

const roleDescriptionOf = (op: AnyOperation): string =>
  `gtt-gateway ${op.name}: its log group, its secret${op.broker === 'Logout' ? ' (read, and mark it logged out)' : ''}${op.idempotency ? ', the idempotency table' : ''}${op.lifecycle ? " (its events' outbox too)" : ''}${op.kind === 'order' ? ', the control table (order-rate governor, order leases)' : ''}${op.broker === 'Logout' ? ", the control table (the session's end)" : ''}${readsInstruments(op) ? ", the instruments' copy (read, and write what it read from the broker)" : ''}`;

/**
 * Routes a function serves beside its operation, on a stack of its own that answers both (the quote function's
 * `GET /options`, gateway/quote-stack.ts): their routes, and the stack as the definition and the handler file bind it.
 */
export interface BesideRoutes {
  routes: readonly Route[];
  stack: { name: string; from: string; create: typeof createGatewayStack };
}

/** The quote function answers the day's option chain too: a read of the same copy, no Lambda of its own. */
export const QUOTE_BESIDE: BesideRoutes = {
  routes: OPTIONS_ROUTES.routes,
  stack: { name: 'createQuoteStack', from: '../orders/gateway/quote-stack.js', create: createQuoteStack },
};

export const operationFunction = (op: AnyOperation, exportName: string, beside?: BesideRoutes): FunctionDefinition => ({
  name: op.name,
  id: op.id,
  summary: op.summary,
  routes: [operationRoute(op), ...(beside?.routes ?? [])],
  direct: { example: op.example },
  env: envOf(op),
  grants: grantsOf(op),
  notes: {
    home: 'stack',
    description: `gtt-gateway: ${op.summary} (${[operationRoute(op), ...(beside?.routes ?? [])].map((r) => `${r.method} ${r.path}`).join(', ')})`,
    roleDescription: roleDescriptionOf(op),
  },
  alarms: {
    errors: {
      description: `${op.name}: function errors (unhandled failures and direct-invocation errors)`,
      threshold: 1,
    },
    throttles: true,
  },
  bundle: {
    memory: op.kind === 'order' ? 'order' : 'standard',
    handler: {
      kind: 'operation',
      operation: op,
      exportName,
      ...(beside ? { stack: { name: beside.stack.name, from: beside.stack.from } } : {}),
    },
  },
  ...(op.kind === 'order' ? { audit: true as const } : {}),
  // As the generated handler file binds it (without the Lambda init's session prefetch).
  create: ({ env, logger }) =>
    (beside?.stack.create ?? createGatewayStack)(op, {
      ...Object.fromEntries(bindingsOf(op).map((binding) => [binding.option, binding.value])),
      ...(env ? { env } : {}),
      logger,
    }),
  operation: op,
});

/** In the table's order (the stack's construct order follows it). */
export const OPERATION_FUNCTIONS: readonly FunctionDefinition[] = [
  operationFunction(placeGttOrder, 'placeGttOrder'),
  operationFunction(placeOcoOrder, 'placeOcoOrder'),
  operationFunction(getPendingGttOrders, 'getPendingGttOrders'),
  operationFunction(getGttOrder, 'getGttOrder'),
  operationFunction(getTriggeredGttOrders, 'getTriggeredGttOrders'),
  operationFunction(getEnabledGtts, 'getEnabledGtts'),
  operationFunction(modifyGttOrder, 'modifyGttOrder'),
  operationFunction(modifyOcoOrder, 'modifyOcoOrder'),
  operationFunction(patchGttOrder, 'patchGttOrder'),
  operationFunction(patchOcoOrder, 'patchOcoOrder'),
  operationFunction(cancelGttOrder, 'cancelGttOrder'),
  operationFunction(clientDetails, 'clientDetails'),
  operationFunction(logout, 'logout'),
  operationFunction(getOrderBook, 'getOrderBook'),
  operationFunction(getQuote, 'getQuote', QUOTE_BESIDE),
  operationFunction(getSeries, 'getSeries'),
  operationFunction(getPositions, 'getPositions'),
];
