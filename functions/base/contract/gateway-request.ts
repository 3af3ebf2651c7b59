/**
 * The two ways in: an API Gateway HTTP API (payload v2) event, or a plain JSON object from a direct invocation
 * (Step Functions, EventBridge, SDK). Both become one raw payload that the operation's input schema validates.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

import { isRecord } from '../schemas/values.js';
import { capText, preview } from './bounded.js';
import { type FieldProblem, ValidationFailedError } from './errors.js';

export type RequestSource = 'http' | 'direct';

/** Per-request options that are not operation fields. */
export interface RequestOptions {
  /** `Idempotency-Key` header, or `idempotencyKey` in a direct payload. */
  idempotencyKey?: string;
  /** `?dryRun=true`, or `dryRun: true` in a direct payload: validate and show the request, send nothing. */
  dryRun: boolean;
  /** `If-Match` header (HTTP, PATCH only): the order's version the change is meant for. */
  ifMatch?: string;
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

export const isHttpApiEvent = (event: unknown): event is APIGatewayProxyEventV2 =>
  isRecord(event) && event.version === '2.0' && isRecord(event.requestContext) && isRecord(event.requestContext.http);

/** An EventBridge event carries the caller's payload in `detail` (e.g. a scheduled rule with a constant input). */
const isEventBridgeEvent = (event: Record<string, unknown>): boolean =>
  'detail-type' in event && 'source' in event && 'detail' in event;

/** The fields EventBridge itself puts around `detail`; anything else at the top level was put there by hand. */
const ENVELOPE_FIELDS = new Set([
  'version',
  'id',
  'detail-type',
  'source',
  'account',
  'time',
  'region',
  'resources',
  'detail',
  'replay-name',
]);

/**
 * Options and fields belong in `detail`. A top-level `dryRun: true` or `idempotencyKey` beside `detail` would
 * otherwise be dropped (and the order placed for real): any field EventBridge does not put there is refused.
 */
const checkEnvelope = (event: Record<string, unknown>): void => {
  const unknown = Object.keys(event).filter((name) => !ENVELOPE_FIELDS.has(name));
  if (unknown.length === 0) return;
  const named = unknown.slice(0, 10).map((name) => capText(name, 64));
  const more = unknown.length > named.length ? `, … (${unknown.length - named.length} more)` : '';
  throw invalid(
    `An EventBridge-shaped payload (detail-type, source, detail) carries its fields and options (dryRun, idempotencyKey) inside detail; ${named.join(', ')}${more} at the top level would be ignored, so the payload is refused and nothing was sent.`,
    named.map((name) => ({ field: name, message: 'not an EventBridge envelope field: put it inside detail' })),
  );
};

const invalid = (message: string, details?: readonly FieldProblem[]) => new ValidationFailedError(message, { details });

/** The deepest nesting a body or direct payload may have: every input of the set is a few levels deep. */
export const MAX_PAYLOAD_DEPTH = 32;

/**
 * Whether a parsed body or payload is nested deeper than `max`, found before anything hashes, validates or logs it
 * (each of those walks it recursively, and thousands of levels overflow the stack). Walked with a stack of its own,
 * never by recursion.
 */
export const nestedDeeperThan = (value: unknown, max = MAX_PAYLOAD_DEPTH): boolean => {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth >= max) return true;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth: next.depth + 1 });
  }
  return false;
};

const checkDepth = (value: unknown, field: string): void => {
  if (nestedDeeperThan(value))
    throw invalid(`The ${field} is nested deeper than ${MAX_PAYLOAD_DEPTH} levels; nothing was sent.`, [
      { field: `(${field})`, message: `nested deeper than ${MAX_PAYLOAD_DEPTH} levels` },
    ]);
};

/**
 * What the request rules need to know of a route: the operation table's entries are one (their `kind` decides the
 * dry run), the manifest's routes another (functions/base/definition/types.ts: `dryRun` says it).
 */
export interface RequestSpec {
  /** How a refusal names it: `PlaceGTTOrder`, `POST /kill-switch`. */
  name: string;
  /** Its own query parameters, each an input field. */
  query?: readonly string[];
  /** Path parameter -> input field. */
  pathParams?: Readonly<Record<string, string>>;
  kind?: string;
  /** A partial modify (PATCH): the one kind of entry that reads `If-Match`. */
  patch?: unknown;
  /** Dry run honoured; absent: an `order` entry honours it, any other refuses it by name. */
  dryRun?: boolean;
  /** Unknown query parameters ignored (the OAuth callback only: the login page decides what it appends). */
  lenientQuery?: boolean;
}

