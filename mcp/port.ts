/**
 * The port the MCP tools act through: one call of an operation of the HTTP API by its operationId, with its path,
 * query and body, an optional Idempotency-Key and dry run. The stdio server gives it the typed client over HTTP
 * (`clientPort`); a server inside the gateway can give it the operation table's entries in-process.
 */
import type { GttClient } from '../client/client.js';
import type { CallInput, OperationId } from '../client/types.js';

/** One request to the gateway, as the tools build it and a confirmation stores it. */
export interface GatewayRequest {
  operation: OperationId;
  path?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  body?: Record<string, unknown>;
  /** A change's `If-Match`: the version (ETag) of the order its preview read; another version is not changed. */
  ifMatch?: string;
}

export interface CallFlags {
  /** The Idempotency-Key (operations that take one); the same key again replays the first answer. */
  idempotencyKey?: string;
  /** Validate and answer the exact request the gateway would send to the broker; nothing is sent. */
  dryRun?: boolean;
}

export interface GatewayPort {
  call(request: GatewayRequest, flags?: CallFlags): Promise<unknown>;
}

/** The typed client as the port: its keys, dry run, safe retries and one error class. */
export const clientPort = (client: GttClient): GatewayPort => ({
  call: (request, flags = {}) => {
    // The request's parts are checked by the gateway against the operation's schema; the port only carries them.
    const input = {
      ...(request.path ? { path: request.path } : {}),
      ...(request.query ? { query: request.query } : {}),
      ...(request.body ? { body: request.body } : {}),
      ...(request.ifMatch === undefined ? {} : { ifMatch: request.ifMatch }),
    } as CallInput<OperationId>;
    return client.call(request.operation, input, {
      ...(flags.idempotencyKey ? { idempotencyKey: flags.idempotencyKey } : { idempotencyKey: false }),
      ...(flags.dryRun ? { dryRun: true } : {}),
    });
  },
});
