/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the function manifest (every route of every function)
 * with zod 4's JSON Schema output, so the docs cannot drift from the schemas the handlers enforce.
 */
import * as z from 'zod';

import { ERROR_CATALOG } from '../base/contract/errors.js';
import type { AnyOperation } from '../base/contract/operation.js';
import type { FunctionEntry, Route } from '../base/definition/types.js';
import { convertedField } from '../base/schemas/conversion.js';
import { dryRunResultSchema } from '../base/schemas/dry-run.js';
import { API_VERSION } from '../base/schemas/names.js';
import { FUNCTIONS, routesOf } from './index.js';

type JsonObject = Record<string, unknown>;

const DRY_RUN_REF = { $ref: '#/components/schemas/DryRun' };

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
          enum: ['unknown', 'not_executed', 'undone', 'executed'],
          description:
            'Operations that change orders or the session (place, modify, cancel, logout): `unknown` means the broker may have acted; check (the pending orders, or the session) before retrying. `undone`: the broker acted and the gateway undid it at once (an order that landed while the kill switch was on, or an OCO held otherwise than asked, cancelled); nothing of it is live. `executed`: the broker acted and its order is still live although the request failed (an OCO held otherwise than asked whose cancel failed): cancel it by hand (`details.al_id`).',
        },
      },
    },
  },
};

/** An entry of the operation table: its input split into path, query and body. */
const operationPath = (op: AnyOperation): JsonObject => {
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
          adopted: {
            type: 'boolean',
            description:
              "true: an earlier request's outcome with this key was unknown (lost reply, timeout, a crash) and the broker's books show its order (found by its stamp): that order is the answer, nothing was sent again",
          },
        },
      },
    };
  }
  if (op.priceOrders) {
    // Present when a market order was sent as a protected limit order (docs/explanation/compliance.md#market-orders).
    result.properties = { ...(result.properties as JsonObject), converted: schemaOf(convertedField, 'output') };
  }
  if (op.readBack) {
    // The order read back once placed (docs/explanation/order-safety.md#an-oco-read-back).
    result.properties = {
      ...(result.properties as JsonObject),
      verified: {
        type: 'boolean',
        description:
          "true: the order was read back from the broker's pending list and every leg is held as asked; false: it could not be compared (`unverified` says why); held otherwise, it is cancelled and the answer is OCO_LEGS_MISMATCH",
      },
      unverified: { type: 'string', description: 'Why the legs were not compared (with verified: false)' },
    };
  }
  const responses: JsonObject = {
    [String(op.successStatus)]: {
      description:
        op.kind === 'order' && op.successStatus === 200
          ? `${op.summary} (or, with ?dryRun=true, the request that would be sent: #/components/schemas/DryRun)`
          : op.summary,
      content: { 'application/json': { schema: result } },
      ...(op.etag
        ? {
            headers: {
              ETag: {
                description: "The order's version: send it as If-Match with a PATCH",
                schema: { type: 'string' },
              },
            },
          }
        : {}),
    },
    ...(op.kind === 'order' && op.successStatus !== 200
      ? {
          '200': {
            description: 'Dry run (`?dryRun=true`): the request that would be sent; nothing was sent',
            content: { 'application/json': { schema: DRY_RUN_REF } },
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
  return {
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
      ...(op.patch
        ? [
            {
              name: 'If-Match',
              in: 'header',
              required: false,
              schema: { type: 'string' },
              description:
                'The ETag of GET /gtt-orders/{alId}: 412 ORDER_CHANGED (nothing sent) when the order is no longer at that version',
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
};

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

const repeatText = (route: Route): string =>
  route.auth === 'none'
    ? "No IAM auth: the broker's login page sends the trader's browser here."
    : route.auth === 'token'
      ? "No IAM auth: the token in the path is the secret (a strategy's webhookUrl); the same alert twice is acted on once."
      : route.auth === 'bearer'
        ? "No IAM auth: an assistant's bearer token (POST /assistants) is the secret; a write acts only on a confirm of its preview."
        : !route.retrySafe
          ? 'Not retried automatically: it changes state.'
          : route.kind === 'read'
            ? 'Safe to retry.'
            : 'Safe to repeat: a repeat does nothing twice.';

/** A route of a function of its own (plans, the kill switch, the events history, the session functions). */
const ownRoutePath = (fn: FunctionEntry, route: Route): JsonObject => ({
  operationId: route.operationId,
  summary: route.summary,
  'x-gtt-kind': route.kind,
  'x-retry-safe': route.retrySafe,
  description: `The ${fn.name} function. ${repeatText(route)}`,
  parameters: [
    ...Object.keys(route.pathParams).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...(route.idempotencyKey
      ? [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: route.idempotencyKey === 'required',
            schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,128}$' },
            description: 'Unique per request, reused on every retry of it',
          },
        ]
      : []),
    ...route.query.map((name) => {
      const schema = route.querySchema?.shape[name] as z.ZodType | undefined;
      return {
        name,
        in: 'query',
        required: route.requiredQuery?.includes(name) ?? false,
        schema: schema ? schemaOf(schema, 'input') : { type: 'string' },
      };
    }),
    // A route that offers a dry run (the close of a position): what it would send, nothing sent.
    ...(route.dryRun ? [{ name: 'dryRun', in: 'query', required: false, schema: { type: 'boolean' } }] : []),
  ],
  ...(route.bodySchema
    ? {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: schemaOf(route.bodySchema, 'input'), example: route.example.body } },
        },
      }
    : route.auth === 'bearer'
      ? {
          // One JSON-RPC message of the Model Context Protocol (docs/reference/assistants.md).
          requestBody: { required: true, content: { 'application/json': { schema: {}, example: route.example.body } } },
        }
      : route.auth === 'token'
        ? {
            // The alert as its source sends it (docs/reference/signals.md): JSON, or JSON in text/plain (TradingView).
            requestBody: {
              required: true,
              content: {
                'application/json': { schema: {}, example: route.example.body },
                'text/plain': { schema: { type: 'string' } },
              },
            },
          }
        : {}),
  responses: {
    [String(route.successStatus)]: {
      description: route.summary,
      content: { 'application/json': { schema: schemaOf(route.result, 'output') } },
    },
    ...errorResponses(),
  },
  security: route.auth === 'iam' ? [{ sigv4: [] }] : route.auth === 'bearer' ? [{ assistantToken: [] }] : [],
});

/** The document of `functions`' routes (default: the manifest's). */
export const buildOpenApiDocument = (
  serverUrl?: string,
  functions: readonly FunctionEntry[] = FUNCTIONS,
): JsonObject => {
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const { fn, route } of routesOf(functions)) {
    paths[route.path] ??= {};
    // A route served beside the operation in its function (the quote function's GET /options) is described as its own.
    paths[route.path]![route.method.toLowerCase()] =
      fn.operation && route.operationId === fn.operation.name ? operationPath(fn.operation) : ownRoutePath(fn, route);
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
      schemas: { Error: errorSchema, DryRun: schemaOf(dryRunResultSchema, 'output') },
      securitySchemes: {
        sigv4: {
          type: 'apiKey',
          name: 'Authorization',
          in: 'header',
          description: 'AWS SigV4 (API Gateway IAM authorisation)',
        },
        assistantToken: {
          type: 'http',
          scheme: 'bearer',
          description: "An assistant's token (gtta_…, from POST /assistants): the remote MCP server only",
        },
      },
    },
  };
};
