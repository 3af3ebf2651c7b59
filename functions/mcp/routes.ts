/** The route of the remote MCP function (docs/reference/assistants.md, "The remote server"): what its code reads. */
import * as z from 'zod';

import { ownRoute as route } from '../base/definition/routes.js';
import type { FunctionSurface } from '../base/definition/types.js';

/** `/mcp`'s throttle at the stage: an assistant's conversation makes a few calls a second at most. */
export const MCP_ROUTE_THROTTLE = { rateLimit: 5, burstLimit: 10 } as const;

/** A JSON-RPC 2.0 message of the Model Context Protocol (one per request: the protocol has no batches since 2025-06-18). */
const jsonRpcMessage = z.looseObject({
  jsonrpc: z.literal('2.0'),
  method: z.string().optional(),
  id: z.union([z.string(), z.number()]).optional(),
});

export const MCP_ROUTES: FunctionSurface = {
  name: 'McpServer',
  routes: [
    route({
      method: 'POST',
      path: '/mcp',
      operationId: 'McpMessage',
      summary:
        "The MCP server for assistants (streamable HTTP, stateless, JSON replies; protocol 2025-11-25): one JSON-RPC message per request, with `Authorization: Bearer gtta_…` (an assistant's token from POST /assistants). The token's scopes decide the tools listed; every write answers a preview first and acts only on `confirm`. 401 without a valid token.",
      result: jsonRpcMessage,
      auth: 'bearer',
      body: true,
      kind: 'order',
      retrySafe: false,
      example: { body: { jsonrpc: '2.0', id: 1, method: 'ping' } },
      throttle: MCP_ROUTE_THROTTLE,
      // GET (an event stream) and the other methods are the function's to answer: 405 with `Allow: POST`.
      anyMethod: true,
      // Read after the caller is known: JSON-RPC's -32700 and -32600, not the gateway's error shape.
      rawBody: true,
    }),
  ],
};
