/**
 * The shape of a function's definition (`FunctionDefinition`), the one place a Lambda of the function set is written:
 * its routes or trigger (with its schedule), its environment, grants, notes, alarms, bundle and its factory. The
 * manifest (functions/manifest/index.ts) lists the definitions; the OpenAPI document, the CDK stack, the local
 * runner, the handler entry files, the bench's cold probes and the contract tests are derived from them.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import type * as z from 'zod';

import type { AnyOperation, HttpMethod } from '../contract/operation.js';
import type { EnvKey } from '../runtime/env.js';

/**
 * What a route does, as the client's retries and the docs read it. `order`: changes orders at the broker (a lost
 * reply leaves the outcome unknown); `session`: makes or ends the session; `control`: changes only the gateway's own
 * controls; `read`: changes nothing.
 */
export type RouteKind = 'order' | 'session' | 'control' | 'read';

/** A valid request of a route: what the OpenAPI example, the contract tests and the cold probes send. */
export interface RouteExample {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

export interface Route {
  /** Its name in the OpenAPI document, the client and the CLI's `call`. */
  operationId: string;
  method: HttpMethod;
  path: string;
  summary: string;
  kind: RouteKind;
  /** Safe to repeat automatically after a timeout (the client's retries read this from the OpenAPI document). */
  retrySafe: boolean;
  /**
   * `iam`: SigV4 like every gateway route. `none`: the broker's login page sends a browser here. `token`: unsigned,
   * the secret is in the path (the signal webhook: TradingView and ChartInk cannot sign); the function checks it.
   * `bearer`: unsigned, an `Authorization: Bearer` token is the secret (the remote MCP server: assistants that
   * cannot sign); the function checks it.
   */
  auth: 'iam' | 'none' | 'token' | 'bearer';
  /** The query parameters it reads; any other is refused by name (request rules), except where `lenientQuery`. */
  query: readonly string[];
  /** Those of `query` that must be present (the OAuth callback's `code`). */
  requiredQuery?: readonly string[];
  /** Its path parameters (`{alId}`) and the input field each fills. */
  pathParams: Readonly<Record<string, string>>;
  /** Whether it takes a JSON body (the fields of its input that are neither path nor query). */
  body: boolean;
  /** The schemas of its query parameters and body, for the OpenAPI document (an operation's come from its input). */
  querySchema?: z.ZodObject;
  bodySchema?: z.ZodType;
  /** The schema of what it answers with `successStatus`. */
  result: z.ZodType;
  successStatus: 200 | 201 | 202;
  /** An Idempotency-Key it requires or accepts (the same key with another body is 422). Absent: a key is refused. */
  idempotencyKey?: 'required' | 'optional';
  /** `?dryRun=true` honoured (what would be done, nothing done); otherwise refused by name, never ignored. */
  dryRun: boolean;
  /** In a function of several routes, the `action` of a direct invocation that selects this route. */
  action?: string;
  /** The field of a direct invocation that carries the body (default `body`): `plan` in `{action: "create", plan}`. */
  directBody?: string;
  example: RouteExample;
  /** Its own throttle on the stage (per second, burst), tighter than the stage's default. */
  throttle?: { rateLimit: number; burstLimit: number };
  /**
   * Unknown query parameters are ignored rather than refused: only the OAuth callback, where the broker's login
   * page decides what it appends to the redirect.
   */
  lenientQuery?: true;
  /**
   * The path's other methods reach the function too (API Gateway's `ANY` route beside this one), for it to answer
   * them itself: the MCP server's 405 with `Allow: POST` (the streamable HTTP transport's answer for `GET`).
   */
  anyMethod?: true;
  /**
   * The body is handed to the function as its text, unread by the request rules: the MCP server reads it after the
   * caller is known and answers JSON-RPC's own errors (`-32700`, `-32600`) for a body that is not one request.
   */
  rawBody?: true;
}

/** An EventBridge Scheduler schedule, India time. */
export interface Schedule {
  cron: string;
  description: string;
  /** The CDK context key that can change or remove it. */
  setting?: 'endOfDayLogout' | 'watcherSchedule';
  /** The payload of each scheduled invocation (the signal worker's `{"sweep": true}`); absent: none. */
  input?: Readonly<Record<string, unknown>>;
  /**
   * `none`: a missed run is the next run's, never sent late (the every-minute runs, the instrument refresh).
   * Absent: a few retries within ten minutes (infra/constructs/schedule.ts SCHEDULE_RETRY).
   */
  retry?: 'none';
}

/** How a function is started other than by its routes. */
export type Trigger =
  | ({ kind: 'schedule' } & Schedule)
  /** The idempotency table's stream (completed records: the transactional outbox). */
  | { kind: 'stream'; table: 'idempotency' }
  /** An EventBridge rule on the gateway's bus (the webhook's formatter). */
  | { kind: 'rule'; description: string }
  /**
   * The signal queue (SQS, batch size 1, partial batch failures): one signal per invocation; and `sweep`, a schedule
   * beside it that acts on the signals whose message never reached the queue.
   */
  | { kind: 'queue'; queue: 'signals'; sweep?: Schedule };

/**
 * What a function may do, each granted exactly (infra/constructs/grants.ts turns each into its IAM statements, in the
 * entry's order; the local runner into the endpoints it passes).
 */
export type Grant =
  | 'sessionSecret:read'
  | 'sessionSecret:write'
  | 'oauthAppSecret:read'
  | 'loginSecret:read'
  | 'oauthStateTable'
  /** The journal of broker writes, which are the idempotency records (Get, Put, Update, Delete), and their outbox items. */
  | 'idempotencyTable'
  /** Outbox items only (PutItem of `outbox#` items): the kill switch's cancels carry no key; the signal webhook's events. */
  | 'idempotencyTable:outbox'
  /** The kill switch's record of an order it swept that a journaled write placed (PutItem of `gone#` items). */
  | 'idempotencyTable:gone'
  /** The order-rate governor: a consistent read and a conditional put of the account's item. */
  | 'controlTable:governor'
  /** The governor and the kill switch's own UpdateItem. */
  | 'controlTable:switch'
  /** A logout's end of the session on the account's item (UpdateItem only): every container stops sending. */
  | 'controlTable:sessionEnd'
  /** The order path's read of the instruments' copy: GetItem, and UpdateItem of what it had to read from the broker. */
  | 'instrumentsTable:copy'
  /** The InstrumentRefresh: the masters' rows (BatchWriteItem) and the symbols in use (UpdateItem). */
  | 'instrumentsTable:refresh'
  /** GET /events: a Query of the account's history. */
  | 'eventsTable:history'
  /** The InstrumentRefresh: a Query of the plans (the symbols of the live ones). */
  | 'eventsTable:planList'
  /** GetGTTOrder: a consistent BatchGetItem of the watcher's lease and one order of its copy (orders/gateway/order-copy.ts). */
  | 'eventsTable:copy'
  /** GetGTTOrder: the order's lease item (orders/lease.ts), in the same BatchGetItem: when its last change ended. */
  | 'controlTable:leases'
  | 'eventsTable:plans'
  /** The day's limits (functions/risk/store.ts): the settings, the day's state and a PUT's key (GetItem, PutItem). */
  | 'eventsTable:risk'
  /** The coverage settings' item (risk/coverage-store.ts): read (GetItem) and written whole (PutItem). */
  | 'eventsTable:coverage'
  /** The watcher's read of the coverage settings (GetItem only). */
  | 'eventsTable:coverageRead'
  | 'eventsTable:watcher'
  | 'eventsTable:forwarder'
  /** Strategies and their token items (Get, Put, Update, Delete, Query). */
  | 'eventsTable:strategies'
  /** Assistants and their token items (Get, Put, Update, Delete, Query). */
  | 'eventsTable:assistants'
  /** The webhook: token look-ups and checks, the signal, its pending marker, rate counter and duplicate claim. */
  | 'eventsTable:signals'
  /** The signal worker: the signal read and completed, its strategy read, its pending marker removed. */
  | 'eventsTable:signalWorker'
  /** The worker's sweep: a Query of the pending signals' markers. */
  | 'eventsTable:signalSweep'
  /** SendMessage to the signal queue. */
  | 'signalQueue:send'
  /**
   * The remote MCP function: an assistant's token item (GetItem), its day's order counter (GetItem, UpdateItem) and
   * the previews awaiting their confirm (PutItem, UpdateItem).
   */
  | 'eventsTable:mcp'
  /** execute-api:Invoke on exactly the signed routes of the operations its definition's `invokes` names. */
  | 'api:invoke'
  | 'bus:publish';

/** Memory by what waits on the function (infra/constructs/gateway-function.ts MEMORY_MB: measured, docs/explanation/benchmarks.md). */
export type MemoryClass = 'order' | 'standard' | 'background';

/**
 * How the handler entry file `functions/handlers/<id>.ts` is written (generated: `npm run handlers`). An operation
 * function binds its operation to the gateway stack with the factories its entry needs (orders/definitions.ts); any
 * other calls its definition's `create` with the function set's logger, imported from `from` (the module that exports
 * it under its own name; test/unit/handler-files.test.ts checks that it is that very function).
 */
export type HandlerSource =
  | {
      kind: 'operation';
      operation: AnyOperation;
      exportName: string;
      /**
       * The stack the operation is bound to, where it is not the gateway's own `createGatewayStack` (the quote
       * function's, which answers `GET /options` beside it): its export and module, relative to functions/handlers/.
       */
      stack?: { name: string; from: string };
    }
  | {
      kind: 'factory';
      from: string;
      /** The entry file, relative to the repository, when it is not a generated one (a test's fixture function). */
      entryFile?: string;
    };

/** A direct invocation (Step Functions, EventBridge, the SDK, the scheduler): the payload a probe sends. */
export interface DirectEntry {
  /** A valid payload that changes nothing at the broker where the function can (a read, a status). */
  example: Record<string, unknown>;
  /** The payload fields it reads (every other refused), when the function takes fields; absent: no fields. */
  fields?: readonly string[];
}

/** What every function's factory takes: its environment (process.env in Lambda) and its logger. */
export interface FunctionDeps {
  env?: Record<string, string | undefined>;
  logger: Logger;
}

/**
 * A Lambda handler. Its event is the function's own (an HTTP API event, an SQS batch, a stream batch, a payload), so
 * the type of the factories' handlers is only checked here to the point of taking an event and a context.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each function types its own event
export type FunctionHandler = (event: any, context: Context) => Promise<unknown>;

/** One factory signature for every function: `create({ env, logger })`, as the handler file and the local stack call it. */
export type FunctionFactory = (deps: FunctionDeps) => FunctionHandler;

/** The construct a function is built in: the stack itself, `Session` (SessionFunctions) or `Events` (LifecycleEvents). */
export type FunctionHome = 'stack' | 'session' | 'events';

/**
 * What the stack says of the function beside its code: where it is built, its description (default
 * `gtt-gateway: <summary>`) and its role's. The texts are those the deployed stacks already have.
 */
export interface FunctionNotes {
  home: FunctionHome;
  description?: string;
  roleDescription: string;
}

/** Its alarms: Errors (`<name>Errors`, beside the function) and Lambda throttles (`<name>Throttles`); absent: none. */
export interface FunctionAlarms {
  errors?: { description: string; threshold: number };
  throttles?: true;
}

/** What a function's own code reads of its definition (base/middleware/routed-request.ts): its name, routes, direct payload. */
export type FunctionSurface = Pick<FunctionEntry, 'name' | 'routes' | 'direct'>;

export interface FunctionEntry {
  /** Logical name of the Lambda (construct id, metrics dimension, Step Functions task name). */
  name: string;
  /** kebab-case: the handler entry file and the function's name suffix. */
  id: string;
  summary: string;
  routes: readonly Route[];
  trigger?: Trigger;
  /** Absent: the function is never invoked directly (its routes only). */
  direct?: DirectEntry;
  /**
   * Its environment: the catalogue keys (functions/base/runtime/env.ts) the deployment sets for it, and whether it gets
   * the deployment's own settings (guardrails, rates, `BROKER_AUTH`...). Its own zod schema (the config parser of its
   * code) reads them by name; nothing else spells a variable's name.
   */
  env: { keys: readonly EnvKey[]; deploymentSettings: boolean };
  grants: readonly Grant[];
  bundle: { memory: MemoryClass; timeoutSeconds?: number; handler: HandlerSource };
  /** The operation table's entry the function carries out (the order and read functions). */
  operation?: AnyOperation;
  /** The operations of the HTTP API it calls, signed with its own role (`api:invoke`): the remote MCP function's tools. */
  invokes?: readonly string[];
  /** Only in some deployments: the deployment setting that decides it. */
  deployedWhen?: 'totpRenewal' | 'endOfDayLogout' | 'watcher' | 'notifyFormat';
}

/** A function of the set, whole: its entry, what the stack says of it, its alarms, and its factory. */
export interface FunctionDefinition extends FunctionEntry {
  notes: FunctionNotes;
  alarms: FunctionAlarms;
  /**
   * Its log group's audit records go to the five-year audit archive (infra/constructs/audit.ts): the functions that
   * write orders (in-process too) or the session's token.
   */
  audit?: true;
  create: FunctionFactory;
}
