/** Builders for the two entry shapes a handler accepts, as API Gateway and Lambda deliver them. */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

import type { AnyOperation } from '../../functions/base/contract/operation.js';
import { lambdaContext } from '../../local/lambda-context.js';

export interface HttpEventOptions {
  body?: unknown;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

export const httpApiEvent = (operation: AnyOperation, options: HttpEventOptions = {}): APIGatewayProxyEventV2 => {
  let path = operation.route.path;
  for (const [name, value] of Object.entries(options.pathParameters ?? {})) path = path.replace(`{${name}}`, value);
  return {
    version: '2.0',
    routeKey: `${operation.route.method} ${operation.route.path}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers: { 'content-type': 'application/json', ...options.headers },
    ...(options.query ? { queryStringParameters: options.query } : {}),
    ...(options.pathParameters ? { pathParameters: options.pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'test',
      domainName: 'test.local',
      domainPrefix: 'test',
      http: { method: operation.route.method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: 'req-1',
      routeKey: `${operation.route.method} ${operation.route.path}`,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
    ...(options.body === undefined
      ? {}
      : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
    isBase64Encoded: false,
  };
};

type Handler = (event: unknown, context: ReturnType<typeof lambdaContext>) => Promise<unknown>;

export interface HttpReply {
  status: number;
  headers: Record<string, unknown>;
  body: unknown;
}

export const invokeHttp = async (
  handler: Handler,
  operation: AnyOperation,
  options?: HttpEventOptions,
): Promise<HttpReply> => {
  const result = (await handler(
    httpApiEvent(operation, options),
    lambdaContext(operation.name),
  )) as APIGatewayProxyStructuredResultV2;
  return {
    status: result.statusCode ?? 0,
    headers: result.headers ?? {},
    body: result.body ? (JSON.parse(result.body) as unknown) : undefined,
  };
};

/** A direct invocation: resolves with the result, or with the thrown error (name + parsed JSON message). */
export const invokeDirect = async (
  handler: Handler,
  operation: AnyOperation,
  payload: unknown,
): Promise<
  { ok: true; result: unknown } | { ok: false; name: string; error: { code: string; [k: string]: unknown } }
> => {
  try {
    return { ok: true, result: await handler(payload, lambdaContext(operation.name)) };
  } catch (error) {
    const e = error as Error;
    return { ok: false, name: e.name, error: (JSON.parse(e.message) as { error: { code: string } }).error };
  }
};

/**
 * An operation's HTTP event built from its table example (`op.example`): path parameters from the example's
 * fields, the rest as the JSON body. Generic tests use it so a new table entry is covered without editing them.
 */
export const exampleHttpEvent = (
  operation: AnyOperation,
  options: Omit<HttpEventOptions, 'body' | 'pathParameters'> = {},
): APIGatewayProxyEventV2 => {
  const inPath = Object.values(operation.pathParams ?? {});
  const pathParameters = Object.fromEntries(
    Object.entries(operation.pathParams ?? {}).map(([param, field]) => [param, String(operation.example[field])]),
  );
  const body = Object.fromEntries(Object.entries(operation.example).filter(([field]) => !inPath.includes(field)));
  return httpApiEvent(operation, {
    ...options,
    ...(inPath.length ? { pathParameters } : {}),
    ...(Object.keys(body).length ? { body } : {}),
  });
};
