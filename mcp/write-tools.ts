/**
 * The write tools. Each answers a preview first and acts only through `confirm` (confirm-tool.ts); the kill switch's
 * ON acts at once, since it only reduces risk. Registered only on a server with the `trade` or `exit` scope (exit:
 * each held to the exit-only rule, exit-only.ts).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

import { SIDE_VALUES } from '../client/cli/trader-values.js';
import { OPERATION_INFO } from '../client/generated/operations.js';
import { ALERT_TYPES, EXCHANGES, PRICE_TYPES, PRODUCTS, RETENTIONS } from '../functions/base/schemas/fields.js';
import { RISK_MODES } from '../functions/base/schemas/risk.js';
import { newConfirmation, requestHash } from './confirmations.js';
import { legsShape, optionEntryShape, optionExtrasShape, planFields } from './plan-fields.js';
import type { GatewayRequest } from './port.js';
import { buildPreview, PLACING_OPERATIONS } from './preview.js';
import { attempt, DATA_NOTE, failed, failureReason, ok, outputSchema, refused } from './results.js';
import { closed, num, open, signedNum, traderValue } from './schema-forms.js';
import type { ServerContext } from './server.js';
import { coverageArgs, riskArgs } from './settings.js';

/** B or S, or buy and sell as the command line takes them. */
const side = traderValue('trantype', SIDE_VALUES, 'side');
const orderShape = {
  exch: z.enum(EXCHANGES).describe('exchange'),
  tsym: z.string().describe('trading symbol, e.g. INFY-EQ'),
  qty: num('quantity'),
  prc: num('limit price (0 or omitted for MKT / SL-MKT)').optional(),
  prd: z.enum(PRODUCTS).describe('product: C delivery, M margin, H cover'),
  trantype: side,
  prctyp: z.enum(PRICE_TYPES).describe('MKT is sent as a protected limit'),
  ret: z.enum(RETENTIONS).describe('retention of the order it places'),
  ai_t: z.enum(ALERT_TYPES).describe('A: at/above d, B: at/below; LTP price, CH_PER %, ATP avg, OI/TOI/VOLUME counts'),
  d: signedNum('the trigger: price, % or count'),
  tag: z.string().optional().describe('your own label for the order'),
};
/** A plan's entry or order: a place_gtt body, its fields said in place_gtt's schema (not again here, to keep it short). */
const planOrder = (what: string) =>
  closed(
    Object.fromEntries(Object.entries(orderShape).map(([k, v]) => [k, v.meta({ description: undefined })])),
    what,
  ).optional();
/** A bracket's target or stop-loss: its fields' names say them (no descriptions: the tools' list is nearly full). */
const planExit = (what: string) =>
  closed(
    { trigger: num('trigger').meta({ description: undefined }), price: num('price').meta({ description: undefined }) },
    what,
  ).optional();
const partial = (shape: z.ZodRawShape): z.ZodRawShape =>
  Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, (v as z.ZodType).optional()]));
const legOrder = {
  trantype: side,
  prctyp: z.enum(['LMT', 'MKT', 'SL-LMT', 'SL-MKT']),
  qty: num('quantity'),
  prc: num('limit price').optional(),
  prd: z.enum(PRODUCTS),
  ret: z.enum(RETENTIONS).optional(),
  trgprc: num("a stop-loss order's own trigger price (SL-LMT, SL-MKT)").optional(),
};
const legShape = closed({ trigger: num("the leg's trigger price"), order: closed(legOrder, "a leg's order") }, 'a leg');
const ocoShape = {
  exch: z.enum(EXCHANGES),
  tsym: z.string(),
  tag: z.string().optional(),
  ltp: num('the last price you see; only checked against the triggers').optional(),
  target: legShape.describe('the profit-taking leg'),
  stopLoss: legShape.describe('the stop-loss leg'),
};
/** change_oco's leg: only what is given changes. */
const changedLeg = closed(
  { trigger: num("the leg's trigger price").optional(), order: closed(partial(legOrder), "a leg's order").optional() },
  'a leg',
);
const alId = { alId: z.string().describe("the order's al_id") };
/** An autoCover leg's distance from the average price: points, or a percentage of it. */
const distance = z
  .union([
    z.number(),
    z.string().regex(/^\d+(\.\d+)?%?$/, { error: 'a distance is points (5) or a percentage ("1.5%")' }),
  ])
  .describe('points (5) or "x%"');

type Args = Record<string, unknown>;

const bodyOf = (args: Args, without: string[] = []): Record<string, unknown> =>
  Object.fromEntries(Object.entries(args).filter(([k, v]) => v !== undefined && !without.includes(k)));

interface WriteTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodRawShape;
  /** What the fields must be together (a plan's kind and its fields), said before anything is read or sent. */
  together?: (args: Args, ctx: z.RefinementCtx) => void;
  annotations: ToolAnnotations;
  request: (args: Args) => GatewayRequest;
  /** Its own (shorter) output schema; default the preview's. */
  output?: ReturnType<typeof outputSchema>;
}

