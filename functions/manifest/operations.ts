/**
 * The manifest's entries of the operation table (functions/operations.ts): one function per broker operation, its
 * route, environment, grants and bundle derived from the entry's own flags, so an operation is one definition.
 */
import * as z from 'zod';

import type { AnyOperation } from '../contract/operation.js';
import {
  cancelGttOrder,
  clientDetails,
  getEnabledGtts,
  getGttOrder,
  getOrderBook,
  getPendingGttOrders,
  getTriggeredGttOrders,
  logout,
  modifyGttOrder,
  modifyOcoOrder,
  patchGttOrder,
  patchOcoOrder,
  placeGttOrder,
  placeOcoOrder,
} from '../operations.js';
import { ORDER_ROUTE_THROTTLE } from './routes.js';
import type { FunctionEntry, Grant, Route } from './types.js';

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
  // The one-order read: the watcher's copy of the pending list (gateway/order-copy.ts).
  ...(op.fromCopy ? (['eventsTable:copy', 'controlTable:leases'] as const) : []),
  ...(op.kind === 'order' ? (['controlTable:governor'] as const) : []),
  // Place and modify read the exchange's rules from the account's copy (and write what they read from the broker).
  ...(op.guardedOrders ? (['instrumentsTable:copy'] as const) : []),
  // Logout tells every container the session ended: the account's control item (its UpdateItem).
  ...(op.broker === 'Logout' ? (['controlTable:switch'] as const) : []),
];

const envOf = (op: AnyOperation): FunctionEntry['env'] => ({
  keys: [
    'brokerBaseUrl',
    'brokerSecretId',
    'idempotencyTableName',
    ...(op.kind === 'order' ? (['controlTableName', 'orderRatePerSecond', 'orderRatePerMinute'] as const) : []),
    ...(op.broker === 'Logout' ? (['controlTableName'] as const) : []),
    ...(op.guardedOrders ? (['instrumentsTableName'] as const) : []),
    // The bus's name only: it names the deployment in every event id; the events go to the outbox.
    ...(op.lifecycle ? (['eventBusName'] as const) : []),
    ...(op.fromCopy ? (['eventsTableName', 'controlTableName'] as const) : []),
  ],
  deploymentSettings: true,
});

export const operationFunction = (op: AnyOperation, exportName: string): FunctionEntry => ({
  name: op.name,
  id: op.id,
  summary: op.summary,
  routes: [operationRoute(op)],
  direct: { example: op.example },
  env: envOf(op),
  grants: grantsOf(op),
  bundle: {
    memory: op.kind === 'order' ? 'order' : 'standard',
    handler: { kind: 'operation', operation: op, exportName },
  },
  operation: op,
});

/** In the table's order (the stack's construct order follows it). */
export const OPERATION_FUNCTIONS: readonly FunctionEntry[] = [
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
];
