/**
 * A local stand-in for the API Gateway HTTP API: routes from the operation table, each request turned into a
 * payload v2 event for the operation's real handler. Also serves `GET /openapi.json`, and
 * `POST /_invoke/<Operation>` for direct (workflow-style) invocations with a plain JSON payload.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { listenOnLoopback } from './loopback.js';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { AnyOperation } from '../functions/contract/operation.js';
import { lambdaContext } from './lambda-context.js';

export type LocalHandler = (event: unknown, context: Context) => Promise<unknown>;

export interface LocalApiOptions {
  operations: readonly AnyOperation[];
  handlerFor: (operation: AnyOperation) => LocalHandler;
  port?: number;
  openApi?: (baseUrl: string) => unknown;
}

export interface LocalApi {
  url: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;

interface Route {
  operation: AnyOperation;
  method: string;
  pattern: RegExp;
  params: string[];
}

const compileRoute = (operation: AnyOperation): Route => {
  const params: string[] = [];
  const source = operation.route.path
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\{(\w+)\}/g, (_match, name: string) => {
      params.push(name);
      return '([^/]+)';
    });
  return { operation, method: operation.route.method, pattern: new RegExp(`^${source}$`), params };
};

const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
};

const readBody = (req: http.IncomingMessage): Promise<string | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

export const toHttpApiEvent = (
  req: http.IncomingMessage,
  url: URL,
  route: Route,
  pathParameters: Record<string, string>,
  body: string,
): APIGatewayProxyEventV2 => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = query[name] === undefined ? value : `${query[name]},${value}`;
  const now = new Date();
  return {
    version: '2.0',
    routeKey: `${route.method} ${route.operation.route.path}`,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? '127.0.0.1',
      domainPrefix: 'local',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: `${route.method} ${route.operation.route.path}`,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    ...(body === '' ? {} : { body }),
    isBase64Encoded: false,
  };
};

export const startLocalApi = async (options: LocalApiOptions): Promise<LocalApi> => {
  const routes = options.operations.map(compileRoute);
  let baseUrl = '';

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    if (method === 'GET' && url.pathname === '/openapi.json' && options.openApi) {
      send(res, 200, options.openApi(baseUrl));
      return;
    }
    const body = await readBody(req);
    if (body === undefined) {
      send(res, 413, { message: 'Request Entity Too Large' });
      return;
    }

    const invoke = /^\/_invoke\/(\w+)$/.exec(url.pathname);
    if (invoke && method === 'POST') {
      const operation = options.operations.find((op) => op.name === invoke[1]);
      if (!operation) return send(res, 404, { message: `No function for operation ${invoke[1]}` });
      let payload: unknown;
      try {
        payload = body === '' ? {} : JSON.parse(body);
      } catch {
        return send(res, 400, { message: 'The invocation payload is not valid JSON' });
      }
      try {
        const result = await options.handlerFor(operation)(payload, lambdaContext(operation.name));
        return send(res, 200, result ?? null);
      } catch (error) {
        // The shape Lambda's Invoke API returns for a function error.
        const e = error instanceof Error ? error : new Error(String(error));
        return send(res, 200, { errorType: e.name, errorMessage: e.message }, { 'x-amz-function-error': 'Unhandled' });
      }
    }

    for (const route of routes) {
      const match = route.pattern.exec(url.pathname);
      if (!match || route.method !== method) continue;
      const pathParameters = Object.fromEntries(route.params.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
      const event = toHttpApiEvent(req, url, route, pathParameters, body);
      try {
        const result = (await options.handlerFor(route.operation)(event, lambdaContext(route.operation.name))) as
          | APIGatewayProxyStructuredResultV2
          | undefined;
        const headers = Object.fromEntries(Object.entries(result?.headers ?? {}).map(([k, v]) => [k, String(v)]));
        res.writeHead(result?.statusCode ?? 200, headers);
        res.end(result?.body ?? '');
      } catch {
        // What API Gateway answers when the integration fails.
        send(res, 500, { message: 'Internal Server Error' });
      }
      return;
    }
    // API Gateway's answer for a request that matches no route.
    send(res, 404, { message: 'Not Found' });
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, { message: 'Internal Server Error' });
      else res.destroy();
    });
  });
  const listening = await listenOnLoopback(server, options.port);
  baseUrl = listening.url;
  return listening;
};
