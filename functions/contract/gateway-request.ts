/**
 * The two ways in: an API Gateway HTTP API (payload v2) event, or a plain JSON object from a direct invocation
 * (Step Functions, EventBridge, SDK). Both become one raw payload that the operation's input schema validates.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { AnyOperation } from './operation.js';
import { ValidationFailedError } from './errors.js';

export type RequestSource = 'http' | 'direct';

/** Per-request options that are not operation fields. */
export interface RequestOptions {
  /** `Idempotency-Key` header, or `idempotencyKey` in a direct payload. */
  idempotencyKey?: string;
  /** `?dryRun=true`, or `dryRun: true` in a direct payload: validate and show the request, send nothing. */
  dryRun: boolean;
}

export interface GatewayRequest {
  source: RequestSource;
  options: RequestOptions;
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

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{1,128}$/;

const readIdempotencyKey = (value: unknown, field: string): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) {
    throw invalid(`${field} must be 1 to 128 characters of letters, digits, '_', '.', ':' or '-'.`, [
      { field, message: 'must be 1-128 characters of [A-Za-z0-9_.:-]' },
    ]);
  }
  return value;
};

const readDryRun = (value: unknown, field: string): boolean => {
  if (value === undefined || value === false || value === 'false' || value === '0') return false;
  if (value === true || value === 'true' || value === '1') return true;
  throw invalid(`${field} must be true or false.`, [{ field, message: 'must be true or false' }]);
};

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
  const options: RequestOptions = {
    idempotencyKey: readIdempotencyKey(headers['idempotency-key'], 'Idempotency-Key'),
    dryRun: readDryRun(query.dryRun, 'dryRun'),
  };
  return { source: 'http', options, payload, headers, query };
};

const fromDirect = (event: unknown): GatewayRequest => {
  if (event !== undefined && event !== null && !isRecord(event)) {
    throw invalid('A direct invocation payload must be a JSON object.');
  }
  const raw = event && isEventBridgeEvent(event) ? event.detail : event;
  if (raw !== undefined && raw !== null && !isRecord(raw)) throw invalid('The EventBridge event detail must be a JSON object.');
  const { idempotencyKey, dryRun, ...payload } = raw ?? {};
  return {
    source: 'direct',
    options: { idempotencyKey: readIdempotencyKey(idempotencyKey, 'idempotencyKey'), dryRun: readDryRun(dryRun, 'dryRun') },
    payload,
    headers: {},
    query: {},
  };
};

export const readGatewayRequest = (operation: AnyOperation, event: unknown): GatewayRequest =>
  isHttpApiEvent(event) ? fromHttp(operation, event) : fromDirect(event);

export const sourceOf = (event: unknown): RequestSource => (isHttpApiEvent(event) ? 'http' : 'direct');