const PLACE: ToolAnnotations = { destructiveHint: false, idempotentHint: false };
const CHANGE: ToolAnnotations = { destructiveHint: true, idempotentHint: true };

const WRITES: WriteTool[] = [
  {
    name: 'place_gtt',
    title: 'Place a GTT',
    description: 'A good-till-triggered order: when the price crosses the trigger d, the order is placed.',
    input: orderShape,
    annotations: PLACE,
    request: (a) => ({ operation: 'PlaceGTTOrder', body: bodyOf(a) }),
  },
  {
    name: 'modify_gtt',
    title: 'Replace a GTT',
    description: "A pending GTT's fields all given again (a full replacement).",
    input: { ...alId, ...orderShape },
    annotations: CHANGE,
    request: (a) => ({ operation: 'ModifyGTTOrder', path: { alId: String(a.alId) }, body: bodyOf(a, ['alId']) }),
  },
  {
    name: 'change_gtt',
    title: 'Change fields of a GTT',
    description: 'Only the fields given change (e.g. just the trigger d); the rest stays as the broker holds it.',
    input: { ...alId, ...partial(orderShape) },
    annotations: CHANGE,
    request: (a) => ({
      operation: 'PatchGTTOrder',
      path: { alId: String(a.alId) },
      body: bodyOf(a, ['alId', 'exch', 'tsym']),
    }),
  },
  {
    name: 'place_oco',
    title: 'Place an OCO',
    description:
      'A target and a stop-loss closing one position: whichever triggers first fires, the other is cancelled.',
    input: ocoShape,
    annotations: PLACE,
    request: (a) => ({ operation: 'PlaceOCOOrder', body: bodyOf(a) }),
  },
  {
    name: 'modify_oco',
    title: 'Replace an OCO',
    description: "A pending OCO's legs both given again (a full replacement).",
    input: { ...alId, ...ocoShape },
    annotations: CHANGE,
    request: (a) => ({ operation: 'ModifyOCOOrder', path: { alId: String(a.alId) }, body: bodyOf(a, ['alId']) }),
  },
  {
    name: 'change_oco',
    title: 'Change fields of an OCO',
    description: 'Only what is given changes, e.g. {"stopLoss": {"trigger": "1410"}}; the rest stays.',
    input: {
      ...alId,
      tag: z.string().optional(),
      ltp: ocoShape.ltp,
      target: changedLeg.optional(),
      stopLoss: changedLeg.optional(),
    },
    annotations: CHANGE,
    request: (a) => ({ operation: 'PatchOCOOrder', path: { alId: String(a.alId) }, body: bodyOf(a, ['alId']) }),
  },
  {
    name: 'cancel_gtt',
    title: 'Cancel a GTT or an OCO',
    description: 'A pending GTT or OCO cancelled at the broker.',
    input: alId,
    annotations: CHANGE,
    request: (a) => ({ operation: 'CancelGTTOrder', path: { alId: String(a.alId) } }),
  },
  {
    name: 'create_plan',
    title: 'Start a plan',
    description:
      'bracket: entry (a place_gtt body), target, stopLoss ({trigger, price}); trailing-stop: order (a place_gtt body), trailBy, step?; option-entry: underlying, when, pick, lots, exit, maxValue? (₹ cap on the entry); option-legs: legs, exit; both: prd? (default M).',
    input: {
      kind: z.enum(['bracket', 'trailing-stop', 'option-entry', 'option-legs']),
      entry: planOrder('entry (a place_gtt body)'),
      target: planExit('target'),
      stopLoss: planExit('stopLoss'),
      order: planOrder('order (a place_gtt body)'),
      trailBy: num('how far the stop trails the price').optional(),
      step: num('the least move that shifts the stop').optional(),
      ...optionEntryShape,
      ...legsShape,
      ...optionExtrasShape,
      tag: z.string().optional(),
    },
    together: planFields,
    annotations: PLACE,
    request: (a) => ({ operation: 'CreatePlan', body: bodyOf(a) }),
  },
  {
    name: 'cancel_plan',
    title: 'Cancel a plan',
    description: 'Its live GTT cancelled and the plan ended.',
    input: { planId: z.string() },
    annotations: CHANGE,
    request: (a) => ({ operation: 'CancelPlan', path: { planId: String(a.planId) } }),
  },
  {
    name: 'set_risk_limits',
    title: "Set the day's limits",
    description:
      "Once the day's P&L reaches -dayLossLimit or +dayProfitTarget (rupees), the kill switch goes on (mode); squareOff also closes open positions. Replaces all settings; off: true clears them. Trade scope.",
    input: {
      dayLossLimit: z.number().optional().describe('rupees, positive: stop at minus this'),
      dayProfitTarget: z.number().optional().describe('rupees'),
      mode: z.enum(RISK_MODES).optional().describe('default keep-exits'),
      squareOff: z.boolean().optional(),
      off: z.boolean().optional(),
    },
    together: riskArgs,
    annotations: CHANGE,
    request: (a) => ({ operation: 'SetRiskLimits', body: a.off === true ? {} : bodyOf(a, ['off']) }),
  },
  {
    name: 'set_coverage',
    title: 'Set coverage',
    description:
      'watch: each watcher run checks every open position for a resting exit (an event if none); autoCover: it places one OCO at these distances from the average price. Trade scope.',
    input: {
      watch: z.boolean(),
      autoCover: closed({ target: distance, stop: distance }, 'autoCover').optional(),
    },
    together: coverageArgs,
    annotations: CHANGE,
    request: (a) => ({ operation: 'PutCoverageSettings', body: bodyOf(a) }),
  },
  {
    name: 'close_position',
    title: 'Close a position',
    description: 'Sells a long or buys back a short now (all, or qty): one protected limit order; only reduces.',
    input: {
      exch: z.enum(EXCHANGES),
      tsym: z.string(),
      prd: z.enum(['C', 'M', 'I']).describe('I: MIS'),
      qty: z.number().optional().describe('default: all'),
    },
    // Its preview's fields but the few a person reads (the preview answers them all: the schema is open).
    output: outputSchema({ confirmationId: z.string(), summary: z.string() }),
    annotations: PLACE,
    request: (a) => ({ operation: 'ClosePosition', body: bodyOf(a) }),
  },
  {
    name: 'kill_switch_off',
    title: 'Turn the kill switch off',
    description: 'Places and modifies are accepted again.',
    input: {},
    annotations: { destructiveHint: false, idempotentHint: true },
    request: () => ({ operation: 'ReleaseKillSwitch' }),
  },
];

