/**
 * The remote MCP function (definition.ts): `POST /mcp`, the MCP server of mcp/ over streamable HTTP, stateless
 * (a new server and transport per request, JSON replies, no sessions), for assistants that cannot sign requests.
 *
 * A method other than POST is 405 with `Allow: POST` (transport.ts); a request is checked for its Host and Origin and
 * its bearer assistant token (caller.ts), then its body for one JSON-RPC message (transport.ts), before any tool runs; the
 * token's scopes decide the tools listed, its limits hold at every preview and its orders per day at every first
 * confirm (the registry's day counter). The tools act through the HTTP API's signed routes with this function's own
 * role (`api:invoke`, exactly its tools' operations), so every rule, guardrail, the governor and the kill switch hold
 * as for any caller. Each tool call writes one audit line naming the assistant; never the token or the arguments.
 */
import { randomUUID } from 'node:crypto';

import type { Logger } from '@aws-lambda-powertools/logger';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import * as z from 'zod';

import { createGttClient } from '../../client/client.js';
import { clientPort } from '../../mcp/port.js';
import { type AssistantAction, createMcpServer, type Scope } from '../../mcp/server.js';
import { type AssistantIdentity, createAssistantRegistry } from '../assistants/registry.js';
import { clientTarget, LOCAL_SIGNING_REGION } from '../base/aws/endpoint.js';
import { createEventPublisher } from '../base/aws/publisher.js';
import { isHttpApiEvent } from '../base/contract/gateway-request.js';
import { validationFailed } from '../base/contract/validate-input.js';
import { createRoutedFunction, type RoutedReply } from '../base/middleware/routed-function.js';
import { parseConfig } from '../base/runtime/config.js';
import { envSchema } from '../base/runtime/env.js';
import { logger as defaultLogger, writeLog } from '../base/runtime/logger.js';
import type { EventDetail } from '../base/schemas/events.js';
import { memo } from '../base/schemas/values.js';
import { eventIds } from '../events/core/views.js';
import { identify, isLoopbackCall, originRefusal } from './caller.js';
import { DynamoConfirmationStore } from './confirmations.js';
import { MCP_ROUTES } from './routes.js';
import { methodRefusal, readMessage } from './transport.js';

export const mcpEnv = envSchema(
  ['dynamodbEndpoint', 'eventbridgeEndpoint', 'eventBusName', 'eventsTableName', 'mcpOpenOnLoopback'],
  {
    overrides: {
      eventsTableName: z.string().min(3, { error: 'must name the events table' }).max(255),
      eventBusName: z.string().min(1, { error: 'must name the event bus' }).max(256),
    },
  },
);

export interface McpFunctionOptions {
  env?: Record<string, string | undefined>;
  logger?: Logger;
}

/**
 * The API this function calls: over loopback (npm start) the address it was called at; deployed, the API's own
 * execute-api URL (its id from the request, the region from the function's ARN), whatever custom domain fronts it.
 */
export const apiUrlOf = (event: APIGatewayProxyEventV2, context: Context): string => {
  if (isLoopbackCall(event)) return `http://${event.requestContext.domainName}`;
  const region = context.invokedFunctionArn?.split(':')[3];
  return `https://${event.requestContext.apiId}.execute-api.${region}.amazonaws.com`;
};

/** The tool a `tools/call` names, for the audit line (the method alone for the others). */
const callOf = (body: unknown): { method: string; tool?: string } => {
  const message = (body ?? {}) as { method?: unknown; params?: { name?: unknown } };
  const method = typeof message.method === 'string' ? message.method.slice(0, 64) : '(reply)';
  const tool = typeof message.params?.name === 'string' ? message.params.name.slice(0, 64) : undefined;
  return { method, ...(tool ? { tool } : {}) };
};

