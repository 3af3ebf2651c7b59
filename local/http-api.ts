/**
 * A local stand-in for the API Gateway HTTP API: routes from the function manifest, each request turned into a
 * payload v2 event for the function's real handler. Also serves `GET /openapi.json`, pages of its own (the console,
 * local/console.ts), and
 * `POST /_invoke/<Operation>` for direct (workflow-style) invocations with a plain JSON payload.
 *
 * It drives a broker account, so a web page in a browser must not be able to use it: a request whose `Host` is not
 * this API (DNS rebinding) or whose `Origin` is another site is refused (403 REQUEST_FORBIDDEN), and a body (or a
 * Content-Type) that is not `application/json` is refused (415 UNSUPPORTED_MEDIA_TYPE), so no cross-site "simple"
 * request (a form, `text/plain`) gets through and no CORS preflight is ever granted. Its own refusals are in the
 * error contract too: a body over 1 MB is 413 PAYLOAD_TOO_LARGE, a malformed percent-escape 400 VALIDATION_FAILED.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

import { capText } from '../functions/base/contract/bounded.js';
import {
  type GatewayError,
  PayloadTooLargeError,
  RequestForbiddenError,
  UnsupportedMediaTypeError,
  ValidationFailedError,
} from '../functions/base/contract/errors.js';
import { httpErrorResponse } from '../functions/base/middleware/error-contract.js';
import type { LocalPages } from './console.js';
import { lambdaContext } from './lambda-context.js';
import { listenOnLoopback } from './loopback.js';
import type { Refusal } from './permissions/gate.js';
import type { CapturedRequest } from './permissions/sigv4.js';

export type LocalHandler = (event: unknown, context: Context) => Promise<unknown>;

/** One route of the API: a manifest route (functions/manifest/), or one of the local stack's own (`/_local/...`). */
export interface LocalRoute {
  /** An HTTP method, or `ANY`: every method no route of its own method matches (API Gateway's `ANY` route). */
  method: string;
  path: string;
  /** The function that serves it (its Lambda context's name). */
  name: string;
  handler: LocalHandler;
  /** Takes text/plain as well as JSON (the signal webhook: TradingView posts text/plain). */
  textBody?: boolean;
}

export interface LocalApiOptions {
  routes: readonly LocalRoute[];
  /** `POST /_invoke/<Name>`: the functions a direct invocation may reach, by name. */
  functions: ReadonlyMap<string, LocalHandler>;
  port?: number;
  openApi?: (baseUrl: string) => unknown;
  /** Pages the API serves itself (GET/HEAD): the console (local/console.ts). */
  pages?: LocalPages;
  /**
   * A route's SigV4-signed request held to the signer's `execute-api:Invoke` grants (local/permissions/), given the
   * request and `<METHOD>/<path>`; unsigned requests (the owner's CLI and tests) and bearer tokens pass as before.
   */
  authorize?: (request: CapturedRequest, methodPath: string) => Promise<Refusal | undefined>;
}

export interface LocalApi {
  url: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
/** How much of a too-large body is read and dropped after the 413, so the client sees the reply, not a reset. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

interface Route {
  route: LocalRoute;
  method: string;
  pattern: RegExp;
  params: string[];
}

const compileRoute = (route: LocalRoute): Route => {
  const params: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_match, name: string) => {
    params.push(name);
    return '([^/]+)';
  });
  return { route, method: route.method, pattern: new RegExp(`^${source}$`), params };
};

const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
};

/** An error of the contract as the HTTP reply API Gateway would give for the handler's response. */
const sendError = (res: http.ServerResponse, error: GatewayError, headers: Record<string, string> = {}) => {
  const reply = httpErrorResponse(error);
  const replyHeaders = Object.fromEntries(Object.entries(reply.headers ?? {}).map(([k, v]) => [k, String(v)]));
  send(res, reply.statusCode ?? error.status, reply.body ?? '', { ...replyHeaders, ...headers });
};

/**
 * The body, or `undefined` once it passes MAX_BODY_BYTES (declared or counted). The rest of a too-large body is
 * read and dropped (up to MAX_DRAIN_BYTES, then the connection is cut), so the 413 reaches the client.
 */
const readBody = (req: http.IncomingMessage): Promise<Buffer | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers['content-length']) > MAX_BODY_BYTES;
    if (tooLarge) resolve(undefined);
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (tooLarge) {
        if (size > MAX_DRAIN_BYTES) req.destroy();
        return;
      }
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!tooLarge) resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });

const utf8 = (bytes: Buffer): string | undefined => {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
};

/** `application/json`, with or without parameters (`; charset=utf-8`). */
const isJson = (contentType: string | undefined): boolean =>
  contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType.trim());

/** `text/plain`, with or without parameters. */
const isText = (contentType: string | undefined): boolean =>
  contentType !== undefined && /^text\/plain\s*(;|$)/i.test(contentType.trim());

export const toHttpApiEvent = (
  req: http.IncomingMessage,
  url: URL,
  route: { method: string; path: string },
  pathParameters: Record<string, string>,
  body: string,
  isBase64Encoded = false,
): APIGatewayProxyEventV2 => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams)
    query[name] = query[name] === undefined ? value : `${query[name]},${value}`;
  const now = new Date();
  return {
    version: '2.0',
    routeKey: `${route.method} ${route.path}`,
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
      routeKey: `${route.method} ${route.path}`,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    ...(body === '' ? {} : { body }),
    isBase64Encoded,
  };
};

