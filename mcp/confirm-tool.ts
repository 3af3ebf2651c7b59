/**
 * `confirm`: sends the request a preview stored, once, with the confirmationId as its Idempotency-Key.
 *
 * - A confirm that is refused (an unknown or expired id, another assistant's, a request that changed since its
 *   preview, a `requestHash` that is not the preview's, an exit-only place the positions read now no longer allow)
 *   is refused before the id is taken: it spends nothing.
 * - Only the confirm that takes the id first may send. A placing request is counted against the assistant's orders
 *   per day before it is sent (the registry's conditional write: at the limit nothing is sent); its answer is kept.
 * - A later confirm of the id (`again`) sends nothing: it replays the first confirm's answer (`replayed: true`), or,
 *   while that confirm is still in flight (or its answer was lost), says so.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

import { OPERATION_INFO, type OperationInfo } from '../client/generated/operations.js';
import { type Confirmation, refusal, type Taken } from './confirmations.js';
import { EXIT_PLACES, exitOnlyCheck } from './exit-only.js';
import type { GatewayRequest } from './port.js';
import { PLACING_OPERATIONS } from './preview.js';
import { DATA_NOTE, failed, failureReason, ok, outputSchema, refused } from './results.js';
import { closed, open } from './schema-forms.js';
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
        'Sends what a write tool previewed, exactly, once; only after the person agreed to its summary. The same id again replays the first answer (replayed), never a second order.' +
        DATA_NOTE,
      inputSchema: closed(
        {
          confirmationId: z.string().describe('the confirmationId of the preview'),
          requestHash: z
            .string()
            .optional()
            .describe("the preview's requestHash: when given, the change is refused unless it is still that request"),
        },
        'confirm',
      ),
      outputSchema: outputSchema({
        confirmed: z.boolean(),
        summary: z.string(),
        operation: z.string(),
        replayed: z
          .boolean()
          .describe(
            "true: the first confirm's answer again (this confirm, or the gateway, replayed it); nothing new was sent",
          ),
        result: open({}, "the gateway's answer"),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    async ({ confirmationId, requestHash }: { confirmationId: string; requestHash?: string }) => {
      const act = async (result: CallToolResult, action: Omit<AssistantAction, 'tool' | 'confirmationId'>) => {
        await context.onAction({ tool: 'confirm', confirmationId, ...action });
        return result;
      };
      const refuse = (reason: string, confirmation?: Confirmation, answer = refused(reason, { confirmationId })) =>
        act(answer, {
          outcome: 'refused',
          reason,
          ...(confirmation ? { operation: confirmation.request.operation, summary: confirmation.summary } : {}),
        });
      /** A later confirm: the first one's answer again, nothing sent (or, while it has none, why not). */
      const replay = (taken: Extract<Taken, { state: 'again' }>) => {
        const { confirmation, answer } = taken;
        if (!answer)
          return refuse(
            'This confirmationId was already confirmed and that confirm has not answered yet (or its answer was lost): nothing was sent now. Read the pending GTTs, the order book or the events (their Idempotency-Key is this confirmationId) to see what became of it; do not preview it again before you know.',
            confirmation,
          );
        const content: Record<string, unknown> = { ...answer.structuredContent, replayed: true };
        const result: CallToolResult = {
          content: [{ type: 'text', text: JSON.stringify(content) }],
          structuredContent: content,
          ...(answer.isError ? { isError: true } : {}),
        };
        const reason = typeof content.reason === 'string' ? content.reason : failureReason(result);
        return act(result, {
          operation: confirmation.request.operation,
          summary: confirmation.summary,
          outcome: 'replayed',
          ...(reason ? { reason } : {}),
          ...idsOf(content.result as Record<string, unknown> | undefined, confirmation.request),
        });
      };
      // Every check before the id is taken: a refused confirm leaves the preview as it was.
      const found = await confirmations.peek(confirmationId, now());
      const reason = refusal(found, requestHash);
      if (reason || found.state === 'unknown' || found.state === 'expired') return refuse(reason ?? 'not confirmable');
      if (assistant !== undefined && found.confirmation.assistant !== assistant)
        return refuse(
          'This confirmationId was issued to another assistant: nothing was sent; preview the change yourself.',
        );
      // Exit-only: the place checked again on the positions, pending orders and plans read now (it may have shrunk).
      if (context.exitOnly && found.state === 'first' && EXIT_PLACES.includes(found.confirmation.request.operation)) {
        const exit = await exitOnlyCheck(port, found.confirmation.request);
        if (exit.refused) return refuse(`${exit.refused} (checked again at confirm)`, found.confirmation);
      }
      const taken = await confirmations.take(confirmationId, now());
      if (taken.state === 'unknown' || taken.state === 'expired') return refuse(refusal(taken) ?? 'not confirmable');
      if (taken.state === 'again') return replay(taken);
      const { confirmation } = taken;
      const sent = { operation: confirmation.request.operation, summary: confirmation.summary };
      /** The first confirm's answer, kept for the later ones (a failure to keep it loses only their replay). */
      const settle = async (answer: CallToolResult) => {
        await confirmations
          .settle(confirmationId, {
            structuredContent: answer.structuredContent ?? {},
            isError: answer.isError === true,
          })
          .catch(() => undefined);
        return answer;
      };
      // The day's orders: counted before a placing request is sent, by a conditional write (never past the limit).
      if (quota && PLACING_OPERATIONS.includes(confirmation.request.operation)) {
        const count = await quota.take().catch(() => null);
        if (count === undefined || count === null) {
          const why =
            count === undefined
              ? `This assistant has placed its most orders for today (${context.limits?.maxOrdersPerDay ?? 'its limit'}): nothing was sent; more tomorrow (India time), or the trader raises its maxOrdersPerDay.`
              : "This assistant's orders today could not be counted: nothing was sent; preview the change again.";
          return refuse(why, confirmation, await settle(refused(why, { confirmationId })));
        }
      }
      const info: OperationInfo = OPERATION_INFO[confirmation.request.operation];
      const takesKey = info.idempotencyKey !== undefined;
      try {
        const result = (await port.call(confirmation.request, takesKey ? { idempotencyKey: confirmation.id } : {})) as
          Record<string, unknown> | undefined;
        const replayed = (result?.idempotency as { replayed?: boolean } | undefined)?.replayed ?? false;
        const ids = idsOf(result, confirmation.request);
        const answer = await settle(ok({ confirmed: true, ...sent, replayed, result: result ?? {} }));
        return act(answer, { ...sent, outcome: replayed ? 'replayed' : 'done', ...ids });
      } catch (error) {
        const answer = await settle(failed(error));
        return act(answer, { ...sent, outcome: 'failed', reason: failureReason(answer) ?? 'ERROR' });
      }
    },
  );
};