export const createMcpFunction = (options: McpFunctionOptions = {}) => {
  const logger = options.logger ?? defaultLogger;
  const config = memo(() => parseConfig(mcpEnv, options.env, 'McpServer'));
  const publisher = memo(() =>
    createEventPublisher({ busName: config().eventBusName, endpoint: config().eventbridgeEndpoint }),
  );
  /** Each act as an `Assistant Action` event naming the assistant; a failed publish is logged, never the tool's. */
  const publish = (who: AssistantIdentity, requestId: string) => async (action: AssistantAction) => {
    const detail: EventDetail<'Assistant Action'> = {
      eventId: eventIds.assistantAction(who.assistantId, requestId, action.tool),
      observedAt: new Date().toISOString(),
      origin: 'gateway',
      assistantId: who.assistantId,
      assistantName: who.name,
      ...action,
    };
    logger.info('assistant action', { assistant: { id: who.assistantId, name: who.name }, ...action });
    const { failed } = await publisher().publish([{ detailType: 'Assistant Action', detail }]);
    if (failed.length) writeLog(logger, 'warn', 'assistant action not published', { reason: failed[0]!.reason });
  };
  const registry = memo(() =>
    createAssistantRegistry({ tableName: config().eventsTableName, endpoint: config().dynamodbEndpoint }),
  );

  const serve = async (
    event: APIGatewayProxyEventV2,
    context: Context,
    body: Record<string, unknown>,
    who: AssistantIdentity,
  ): Promise<RoutedReply> => {
    // Within the function's 25 s: an order route's answer (its broker call and one retry) fits in 20.
    // Signed with the function's own credentials: deployed the role's (from the environment); on this machine the
    // local ones its endpoints carry (base/aws/endpoint.ts), which the local API holds to the role's api:invoke.
    const local = clientTarget(config().dynamodbEndpoint).credentials;
    const client = createGttClient({
      baseUrl: apiUrlOf(event, context),
      deadlineMs: 20_000,
      ...(local ? { sign: true, region: LOCAL_SIGNING_REGION, credentials: local } : {}),
    });
    const server = createMcpServer(clientPort(client), {
      scopes: who.scopes as Scope[],
      limits: who.limits,
      assistant: who.assistantId,
      confirmations: new DynamoConfirmationStore({
        tableName: config().eventsTableName,
        owner: who.assistantId,
        endpoint: config().dynamodbEndpoint,
      }),
      quota: {
        ordersToday: () => registry().ordersToday(who.assistantId),
        take: () => registry().countOrder(who),
      },
      onAction: publish(who, context.awsRequestId ?? randomUUID()),
    });
    // Stateless: no session ids, and one JSON reply per request (no event stream to keep open on Lambda).
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(event.headers ?? {}))
        if (value !== undefined) headers.set(name, value);
      const request = new Request(`http://mcp.invalid${event.rawPath}`, {
        method: event.requestContext.http.method,
        headers,
        body: JSON.stringify(body),
      });
      const response = await transport.handleRequest(request, { parsedBody: body });
      const raw = await response.text();
      return { status: response.status, headers: Object.fromEntries(response.headers), body: raw, raw };
    } finally {
      await server.close();
    }
  };

  return createRoutedFunction(
    MCP_ROUTES,
    async (request, context, event) => {
      if (!isHttpApiEvent(event))
        throw validationFailed(
          [{ field: '(invocation)', message: 'the MCP server answers POST /mcp over HTTP only' }],
          'The MCP server takes HTTP requests only (POST /mcp with an assistant token); nothing was done.',
        );
      const refusal = originRefusal(event);
      if (refusal) return refusal;
      const who = await identify(event, registry(), config().mcpOpenOnLoopback);
      if (!('assistantId' in who)) {
        writeLog(logger, 'warn', 'mcp call refused', { status: who.status });
        return who;
      }
      const read = readMessage(request.body as string | undefined);
      if ('refusal' in read) {
        logger.info('mcp call', { assistant: { id: who.assistantId, name: who.name }, outcome: read.refusal.status });
        return read.refusal;
      }
      const reply = await serve(event, context, read.message, who);
      const outcome = /"isError":true/.test(reply.raw ?? '') ? 'tool error' : reply.status;
      logger.info('mcp call', {
        assistant: { id: who.assistantId, name: who.name },
        ...callOf(read.message),
        outcome,
      });
      return reply;
    },
    { logger, answerFirst: methodRefusal },
  );
};
