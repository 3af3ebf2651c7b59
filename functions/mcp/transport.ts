/**
 * The streamable HTTP transport's own rules at `/mcp` (MCP spec 2025-06-18, "Transports"), answered before the
 * SDK's transport sees a message: `POST` only (the server offers no event stream, so `GET` and every other method
 * is 405 with `Allow: POST`); one JSON-RPC message per request (the protocol has no batches since 2025-06-18); a body
 * that is not JSON is JSON-RPC's Parse error (-32700), one that is not a JSON-RPC message its Invalid Request (-32600),
 * both HTTP 400 with id null, each saying what to send instead.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

import { MAX_PAYLOAD_DEPTH, nestedDeeperThan } from '../base/contract/gateway-request.js';
import type { RoutedReply } from '../base/middleware/routed-function.js';

/** JSON-RPC 2.0's error codes the transport answers. */
export const PARSE_ERROR = -32_700;
export const INVALID_REQUEST = -32_600;

/** A reply with a JSON-RPC error (id null: the message was not read), as the MCP spec's HTTP transport answers. */
export const jsonRpcError = (
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): RoutedReply & { status: number } => {
  const body = { jsonrpc: '2.0', error: { code, message }, id: null };
  return { status, headers, body, raw: JSON.stringify(body) };
};

const ONE_MESSAGE =
  'Send one JSON-RPC 2.0 message per POST: {"jsonrpc":"2.0","id":1,"method":"tools/list"} (a notification has no id).';

/** `GET /mcp` (an event stream), `DELETE /mcp` (a session) or any method but POST: 405, `Allow: POST`. */
export const methodRefusal = (event: APIGatewayProxyEventV2): (RoutedReply & { status: number }) | undefined => {
  const method = event.requestContext.http.method;
  if (method === 'POST') return undefined;
  return jsonRpcError(
    405,
    -32_000,
    `${method} /mcp is not offered: this server is stateless and opens no event stream or session. ${ONE_MESSAGE}`,
    { allow: 'POST' },
  );
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isId = (id: unknown): boolean => typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));

/** What a JSON-RPC message lacks, or undefined: a request, a notification, or a response to one of ours. */
const notAMessage = (message: Record<string, unknown>): string | undefined => {
  if (message.jsonrpc !== '2.0') return '"jsonrpc" must be "2.0"';
  if ('method' in message) {
    if (typeof message.method !== 'string' || message.method === '') return '"method" must be a non-empty string';
    if ('id' in message && !isId(message.id)) return '"id" must be a string or a number';
    if ('params' in message && !isRecord(message.params)) return '"params" must be an object';
    return undefined;
  }
  if (('result' in message || 'error' in message) && 'id' in message) return undefined;
  return 'it has no "method" (a request or notification) and is not a response (an "id" with "result" or "error")';
};

/**
 * The one JSON-RPC message of a request's body (its text; `undefined` when the bytes were not UTF-8), or the
 * transport's refusal.
 */
export const readMessage = (
  text: string | undefined,
): { message: Record<string, unknown> } | { refusal: RoutedReply } => {
  if (text === undefined)
    return { refusal: jsonRpcError(400, PARSE_ERROR, `Parse error: the body is not valid UTF-8. ${ONE_MESSAGE}`) };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const what = text.trim() === '' ? 'the body is empty' : 'the body is not valid JSON';
    return { refusal: jsonRpcError(400, PARSE_ERROR, `Parse error: ${what}. ${ONE_MESSAGE}`) };
  }
  if (Array.isArray(json))
    return {
      refusal: jsonRpcError(
        400,
        INVALID_REQUEST,
        `Invalid Request: a batch (a JSON array) is not accepted: MCP has no batches since protocol 2025-06-18. ${ONE_MESSAGE}`,
      ),
    };
  if (!isRecord(json))
    return {
      refusal: jsonRpcError(400, INVALID_REQUEST, `Invalid Request: the body is not a JSON object. ${ONE_MESSAGE}`),
    };
  // Before anything walks it recursively (the SDK's parse, the audit line): as deep as any body the gateway takes.
  if (nestedDeeperThan(json))
    return {
      refusal: jsonRpcError(400, INVALID_REQUEST, `Invalid Request: nested deeper than ${MAX_PAYLOAD_DEPTH} levels.`),
    };
  const lacking = notAMessage(json);
  if (lacking)
    return {
      refusal: jsonRpcError(
        400,
        INVALID_REQUEST,
        `Invalid Request: not a JSON-RPC 2.0 message: ${lacking}. ${ONE_MESSAGE}`,
      ),
    };
  return { message: json };
};
