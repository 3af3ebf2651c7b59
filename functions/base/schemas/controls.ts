/** What the kill switch answers (functions/controls/kill-switch.ts). */
import * as z from 'zod';

export const killSwitchResult = z.object({
  halted: z.boolean().describe('true: places and modifies are refused with 423 TRADING_HALTED'),
  changedAt: z.string().optional().describe('When the switch last changed (ISO time)'),
  changedBy: z.string().optional().describe('Who changed it, as the request named the caller'),
  sweep: z
    .object({
      cancelled: z.array(z.string()).describe('al_ids cancelled at the broker'),
      failed: z
        .array(z.object({ al_id: z.string(), code: z.string(), message: z.string() }))
        .describe('al_ids still pending: cancel them by hand'),
      complete: z
        .boolean()
        .describe('true: no pending GTT or OCO is left and no order write permitted before the switch can still land'),
      inFlightUntil: z
        .string()
        .optional()
        .describe(
          'When complete is false because an order write permitted before the switch may still land until then (ISO time): turn the switch on again after it to sweep what landed',
        ),
    })
    .optional()
    .describe('Turning it on: what the sweep of pending orders did'),
});
export type KillSwitchResult = z.output<typeof killSwitchResult>;
