/**
 * The request rules for a manifest function of several routes (plans, the kill switch, the events history): which
 * route a call is for, and its fields, body and options, read with the same rules as the operation table's entries
 * (base/contract/gateway-request.ts): unknown query parameters, look-alike headers and a body that is not UTF-8 JSON are
 * refused; `dryRun` is honoured where the route offers it and refused by name everywhere else; a direct invocation's
 * fields outside the route's are refused, never ignored.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

import { type FieldProblem, ValidationFailedError } from '../contract/errors.js';
import {
  dryRunRefused,
  isHttpApiEvent,
  readDirectRequest,
  readGatewayRequest,
  type RequestSpec,
} from '../contract/gateway-request.js';
import type { FunctionSurface, Route } from '../definition/types.js';

export interface RoutedRequest {
  route: Route;
  source: 'http' | 'direct';
  /** Query and path fields (strings over HTTP, as given in a direct payload). */
  fields: Record<string, unknown>;
  /**
   * The JSON body (HTTP) or the direct payload's `directBody` field; undefined when the route takes none. A `rawBody`
   * route's HTTP body is its text (`''` when none was sent), or `undefined` when it is not valid UTF-8.
   */
  body: unknown;
  idempotencyKey?: string;
  dryRun: boolean;
  /** Who asked: the caller's IAM identity over HTTP (never a credential), or `direct invocation`. */
  caller: string;
}

/** How a refusal names a route: `POST /plans`. */
export const routeName = (route: Route): string => `${route.method} ${route.path}`;

const specOf = (route: Route): RequestSpec => ({
  name: routeName(route),
  query: route.query,
  pathParams: route.pathParams,
  kind: route.kind,
  dryRun: route.dryRun,
  ...(route.lenientQuery ? { lenientQuery: true } : {}),
});

const refused = (message: string, details: FieldProblem[]) => new ValidationFailedError(message, { details });

/** Each route's path as a pattern, compiled once per container (`/plans/{planId}` -> `^/plans/[^/]+$`). */
const patterns = new WeakMap<Route, RegExp>();
const patternOf = (route: Route): RegExp => {
  let pattern = patterns.get(route);
  if (!pattern) {
    const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+');
    pattern = new RegExp(`^${source}$`);
    patterns.set(route, pattern);
  }
  return pattern;
};

/** Whether `event` is a request of `route` (its method, and its route key, path or path parameters). */
export const routeMatches = (route: Route, event: APIGatewayProxyEventV2): boolean => {
  if (route.method !== event.requestContext.http.method) return false;
  if (event.routeKey && event.routeKey !== '$default') return event.routeKey === routeName(route);
  if (event.rawPath) return patternOf(route).test(event.rawPath);
  const params = Object.keys(route.pathParams);
  const given = Object.keys(event.pathParameters ?? {});
  return params.length === given.length && params.every((name) => given.includes(name));
};

const httpRoute = (entry: FunctionSurface, event: APIGatewayProxyEventV2): Route => {
  const route = entry.routes.find((r) => routeMatches(r, event));
  if (route) return route;
  const method = event.requestContext.http.method;
  throw refused(`${method} is not a method of ${entry.name} (${entry.routes.map(routeName).join(', ')}).`, [
    { field: '(method)', message: `not a route of ${entry.name}` },
  ]);
};

const callerOf = (event: APIGatewayProxyEventV2): string => {
  const iam = (event.requestContext as { authorizer?: { iam?: { userArn?: string } } }).authorizer?.iam;
  return iam?.userArn ?? 'http';
};

/** A `rawBody` route's body as text: `undefined` when API Gateway passed bytes that are not UTF-8. */
const rawText = (event: APIGatewayProxyEventV2): string | undefined => {
  if (event.body === undefined || event.body === null) return '';
  if (!event.isBase64Encoded) return event.body;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(Buffer.from(event.body, 'base64'));
  } catch {
    return undefined;
  }
};

