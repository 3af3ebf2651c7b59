/**
 * `confirm`: sends the request a preview stored, once, with the confirmationId as its Idempotency-Key. A repeated
 * confirm sends the same request with the same key and the gateway replays its first answer (never a second order);
 * an unknown or expired id, or a request that changed since its preview, is refused with the reason.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

import { OPERATION_INFO, type OperationInfo } from '../client/generated/operations.js';
import { type Confirmation, refusal } from './confirmations.js';
import type { GatewayRequest } from './port.js';
import { PLACING_OPERATIONS } from './preview.js';
import { DATA_NOTE, failed, failureReason, ok, outputSchema, refused } from './results.js';
import type { AssistantAction, ServerContext } from './server.js';

/** The order or plan an act concerns: from the answer (a place) or the request's path (a change, a cancel). */
const idsOf = (
  result: Record<string, unknown> | undefined,
  request: GatewayRequest,
): { alId?: string; planId?: string } => {
  const alId = result?.al_id ?? request.path?.alId;
  const planId = result?.planId ?? request.path?.planId;
  return {
    ...(typeof alId === 'string' ? { alId } : {}),
    ...(typeof planId === 'string' ? { planId } : {}),
  };
};

export const registerConfirmTool = (server: McpServer, context: ServerContext): void => {
  const { port, confirmations, now, assistant, quota } = context;
  server.registerTool(
    'confirm',
    {
      title: 'Confirm a previewed change',
      description:
        "Sends the change a write tool previewed, exactly as previewed, once. Call it only after the person agreed to the preview's summary. Confirming the same id again answers the same result (replayed), never a second order." +
        DATA_NOTE,
      inputSchema: {
        confirmationId: z.string().describe('the confirmationId of the preview'),
        requestHash: z
          .string()
          .optional()
          .describe("the preview's requestHash: when given, the change is refused unless it is still that request"),
      },
      outputSchema: outputSchema({
        confirmed: z.boolean(),
        summary: z.string(),
        operation: z.string(),
        replayed: z
          .boolean()
          .describe("true: the gateway answered the first confirm's result again; nothing new was sent"),
        result: z.looseObject({}).describe("the gateway's answer"),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    async ({ confirmationId, requestHash }: { confirmationId: string; requestHash?: string }) => {
      const act = async (result: CallToolResult, action: Omit<AssistantAction, 'tool' | 'confirmationId'>) => {
        await context.onAction({ tool: 'confirm', confirmationId, ...action });
        return result;
      };
      const refuse = (reason: string, confirmation?: Confirmation) =>
        act(refused(reason, { confirmationId }), {
          outcome: 'refused',
          reason,
          ...(confirmation ? { operation: confirmation.request.operation, summary: confirmation.summary } : {}),
        });
      const taken = await confirmations.take(confirmationId, now());
      const reason = refusal(taken, requestHash);
      if (reason || taken.state === 'unknown' || taken.state === 'expired') return refuse(reason ?? 'not confirmable');
      const { confirmation } = taken;
      if (assistant !== undefined && confirmation.assistant !== assistant)
        return refuse(
          'This confirmationId was issued to another assistant: nothing was sent; preview the change yourself.',
        );
      // The day's orders are counted at the first confirm of a placing request; a repeated confirm replays it.
      if (quota && taken.state === 'first' && PLACING_OPERATIONS.includes(confirmation.request.operation)) {
        const count = await quota.take();
        if (count === undefined) {
          // Spent: expired at once, so a repeated confirm cannot send it uncounted (it answers "expired").
          await confirmations.put({ ...confirmation, expiresAt: 0 });
          return refuse(
            `This assistant has placed its most orders for today (${context.limits?.maxOrdersPerDay ?? 'its limit'}): nothing was sent; more tomorrow (India time), or the trader raises its maxOrdersPerDay.`,
            confirmation,
          );
        }
      }
      const info: OperationInfo = OPERATION_INFO[confirmation.request.operation];
      const takesKey = info.idempotencyKey !== undefined;
      const sent = { operation: confirmation.request.operation, summary: confirmation.summary };
      try {
        const result = (await port.call(confirmation.request, takesKey ? { idempotencyKey: confirmation.id } : {})) as
          Record<string, unknown> | undefined;
        const replayed =
          (result?.idempotency as { replayed?: boolean } | undefined)?.replayed ?? taken.state === 'again';
        const ids = idsOf(result, confirmation.request);
        return act(ok({ confirmed: true, ...sent, replayed, result: result ?? {} }), {
          ...sent,
          outcome: replayed ? 'replayed' : 'done',
          ...ids,
        });
      } catch (error) {
        const answer = failed(error);
        return act(answer, { ...sent, outcome: 'failed', reason: failureReason(answer) ?? 'ERROR' });
      }
    },
  );
};
