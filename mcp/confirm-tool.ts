/**
 * `confirm`: sends the request a preview stored, once, with the confirmationId as its Idempotency-Key. A repeated
 * confirm sends the same request with the same key and the gateway replays its first answer (never a second order);
 * an unknown or expired id, or a request that changed since its preview, is refused with the reason.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';

import { OPERATION_INFO, type OperationInfo } from '../client/generated/operations.js';
import { refusal } from './confirmations.js';
import { PLACING_OPERATIONS } from './preview.js';
import { DATA_NOTE, failed, ok, outputSchema, refused } from './results.js';
import type { ServerContext } from './server.js';

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
      const taken = await confirmations.take(confirmationId, now());
      const reason = refusal(taken, requestHash);
      if (reason || taken.state === 'unknown' || taken.state === 'expired')
        return refused(reason ?? 'not confirmable', { confirmationId });
      const { confirmation } = taken;
      if (assistant !== undefined && confirmation.assistant !== assistant)
        return refused(
          'This confirmationId was issued to another assistant: nothing was sent; preview the change yourself.',
          {
            confirmationId,
          },
        );
      // The day's orders are counted at the first confirm of a placing request; a repeated confirm replays it.
      if (quota && taken.state === 'first' && PLACING_OPERATIONS.includes(confirmation.request.operation)) {
        const count = await quota.take();
        if (count === undefined) {
          // Spent: expired at once, so a repeated confirm cannot send it uncounted (it answers "expired").
          await confirmations.put({ ...confirmation, expiresAt: 0 });
          return refused(
            `This assistant has placed its most orders for today (${context.limits?.maxOrdersPerDay ?? 'its limit'}): nothing was sent; more tomorrow (India time), or the trader raises its maxOrdersPerDay.`,
            { confirmationId },
          );
        }
      }
      const info: OperationInfo = OPERATION_INFO[confirmation.request.operation];
      const takesKey = info.idempotencyKey !== undefined;
      try {
        const result = (await port.call(confirmation.request, takesKey ? { idempotencyKey: confirmation.id } : {})) as
          Record<string, unknown> | undefined;
        const replayed =
          (result?.idempotency as { replayed?: boolean } | undefined)?.replayed ?? taken.state === 'again';
        return ok({
          confirmed: true,
          summary: confirmation.summary,
          operation: confirmation.request.operation,
          replayed,
          result: result ?? {},
        });
      } catch (error) {
        return failed(error);
      }
    },
  );
};
