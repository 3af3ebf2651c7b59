/** The shape of one entry of the operation table (see operations.ts). */
import type { z } from 'zod';
import type { BrokerSession } from '../schemas/session.js';

/** jData fields are all strings on the wire (docs/broker-wire.md): what an operation's `toJData` builds. */
export type JData = Record<string, string>;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * `order` operations change orders at the broker: a lost reply leaves their outcome unknown.
 * `session` operations change the session; `read` operations change nothing.
 */
export type OperationKind = 'order' | 'read' | 'session';

export interface OperationDefinition<In = unknown, Reply = unknown, Result = unknown> {
  /** The upstream operation: the path segment after `/ClientAPI/`. Also the Lambda's logical name. */
  name: string;
  /** kebab-case id used for file names, function names and OpenAPI operation ids. */
  id: string;
  summary: string;
  route: { method: HttpMethod; path: string };
  /** Path parameters of the route and the input field each fills (e.g. `alId` -> `al_id`). */
  pathParams?: Record<string, string>;
  successStatus: 200 | 201;
  kind: OperationKind;
  /** Safe to repeat automatically after a timeout or an unavailable broker (nothing changes twice). */
  retrySafe: boolean;
  /**
   * Idempotency keys: `required` (place, unless the deployment turns that off), `optional` (modify, cancel), or
   * absent (a key is refused: the operation either changes nothing or cannot be replayed meaningfully).
   */
  idempotency?: 'required' | 'optional';
  /** The deployment's order guardrails apply (place, modify). */
  guardrails?: boolean;
  /** What the caller sends (validated; nothing reaches the broker when it fails). */
  input: z.ZodType<In>;
  /** The jData fields, in the spec's order, from validated input and the deployment's session. */
  toJData(input: In, session: BrokerSession): JData;
  /** The broker's success reply. */
  reply: z.ZodType<Reply>;
  /** What the gateway returns for that reply, and its schema for the docs. */
  toResult(reply: Reply): Result;
  result: z.ZodType<Result>;
  /** A `Not_Ok` text that means "nothing here" rather than failure, and the result it stands for. */
  emptyReply?: { emsg: string; result: Result };
}

/** Identity with inference: keeps each entry's types checked while the table holds them side by side. */
export const defineOperation = <In, Reply, Result>(
  definition: OperationDefinition<In, Reply, Result>,
): OperationDefinition<In, Reply, Result> => definition;

/**
 * The table's element type. zod schema types are invariant in their output type, so entries with different
 * In/Reply/Result types only share a type through `any`; each entry is fully typed where it is defined, and the
 * generic pipeline only moves values from `input.parse` to `toJData` and from `reply.parse` to `toResult`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: heterogeneous table of typed entries
export type AnyOperation = OperationDefinition<any, any, any>;