/** Runs a Lambda proxy integration: the handler's structured result becomes the HTTP reply. */
const integrate = async (
  res: http.ServerResponse,
  handler: LocalHandler,
  name: string,
  event: APIGatewayProxyEventV2,
): Promise<void> => {
  try {
    const result = (await handler(event, lambdaContext(name))) as APIGatewayProxyStructuredResultV2 | undefined;
    const headers = Object.fromEntries(Object.entries(result?.headers ?? {}).map(([k, v]) => [k, String(v)]));
    res.writeHead(result?.statusCode ?? 200, headers);
    res.end(result?.body ?? '');
  } catch {
    // What API Gateway answers when the integration fails.
    send(res, 500, { message: 'Internal Server Error' });
  }
};

export const startLocalApi = async (options: LocalApiOptions): Promise<LocalApi> => {
  // Static segments win over path parameters, as in API Gateway (`/gtt-orders/triggered` before `/gtt-orders/{alId}`),
  // and a route of the request's own method over an `ANY` route of the same path.
  const isAny = (r: Route) => (r.method === 'ANY' ? 1 : 0);
  const routes = options.routes
    .map(compileRoute)
    .sort((a, b) => a.params.length - b.params.length || isAny(a) - isAny(b));
  let baseUrl = '';

  /** This API's own names: `Host` must be one of them, and an `Origin`, if sent, must be one of their origins. */
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!allowedHosts.has(host)) {
      // DNS rebinding: a page on another site whose name now points at 127.0.0.1.
      return sendError(
        res,
        new RequestForbiddenError(
          `Host ${JSON.stringify(capText(host, 64))} is not this local API (${[...allowedHosts].join(' or ')}); nothing was done.`,
        ),
      );
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase())) {
      // A browser sends Origin with every cross-site POST/PUT/DELETE (and CORS reads): a page on another site.
      return sendError(
        res,
        new RequestForbiddenError(
          `Requests from ${JSON.stringify(capText(origin, 64))} are refused: only this local API's own origin may call it; nothing was done.`,
        ),
      );
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1');
    } catch {
      return sendError(res, new ValidationFailedError('The request target is not a valid URL; nothing was sent.'));
    }
    const method = req.method ?? 'GET';
    const page = options.pages?.(method, url.pathname);
    if (page) {
      res.writeHead(page.status, page.headers);
      res.end(method === 'HEAD' ? undefined : page.body);
      return;
    }
    if (method === 'GET' && url.pathname === '/openapi.json' && options.openApi) {
      send(res, 200, options.openApi(baseUrl));
      return;
    }
    const bytes = await readBody(req);
    if (bytes === undefined) {
      return sendError(
        res,
        new PayloadTooLargeError(
          `The request body is larger than ${MAX_BODY_BYTES} bytes; nothing was sent to the broker.`,
        ),
      );
    }
    // A body that is not valid UTF-8 is passed on base64-encoded, as API Gateway passes a body it cannot hand over as
    // text: the gateway refuses it instead of reading U+FFFD where the bytes were.
    const text = utf8(bytes);
    const body = text ?? bytes.toString('base64');
    const contentType = req.headers['content-type'];
    const takesText = routes.some((r) => r.route.textBody && r.method === method && r.pattern.test(url.pathname));
    if ((body !== '' || contentType !== undefined) && !isJson(contentType) && !(takesText && isText(contentType))) {
      // Forms and text/plain are what a page on another site can send without a preflight: JSON only.
      return sendError(
        res,
        new UnsupportedMediaTypeError(
          `A request body must be sent as Content-Type: application/json (got ${contentType === undefined ? 'none' : JSON.stringify(capText(contentType, 64))}); nothing was sent.`,
        ),
      );
    }

    const invoke = /^\/_invoke\/(\w+)$/.exec(url.pathname);
    if (invoke && method === 'POST') {
      const name = invoke[1]!;
      const handler = options.functions.get(name);
      if (!handler) return send(res, 404, { message: `No function named ${name}` });
      let payload: unknown;
      if (text === undefined) return send(res, 400, { message: 'The invocation payload is not valid UTF-8' });
      try {
        payload = body === '' ? {} : JSON.parse(body);
      } catch {
        return send(res, 400, { message: 'The invocation payload is not valid JSON' });
      }
      try {
        const result = await handler(payload, lambdaContext(name));
        return send(res, 200, result ?? null);
      } catch (error) {
        // The shape Lambda's Invoke API returns for a function error.
        const e = error instanceof Error ? error : new Error(String(error));
        return send(res, 200, { errorType: e.name, errorMessage: e.message }, { 'x-amz-function-error': 'Unhandled' });
      }
    }

    for (const route of routes) {
      const match = route.pattern.exec(url.pathname);
      if (!match || (route.method !== method && route.method !== 'ANY')) continue;
      const pathParameters: Record<string, string> = {};
      for (const [i, name] of route.params.entries()) {
        try {
          pathParameters[name] = decodeURIComponent(match[i + 1]!);
        } catch {
          return sendError(
            res,
            new ValidationFailedError(`The path parameter ${name} is not valid percent-encoding; nothing was sent.`, {
              details: [{ field: name, message: 'is not valid percent-encoding (UTF-8)' }],
            }),
          );
        }
      }
      if (options.authorize && String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 ')) {
        const refusal = await options.authorize(
          { method, url: req.url ?? '/', headers: req.headers, body: text ?? '' },
          `${method}${url.pathname}`,
        );
        // API Gateway's answer to a signer its IAM policy does not allow.
        if (refusal) return send(res, 403, { message: refusal.message });
      }
      const event = toHttpApiEvent(
        req,
        url,
        { method: route.method, path: route.route.path },
        pathParameters,
        body,
        text === undefined,
      );
      return integrate(res, route.route.handler, route.route.name, event);
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
  allowedHosts = new Set([`127.0.0.1:${listening.port}`, `localhost:${listening.port}`]);
  allowedOrigins = new Set([...allowedHosts].map((h) => `http://${h}`));
  return listening;
};