/** Dry run (`?dryRun=true`, `dryRun: true`) is offered by the operations that change orders, and only by them. */
export const supportsDryRun = (spec: Pick<RequestSpec, 'kind' | 'dryRun'>): boolean =>
  spec.dryRun ?? spec.kind === 'order';

/**
 * `dryRun` asked of a route without one: refused by name, because the route would otherwise act for real on a
 * caller who asked to see only what would be done (or, on a read, answer as if a dry run had been honoured).
 */
export const dryRunRefused = (spec: Pick<RequestSpec, 'name' | 'kind'>): ValidationFailedError =>
  invalid(
    `dryRun is not offered by ${spec.name}: ${spec.kind === 'read' ? 'it changes nothing and answers for real' : 'it would act for real'}, so nothing was done.`,
    [{ field: 'dryRun', message: `${spec.name} has no dry run; nothing was done` }],
  );

/** `dry_run`, `DryRun`, `dry-run` all squash to `dryrun`: how a misspelt option is recognised for a hint. */
const squash = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Every query parameter must be one the operation takes: its own (`operation.query`) and `dryRun` where dry run is
 * supported. Anything else is refused by name, never ignored: a misspelt `?dryrun=true` must not act for real.
 */
const checkQueryNames = (operation: RequestSpec, query: Record<string, string>): void => {
  const allowed = [...(operation.query ?? []), ...(supportsDryRun(operation) ? ['dryRun'] : [])];
  const unknown = Object.keys(query).filter((name) => !allowed.includes(name));
  if (unknown.length === 0) return;
  if (unknown.length === 1 && unknown[0] === 'dryRun') throw dryRunRefused(operation);
  if (operation.lenientQuery) return;
  const named = unknown.slice(0, 10).map((name) => {
    const near = allowed.find((candidate) => squash(candidate) === squash(name));
    const hint = near
      ? `did you mean ${near}?`
      : squash(name) === 'dryrun'
        ? `${operation.name} has no dry run`
        : undefined;
    return { name: capText(name, 64), hint };
  });
  const more = unknown.length - named.length;
  const takes = allowed.length ? `takes only ${allowed.join(', ')}` : 'takes no query parameters';
  const list =
    named.map(({ name, hint }) => (hint ? `${name} (${hint})` : name)).join(', ') +
    (more > 0 ? `, … (${more} more)` : '');
  throw invalid(
    `Unknown query parameter${unknown.length > 1 ? 's' : ''} ${list}: ${operation.name} ${takes}; nothing was sent.`,
    named.map(({ name, hint }) => ({ field: name, message: `unknown query parameter${hint ? `: ${hint}` : ''}` })),
  );
};

/**
 * The headers the gateway reads are `Idempotency-Key` only. A look-alike (`X-Idempotency-Key`, `Idempotency_Key`)
 * or a dry-run header would otherwise be ignored, and the request would act without the protection the caller
 * asked for: both are refused.
 */
const checkHeaderNames = (headers: Record<string, string>): void => {
  for (const name of Object.keys(headers)) {
    const squashed = squash(name).replace(/^x/, '');
    if (squashed === 'idempotencykey' && name !== 'idempotency-key') {
      throw invalid(`Header ${capText(name, 64)} is not read: did you mean Idempotency-Key? Nothing was sent.`, [
        { field: capText(name, 64), message: 'unknown header: did you mean Idempotency-Key?' },
      ]);
    }
    if (squashed === 'dryrun') {
      throw invalid(
        `Header ${capText(name, 64)} is not read: a dry run is the query parameter ?dryRun=true. Nothing was sent.`,
        [{ field: capText(name, 64), message: 'unknown header: use the query parameter ?dryRun=true' }],
      );
    }
  }
};

/**
 * Puts a path or query parameter's value into the payload under `field`. The body may carry the same field only
 * with the same value (a string, or a number that is exactly it); anything else is a contradiction and refused.
 */