const fromHttp = (entry: FunctionSurface, event: APIGatewayProxyEventV2): RoutedRequest => {
  const route = httpRoute(entry, event);
  const spec = specOf(route);
  if (route.rawBody) {
    // Its query and headers are read by the same rules; its body is the function's to read.
    const request = readGatewayRequest(spec, { ...event, body: undefined, isBase64Encoded: false });
    return finish(route, {
      route,
      source: 'http',
      fields: request.payload,
      body: rawText(event),
      ...(request.options.idempotencyKey ? { idempotencyKey: request.options.idempotencyKey } : {}),
      dryRun: request.options.dryRun,
      caller: callerOf(event),
    });
  }
  // The body is read as the operation table's are (UTF-8, JSON object), then handed over whole.
  const request = readGatewayRequest(spec, event);
  const notBody = [...Object.values(route.pathParams), ...route.query];
  const fields = Object.fromEntries(Object.entries(request.payload).filter(([name]) => notBody.includes(name)));
  const body = Object.fromEntries(Object.entries(request.payload).filter(([name]) => !notBody.includes(name)));
  if (!route.body && Object.keys(body).length)
    throw refused(`${routeName(route)} takes no body; nothing was done.`, [
      { field: '(body)', message: `${routeName(route)} takes no body` },
    ]);
  return finish(route, {
    route,
    source: 'http',
    fields,
    body: route.body ? body : undefined,
    ...(request.options.idempotencyKey ? { idempotencyKey: request.options.idempotencyKey } : {}),
    dryRun: request.options.dryRun,
    caller: callerOf(event),
  });
};

/** The direct field a route's body travels in (`plan` for `{action: "create", plan}`). */
const bodyField = (entry: FunctionSurface, route: Route): string | undefined =>
  route.body ? (route.directBody ?? 'body') : undefined;

const directRoute = (entry: FunctionSurface, payload: Record<string, unknown>): Route => {
  if (entry.routes.length === 1 && entry.routes[0]!.action === undefined) return entry.routes[0]!;
  const actions = entry.routes.map((r) => r.action).filter((a): a is string => a !== undefined);
  const route = entry.routes.find((r) => r.action !== undefined && r.action === payload.action);
  if (route) return route;
  throw refused(`A direct invocation of ${entry.name} takes {"action": ${actions.map((a) => `"${a}"`).join(' | ')}}.`, [
    { field: 'action', message: `must be one of ${actions.join(', ')}` },
  ]);
};

const fromDirect = (entry: FunctionSurface, event: unknown): RoutedRequest => {
  const request = readDirectRequest(event);
  const route = directRoute(entry, request.payload);
  const body = bodyField(entry, route);
  const allowed = [
    ...(route.action === undefined ? [] : ['action']),
    ...route.query,
    ...Object.values(route.pathParams),
    ...(body ? [body] : []),
  ];
  const unread = Object.keys(request.payload).filter((name) => !allowed.includes(name));
  if (unread.length)
    throw refused(
      `${unread.join(', ')} ${unread.length > 1 ? 'are not fields' : 'is not a field'} of a direct ${route.action ?? ''} ${entry.name} (it takes ${allowed.join(', ') || 'no fields'}); nothing was done.`.replace(
        /\s+/g,
        ' ',
      ),
      unread.map((name) => ({ field: name, message: `not a field of a direct ${entry.name}; nothing was done` })),
    );
  const fields = Object.fromEntries(
    Object.entries(request.payload).filter(([name]) => name !== 'action' && name !== body),
  );
  return finish(route, {
    route,
    source: 'direct',
    fields,
    body: body ? request.payload[body] : undefined,
    ...(request.options.idempotencyKey ? { idempotencyKey: request.options.idempotencyKey } : {}),
    dryRun: request.options.dryRun,
    caller: 'direct invocation',
  });
};

/** The options every route shares: a dry run only where offered, a key only where taken. */
const finish = (route: Route, request: RoutedRequest): RoutedRequest => {
  if (request.dryRun && !route.dryRun) throw dryRunRefused(specOf(route));
  if (request.idempotencyKey !== undefined && !route.idempotencyKey)
    throw refused(`${routeName(route)} takes no Idempotency-Key; nothing was done.`, [
      { field: request.source === 'http' ? 'Idempotency-Key' : 'idempotencyKey', message: 'not taken here' },
    ]);
  // A dry run sends nothing, so it needs no key (as the operation table's entries: orders/gateway/order-checks.ts).
  if (request.idempotencyKey === undefined && route.idempotencyKey === 'required' && !request.dryRun)
    throw refused(
      `${routeName(route)} requires an Idempotency-Key (one per request, reused on every retry); nothing was done.`,
      [
        {
          field: request.source === 'http' ? 'Idempotency-Key' : 'idempotencyKey',
          message: 'is required (1-128 characters of [A-Za-z0-9_.:-], one per request, reused on every retry)',
        },
      ],
    );
  return request;
};

export const readRoutedRequest = (entry: FunctionSurface, event: unknown): RoutedRequest =>
  isHttpApiEvent(event) ? fromHttp(entry, event) : fromDirect(entry, event);
