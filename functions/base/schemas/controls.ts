/** What the kill switch answers (functions/controls/kill-switch.ts). */
import * as z from 'zod';

/** What `POST /kill-switch` takes: the mode (docs/explanation/compliance.md); none is cancel-all. */
export const killSwitchInput = z.strictObject({
  mode: z
    .enum(['cancel-all', 'keep-exits'], {
      error: (issue: { input?: unknown }) =>
        `mode must be cancel-all (cancel every pending GTT and OCO) or keep-exits (cancel the entries, keep the OCOs and plan exits), got ${JSON.stringify(issue.input)}`,
    })
    .optional()
    .describe(
      'cancel-all (the default): every pending GTT and OCO is cancelled; keep-exits: OCOs and the exits and stops of plans stay at the broker, the rest is cancelled',
    ),
  onBehalfOf: z
    .string()
    .regex(/^[\w.:@ ()-]{1,128}$/, {
      error: 'onBehalfOf must be 1-128 letters, digits, spaces or . : @ ( ) - _ (who the caller acts for)',
    })
    .optional()
    .describe(
      'Who the signed caller acts for (the MCP server: `assistant:<id>`); recorded beside it, as changedBy `<caller> for <onBehalfOf>`',
    ),
});
export type KillSwitchInput = z.output<typeof killSwitchInput>;

export const killSwitchResult = z.object({
  halted: z.boolean().describe('true: places and modifies are refused with 423 TRADING_HALTED'),
  mode: z
    .enum(['cancel-all', 'keep-exits'])
    .optional()
    .describe('While on: cancel-all (every pending order was swept) or keep-exits (the exits were kept)'),
  changedAt: z.string().optional().describe('When the switch last changed (ISO time)'),
  changedBy: z.string().optional().describe('Who changed it, as the request named the caller'),
  sweep: z
    .object({
      startedAt: z.string().describe('When the sweep started (ISO time)'),
      finishedAt: z.string().describe('When the sweep ended (ISO time)'),
      cancelled: z.array(z.string()).describe('al_ids cancelled at the broker'),
      kept: z
        .array(z.string())
        .optional()
        .describe('keep-exits: the al_ids left at the broker as exits (OCOs, the exits and stops of plans)'),
      failed: z
        .array(z.object({ al_id: z.string(), code: z.string(), message: z.string() }))
        .describe('al_ids still pending: cancel them by hand'),
      complete: z
        .boolean()
        .describe(
          'true: no pending GTT or OCO is left (keep-exits: but the kept exits) and no order write permitted before the switch can still land',
        ),
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
