/**
 * Who is calling `/mcp`, and from where: the assistant its bearer token names (assistants/registry.ts), the local
 * open mode of `npm start --mcp-open` (loopback only, never in a deployed stack), and the Host and Origin checks
 * against DNS rebinding. Each refusal is an HTTP reply with a JSON-RPC error body, before any tool runs.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

import type { AssistantIdentity, AssistantRegistry } from '../assistants/registry.js';
import type { RoutedReply } from '../base/middleware/routed-function.js';
import { jsonRpcError } from './transport.js';

/** 127.0.0.1, localhost or [::1], with an optional port: the only names a loopback server answers to. */
const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/i;
const LOOPBACK_IP = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/** The identity of `npm start --mcp-open`'s token-less callers on loopback (the conformance suite, a local try). */
export const LOCAL_OPEN_ASSISTANT: AssistantIdentity = {
  assistantId: 'local-open',
  name: 'npm start --mcp-open (loopback, no token)',
  scopes: ['read', 'trade'],
  limits: {},
};

const header = (event: APIGatewayProxyEventV2, name: string): string | undefined => {
  const found = Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === name);
  return found?.[1];
};

/** A refusal of the caller as a JSON-RPC error (id null: the message was not read). */
const jsonRpcRefusal = (status: number, message: string, headers: Record<string, string> = {}): RoutedReply =>
  jsonRpcError(status, -32_001, message, headers);

/** Whether the request came over loopback (npm start): its source address is the machine's own. */
export const isLoopbackCall = (event: APIGatewayProxyEventV2): boolean =>
  LOOPBACK_IP.test(event.requestContext.http.sourceIp);

/**
 * DNS rebinding: over loopback, the Host and any Origin must name loopback (a page of evil.com resolved to
 * 127.0.0.1 sends `Host: evil.com`); deployed, an Origin must be the API's own (MCP clients are not web pages).
 */
export const originRefusal = (event: APIGatewayProxyEventV2): RoutedReply | undefined => {
  const origin = header(event, 'origin');
  if (isLoopbackCall(event)) {
    const host = header(event, 'host') ?? '';
    if (!LOOPBACK_HOST.test(host))
      return jsonRpcRefusal(403, `Host ${JSON.stringify(host.slice(0, 64))} is not this loopback server's name`);
    if (origin !== undefined && !LOOPBACK_HOST.test(origin.replace(/^https?:\/\//i, '')))
      return jsonRpcRefusal(403, `Origin ${JSON.stringify(origin.slice(0, 64))} is not a loopback origin`);
    return undefined;
  }
  if (origin !== undefined && origin !== `https://${event.requestContext.domainName}`)
    return jsonRpcRefusal(403, `Origin ${JSON.stringify(origin.slice(0, 64))} may not call this server`);
  return undefined;
};

const UNAUTHORIZED = {
  'www-authenticate': 'Bearer realm="gtt-gateway", error="invalid_token"',
};

/**
 * The assistant calling, or the refusal: a missing or malformed Authorization header, or a token no assistant has
 * (wrong, rotated, deleted), is 401 with `WWW-Authenticate: Bearer`. The token itself is never echoed or logged.
 */
export const identify = async (
  event: APIGatewayProxyEventV2,
  registry: AssistantRegistry,
  openOnLoopback: boolean,
): Promise<AssistantIdentity | RoutedReply> => {
  const authorization = header(event, 'authorization');
  if (authorization === undefined && openOnLoopback && isLoopbackCall(event)) return LOCAL_OPEN_ASSISTANT;
  const match = /^Bearer ([^\s]+)$/i.exec(authorization ?? '');
  if (!match)
    return jsonRpcRefusal(
      401,
      'Send an assistant token: Authorization: Bearer gtta_… (create one with `npm run gtt -- assistant-create`).',
      UNAUTHORIZED,
    );
  const assistant = await registry.assistantForToken(match[1]);
  return (
    assistant ??
    jsonRpcRefusal(
      401,
      'This assistant token is not valid (wrong, rotated or deleted): ask the trader for a new one.',
      UNAUTHORIZED,
    )
  );
};
