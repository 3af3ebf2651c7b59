/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the operation table with zod 4's JSON Schema output,
 * so the docs cannot drift from the schemas the handlers enforce.
 */
import * as z from 'zod';

import { ERROR_CATALOG } from './contract/errors.js';
import { CONTROL_FUNCTIONS } from './control-functions.js';
import { OPERATIONS } from './operations.js';
import { API_VERSION } from './schemas/names.js';
import { SESSION_FUNCTIONS } from './session-functions.js';

type JsonObject = Record<string, unknown>;

const schemaOf = (schema: z.ZodType, io: 'input' | 'output'): JsonObject => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  });
  return rest;
};

const errorSchema: JsonObject = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_CATALOG) },
        message: { type: 'string' },
        details: {},
        brokerMessage: { type: 'string', description: "The broker's own failure text (emsg), when it gave one." },
        outcome: {
          type: 'string',
          enum: ['unknown', 'not_executed'],
          description:
            'Operations that change orders or the session (place, modify, cancel, logout): `unknown` means the broker may have acted; check (the pending orders, or the session) before retrying.',
        },
      },
    },
  },
};

export const buildOpenApiDocument = (serverUrl?: string): JsonObject => {
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const op of OPERATIONS) {
    const pathParams = Object.keys(op.pathParams ?? {});
    const input = schemaOf(op.input, 'input');
    const inputProps = (input.properties ?? {}) as JsonObject;
    const notInBody = [...Object.values(op.pathParams ?? {}), ...(op.query ?? [])];
    const bodyProps = Object.fromEntries(Object.entries(inputProps).filter(([name]) => !notInBody.includes(name)));
    const hasBody = Object.keys(bodyProps).length > 0;
    const bodySchema = {
      ...input,
      properties: bodyProps,
      required: ((input.required as string[] | undefined) ?? []).filter((name) => name in bodyProps),
    };
    const errorCodes = Object.entries(ERROR_CATALOG);
    const result = schemaOf(op.result, 'output');
    if (op.idempotency) {
      // Present when the request carried an Idempotency-Key.
      result.properties = {
        ...(result.properties as JsonObject),
        idempotency: {
          type: 'object',
          properties: {
            key: { type: 'string' },
            replayed: {
              type: 'boolean',
              description: 'true: the stored reply of an earlier request with this key; no broker call',
            },
          },
        },
      };
    }
    const responses: JsonObject = {
      [String(op.successStatus)]: {
        description:
          op.kind === 'order' && op.successStatus === 200
            ? `${op.summary} (or, with ?dryRun=true, the request that would be sent)`
            : op.summary,
        content: { 'application/json': { schema: result } },
      },
      ...(op.kind === 'order' && op.successStatus !== 200
        ? {
            '200': {
              description: 'Dry run (`?dryRun=true`): the request that would be sent; nothing was sent',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
          }
        : {}),
    };
    for (const status of [...new Set(errorCodes.map(([, row]) => row.status))]) {
      responses[String(status)] = {
        description: errorCodes
          .filter(([, row]) => row.status === status)
          .map(([code, row]) => `${code}: ${row.summary}`)
          .join(' '),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    paths[op.route.path] ??= {};
    paths[op.route.path]![op.route.method.toLowerCase()] = {
      operationId: op.name,
      summary: op.summary,
      // What the client's retries need, in the document it is generated from.
      'x-gtt-kind': op.kind,
      'x-retry-safe': op.retrySafe,
      description: `Calls the broker's ${op.broker}. ${op.retrySafe ? 'Safe to retry.' : 'Not retried automatically: it changes state at the broker.'}`,
      parameters: [
        ...pathParams.map((name) => ({
          name,
          in: 'path',
          required: true,
          schema: { type: 'string', pattern: '^\\d{1,30}$' },
        })),
        ...(op.idempotency
          ? [
              {
                name: 'Idempotency-Key',
                in: 'header',
                required: op.idempotency === 'required',
                schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,128}$' },
                description: 'Unique per order, reused on every retry of it',
              },
            ]
          : []),
        ...(op.query ?? []).map((name) => ({
          name,
          in: 'query',
          required: false,
          schema: inputProps[name] ?? { type: 'string' },
        })),
        ...(op.kind === 'order' ? [{ name: 'dryRun', in: 'query', required: false, schema: { type: 'boolean' } }] : []),
      ],
      ...(hasBody
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: bodySchema,
                  example: Object.fromEntries(Object.entries(op.example).filter(([name]) => !notInBody.includes(name))),
                },
              },
            },
          }
        : {}),
      responses,
      security: [{ sigv4: [] }],
    };
  }
  // The session routes: functions of their own (functions/session-functions.ts), not broker operations of the table.
  const errorResponses = (): JsonObject => {
    const errorCodes = Object.entries(ERROR_CATALOG);
    return Object.fromEntries(
      [...new Set(errorCodes.map(([, row]) => row.status))].map((status) => [
        String(status),
        {
          description: errorCodes
            .filter(([, row]) => row.status === status)
            .map(([code, row]) => `${code}: ${row.summary}`)
            .join(' '),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      ]),
    );
  };
  for (const fn of SESSION_FUNCTIONS) {
    for (const route of fn.routes) {
      paths[route.path] ??= {};
      paths[route.path]![route.method.toLowerCase()] = {
        operationId: route.operationId,
        summary: route.summary,
        'x-gtt-kind': route.kind,
        'x-retry-safe': route.retrySafe,
        description: `The ${fn.name} function. ${route.auth === 'none' ? "No IAM auth: the broker's login page sends the trader's browser here." : 'Safe to retry.'}`,
        parameters: (route.query ?? []).map((name) => ({
          name,
          in: 'query',
          required: name === 'code',
          schema: { type: 'string' },
        })),
        responses: {
          '200': {
            description: route.summary,
            content: { 'application/json': { schema: schemaOf(route.result, 'output') } },
          },
          ...errorResponses(),
        },
        security: route.auth === 'none' ? [] : [{ sigv4: [] }],
      };
    }
  }
  // The trading controls' functions (the kill switch, the events history): functions of their own
  // (control-functions.ts), not one broker call.
  for (const fn of CONTROL_FUNCTIONS) {
    for (const route of fn.routes) {
      paths[route.path] ??= {};
      paths[route.path]![route.method.toLowerCase()] = {
        operationId: route.operationId,
        summary: route.summary,
        'x-gtt-kind': route.kind,
        'x-retry-safe': route.retrySafe,
        description: `The ${fn.name} function. ${route.method === 'GET' ? 'Safe to retry.' : 'Safe to repeat: turning it on again sweeps again; off again changes nothing.'}`,
        parameters: [
          ...(route.pathParams ?? []).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
          ...(route.idempotencyKey
            ? [
                {
                  name: 'Idempotency-Key',
                  in: 'header',
                  required: true,
                  schema: { type: 'string', minLength: 1, maxLength: 128 },
                },
              ]
            : []),
          ...Object.entries(route.query?.shape ?? {}).map(([name, schema]) => ({
            name,
            in: 'query',
            required: false,
            schema: schemaOf(schema as z.ZodType, 'input'),
          })),
        ],
        ...(route.body
          ? {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: schemaOf(route.body, 'input') } },
              },
            }
          : {}),
        responses: {
          [String(route.successStatus ?? 200)]: {
            description: route.summary,
            content: { 'application/json': { schema: schemaOf(route.result, 'output') } },
          },
          ...errorResponses(),
        },
        security: [{ sigv4: [] }],
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'gtt-gateway',
      version: API_VERSION,
      description: "HTTP API in front of a broker's jData GTT order service. One deployment serves one account.",
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    paths,
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: {
        sigv4: {
          type: 'apiKey',
          name: 'Authorization',
          in: 'header',
          description: 'AWS SigV4 (API Gateway IAM authorisation)',
        },
      },
    },
  };
};