const fillField = (
  payload: Record<string, unknown>,
  field: string,
  value: string,
  where: string,
): Record<string, unknown> => {
  if (Object.hasOwn(payload, field)) {
    const inBody = payload[field];
    const same =
      typeof inBody === 'string'
        ? inBody === value
        : typeof inBody === 'number' && Number.isSafeInteger(inBody) && String(inBody) === value;
    if (!same) {
      throw invalid(
        `${field} in the body (${preview(inBody)}) differs from the ${where} (${preview(value)}); nothing was sent.`,
        [{ field, message: `must match the ${where}` }],
      );
    }
  }
  return { ...payload, [field]: value };
};

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

/**
 * A base64 body (API Gateway's form for a body it cannot pass as text) must be valid UTF-8: a lenient decode would
 * put U+FFFD where the bytes were and send a symbol the caller never wrote.
 */
const decodeUtf8 = (bytes: Buffer): string => {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw invalid('The request body is not valid UTF-8; nothing was sent.', [
      { field: '(body)', message: 'not valid UTF-8' },
    ]);
  }
};

const fromHttp = (operation: RequestSpec, event: APIGatewayProxyEventV2): GatewayRequest => {
  let payload: Record<string, unknown> = {};
  if (event.body !== undefined && event.body !== null && event.body !== '') {
    const text = event.isBase64Encoded ? decodeUtf8(Buffer.from(event.body, 'base64')) : event.body;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw invalid('The request body is not valid JSON.');
    }
    if (!isRecord(json)) throw invalid('The request body must be a JSON object.');
    checkDepth(json, 'body');
    payload = json;
  }
  for (const [param, field] of Object.entries(operation.pathParams ?? {})) {
    const value = event.pathParameters?.[param];
    if (value === undefined) continue;
    payload = fillField(payload, field, value, `path parameter ${param}`);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) {
    if (value !== undefined) query[name] = value;
  }
  checkQueryNames(operation, query);
  checkHeaderNames(headers);
  const ifMatch = headers['if-match'];
  if (ifMatch !== undefined && !operation.patch) {
    // Ignoring it would replace the order without the check the caller asked for.
    throw invalid(
      `If-Match is honoured only by the PATCH routes (PATCH /gtt-orders/{alId}, PATCH /gtt-orders/oco/{alId}), not by ${operation.name}; nothing was sent.`,
      [{ field: 'If-Match', message: 'not honoured here: use PATCH' }],
    );
  }
  if (ifMatch !== undefined && (ifMatch.trim() === '' || ifMatch.length > 200)) {
    throw invalid('If-Match must be the ETag of GET /gtt-orders/{alId} (or *); nothing was sent.', [
      { field: 'If-Match', message: 'not an ETag' },
    ]);
  }
  const options: RequestOptions = {
    idempotencyKey: readIdempotencyKey(headers['idempotency-key'], 'Idempotency-Key'),
    dryRun: readDryRun(query.dryRun, 'dryRun'),
    ...(ifMatch === undefined ? {} : { ifMatch }),
  };
  // The operation's own query parameters (e.g. list filters) are input fields like any other.
  for (const name of operation.query ?? []) {
    if (query[name] !== undefined) payload = fillField(payload, name, query[name], `query parameter ${name}`);
  }
  return { source: 'http', options, payload, headers, query };
};

export const readDirectRequest = (event: unknown): GatewayRequest => {
  if (event !== undefined && event !== null && !isRecord(event)) {
    throw invalid('A direct invocation payload must be a JSON object.');
  }
  checkDepth(event, 'payload');
  if (event && isEventBridgeEvent(event)) checkEnvelope(event);
  const raw = event && isEventBridgeEvent(event) ? event.detail : event;
  if (raw !== undefined && raw !== null && !isRecord(raw))
    throw invalid('The EventBridge event detail must be a JSON object.');
  const { idempotencyKey, dryRun, ...payload } = raw ?? {};
  return {
    source: 'direct',
    options: {
      idempotencyKey: readIdempotencyKey(idempotencyKey, 'idempotencyKey'),
      dryRun: readDryRun(dryRun, 'dryRun'),
    },
    payload,
    headers: {},
    query: {},
  };
};

export const readGatewayRequest = (operation: RequestSpec, event: unknown): GatewayRequest =>
  isHttpApiEvent(event) ? fromHttp(operation, event) : readDirectRequest(event);

export const sourceOf = (event: unknown): RequestSource => (isHttpApiEvent(event) ? 'http' : 'direct');