export const WRITE_TOOL_NAMES = [...WRITES.map((t) => t.name), 'kill_switch_on', 'confirm'];

/** Short in every write's description; the server's instructions say how previews and confirm work, once. */
const PREVIEW_NOTE = ' Nothing is sent on this call: it previews; confirm only once the person agrees.';

/** The preview every write answers (its fields said once, in the server's instructions and docs/reference/assistants.md). */
const previewOutput = outputSchema({
  confirmationId: z.string(),
  requestHash: z.string(),
  expiresAt: z.string(),
  summary: z.string(),
  request: open({}),
  rulesChecked: z.array(z.string()),
  conversion: z.string(),
  killSwitch: z.string(),
  dryRun: open({}),
  market: open({}),
});

export const registerWriteTools = (server: McpServer, context: ServerContext): void => {
  const { port, confirmations, limits, now, ttlMs, assistant, quota, exitOnly } = context;
  for (const tool of WRITES)
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: `${tool.description}${PREVIEW_NOTE}${DATA_NOTE}`,
        inputSchema: tool.together
          ? closed(tool.input, tool.name).superRefine(tool.together)
          : closed(tool.input, tool.name),
        outputSchema: tool.output ?? previewOutput,
        annotations: { readOnlyHint: false, openWorldHint: true, ...tool.annotations },
      },
      async (args: Args) => {
        const request = tool.request(args);
        let preview;
        try {
          const ordersToday = quota && PLACING_OPERATIONS.includes(request.operation) ? await quota.ordersToday() : 0;
          const dryRun = OPERATION_INFO[request.operation].dryRun;
          preview = await buildPreview(port, request, dryRun, limits, ordersToday, exitOnly);
        } catch (error) {
          return failed(error);
        }
        if ('refused' in preview) return refused(preview.refused, { rulesChecked: preview.rulesChecked });
        // The request as previewed (a change bound to the version of the order it read) is what confirm sends.
        const confirmation = newConfirmation(preview.request, preview.summary, now(), ttlMs, assistant);
        await confirmations.put(confirmation);
        return ok({
          confirmationId: confirmation.id,
          requestHash: requestHash(preview.request),
          expiresAt: new Date(confirmation.expiresAt).toISOString(),
          ...preview,
        });
      },
    );
  server.registerTool(
    'kill_switch_on',
    {
      title: 'Turn the kill switch on',
      description:
        'Acts at once, no confirmation (it only reduces risk): places and modifies refused; pending orders cancelled (cancel-all), or all but OCOs and plan exits and stops (keep-exits).' +
        DATA_NOTE,
      inputSchema: closed({ mode: z.enum(['cancel-all', 'keep-exits']).optional() }, 'kill_switch_on'),
      outputSchema: outputSchema({ halted: z.boolean() }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    async ({ mode }: { mode?: string }) => {
      const answer = await attempt(() =>
        port.call({
          operation: 'ActivateKillSwitch',
          // Recorded as who turned it on, beside the server's own signed identity (remote: the assistant's id).
          ...(mode || assistant
            ? {
                body: {
                  ...(mode ? { mode } : {}),
                  ...(assistant
                    ? { onBehalfOf: `assistant:${assistant.replace(/[^\w.:@ ()-]/g, '_').slice(0, 100)}` }
                    : {}),
                },
              }
            : {}),
        }),
      );
      const reason = failureReason(answer);
      await context.onAction({
        tool: 'kill_switch_on',
        operation: 'ActivateKillSwitch',
        outcome: reason ? 'failed' : 'done',
        summary: `Turn the kill switch ON (${mode ?? 'cancel-all'})`,
        ...(reason ? { reason } : {}),
      });
      return answer;
    },
  );
};
