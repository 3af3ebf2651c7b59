/**
 * The two ways in: an API Gateway HTTP API (payload v2) event, or a plain JSON object from a direct invocation
 * (Step Functions, EventBridge, SDK). Both become one raw payload that the operation's input schema validates.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { AnyOperation } from '../operation.js';
import { ValidationFailedError } from './errors.js';

export type RequestSource = 'http' | 'direct';

export interface GatewayRequest {
  source: RequestSource;
  /** Fields for the operation's input schema (body or payload, plus path parameters). */
  payload: Record<string, unknown>;
  /** Lower-cased request headers (HTTP only). */
  headers: Record<string, string>;
  /** Query string parameters (HTTP only). */
  query: Record<string, string>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const isHttpApiEvent = (event: unknown): event is APIGatewayProxyEventV2 =>
  isRecord(event) && event.version === '2.0' && isRecord(event.requestContext) && isRecord(event.requestContext.http);

/** An EventBridge event carries the caller's payload in `detail` (e.g. a scheduled rule with a constant input). */
const isEventBridgeEvent = (event: Record<string, unknown>): boolean =>
  'detail-type' in event && 'source' in event && 'detail' in event;

const invalid = (message: string, details?: unknown) => new ValidationFailedError(message, { details });

const fromHttp = (operation: AnyOperation, event: APIGatewayProxyEventV2): GatewayRequest => {
  let payload: Record<string, unknown> = {};
  if (event.body !== undefined && event.body !== null && event.body !== '') {
    const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw invalid('The request body is not valid JSON.');
    }
    if (!isRecord(json)) throw invalid('The request body must be a JSON object.');
    payload = json;
  }
  for (const [param, field] of Object.entries(operation.pathParams ?? {})) {
    const value = event.pathParameters?.[param];
    if (value === undefined) continue;
    if (field in payload && String(payload[field]) !== value) {
      throw invalid(`${field} in the body (${JSON.stringify(payload[field])}) differs from the path (${value}).`, [
        { path: field, message: 'must match the path parameter' },
      ]);
    }
    payload = { ...payload, [field]: value };
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) {
    if (value !== undefined) query[name] = value;
  }
  return { source: 'http', payload, headers, query };
};

const fromDirect = (event: unknown): GatewayRequest => {
  if (event === undefined || event === null) return { source: 'direct', payload: {}, headers: {}, query: {} };
  if (!isRecord(event)) throw invalid('A direct invocation payload must be a JSON object.');
  const payload = isEventBridgeEvent(event) ? event.detail : event;
  if (payload === undefined || payload === null) return { source: 'direct', payload: {}, headers: {}, query: {} };
  if (!isRecord(payload)) throw invalid('The EventBridge event detail must be a JSON object.');
  return { source: 'direct', payload, headers: {}, query: {} };
};

export const readGatewayRequest = (operation: AnyOperation, event: unknown): GatewayRequest =>
  isHttpApiEvent(event) ? fromHttp(operation, event) : fromDirect(event);

export const sourceOf = (event: unknown): RequestSource => (isHttpApiEvent(event) ? 'http' : 'direct');
