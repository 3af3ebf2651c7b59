/**
 * The lifecycle events the gateway publishes on EventBridge (docs/reference/events.md): `source` `gtt-gateway`, one
 * `detail-type` per kind of change, and a `detail` whose schema is below. The JSON Schemas in docs/events/ are
 * generated from these (`npm run events:schemas`) and a test checks that they match and that real events pass them.
 */
import './zod-config.js';

import * as z from 'zod';

import { convertedField } from './conversion.js';
import { type DetailType, PLAN_STATES } from './event-types.js';

export {
  ASSISTANT_DETAIL_TYPES,
  CONTROL_DETAIL_TYPES,
  DETAIL_TYPES,
  type DetailType,
  EVENT_SOURCE,
  FATE_DETAIL_TYPES,
  type FateDetailType,
  ORDER_DETAIL_TYPES,
  type OrderDetailType,
  PLAN_DETAIL_TYPES,
  PLAN_STATES,
  type PlanDetailType,
  type PlanState,
  SESSION_DETAIL_TYPES,
  SIGNAL_DETAIL_TYPES,
  type SignalDetailType,
} from './event-types.js';

const digits = z.string().regex(/^\d+$/);
const eventFields = {
  /** Stable per change: the same change always gets the same id, whichever producer saw it. Deduplicate on it. */
  eventId: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .describe('stable id of the change: deduplicate on it'),
  /** When the producer saw the change (ISO 8601, UTC). */
  observedAt: z.iso.datetime().describe('when the producer saw the change (ISO 8601, UTC)'),
  /** `gateway`: an order operation of this gateway after the broker's success; `watcher`: the scheduled watcher. */
  origin: z
    .enum(['gateway', 'watcher'])
    .describe(
      'gateway: published by the operation right after the broker succeeded; watcher: seen by the scheduled GttWatcher',
    ),
};

/** One leg of an OCO: its trigger and the order it places. */
export const eventLeg = z.strictObject({
  trigger: z.string(),
  side: z.string().describe('B (buy) or S (sell)'),
  quantity: z.number(),
  price: z.string(),
  priceType: z.string(),
  product: z.string().optional().describe('the product (prd: C, M, I, ...)'),
  triggerPrice: z.string().optional().describe('stop-loss orders (SL-LMT, SL-MKT): their own trigger price (trgprc)'),
});
export type EventLeg = z.output<typeof eventLeg>;

/**
 * An order as events describe it, single and OCO alike. A single order has `trigger`, `alertType`, `quantity`,
 * `price`, `priceType`; an OCO has `target` and `stopLoss` legs instead.
 */
export const orderView = z.strictObject({
  al_id: digits,
  type: z.enum(['single', 'oco']),
  exch: z.string(),
  tsym: z.string(),
  side: z.string().describe("B (buy) or S (sell); for an OCO, the target leg's"),
  trigger: z.string().optional(),
  alertType: z.string().optional().describe('single orders: the broker alert type (LTP_A_O above, LTP_B_O below)'),
  quantity: z.number().optional(),
  price: z.string().optional(),
  priceType: z.string().optional(),
  product: z.string().optional().describe('single orders: the product (prd: C, M, I, ...)'),
  target: eventLeg.optional(),
  stopLoss: eventLeg.optional(),
  tag: z.string().optional(),
});
export type OrderView = z.output<typeof orderView>;

const orderDetail = orderView.extend(eventFields);
/** GTT Placed and GTT Modified: the order, and what the gateway did to a market order. */
const writtenOrderDetail = orderDetail.extend({
  converted: convertedField
    .optional()
    .describe("the gateway's: the market order (or an OCO's market legs) it sent as a protected limit order"),
});

/** The order a fired GTT placed, as the broker's order book shows it (docs/reference/http-api.md: the fate of a fired order). */
export const firedOrder = z.strictObject({
  norenordno: z.string().describe('the order number at the broker'),
  status: z.enum(['open', 'filled', 'partially-filled', 'rejected', 'cancelled']),
  filledQty: z.number(),
  averagePrice: z.string().optional(),
  rejection: z
    .strictObject({ code: z.string(), hint: z.string(), text: z.string() })
    .optional()
    .describe('why the broker refused it: a code, what to do, its words'),
});
export type FiredOrder = z.output<typeof firedOrder>;

/** Order Filled, Rejected or Cancelled: the fired GTT (its fired leg's side and quantity) and what its order became. */
const fateDetail = z.strictObject({
  ...eventFields,
  al_id: digits.describe('the GTT that fired'),
  exch: z.string(),
  tsym: z.string(),
  side: z.string(),
  quantity: z.number(),
  firedLeg: z.enum(['target', 'stopLoss']).optional(),
  tag: z.string().optional(),
  order: firedOrder,
});

/** Cancelled by the gateway: the order's fields are known when the watcher had already seen the order. */
const partialOrderDetail = orderView.partial().required({ al_id: true }).extend(eventFields);

/** Plan Armed, Step, Done, Failed and Unprotected: which plan, its state after the change, and what the change was. */
const planDetail = z.strictObject({
  ...eventFields,
  planId: z.string().describe('the plan (GET /plans/{planId})'),
  kind: z.enum(['bracket', 'trailing-stop', 'option-entry', 'option-legs']),
  state: z.enum(PLAN_STATES).describe('the plan state after this change'),
  exch: z.string(),
  tsym: z.string(),
  tag: z.string().optional(),
  step: z
    .enum(['exit-armed', 'stop-trailed', 'price-unavailable', 'crossed', 'entry-placed', 'entry-filled'])
    .optional()
    .describe(
      'Plan Step: the OCO exit is live (placed, or found at the broker after a lost reply), the stop moved, or the price could not be read for several runs in a row; an option plan: the index crossed (the contract chosen), its entry placed, its entry filled',
    ),
  underlyingPrice: z.number().optional().describe("option entry: the index's price the plan saw when it crossed"),
  contract: z.string().optional().describe('option entry: the contract chosen (its trading symbol)'),
  expiry: z.string().optional().describe('option entry: the expiry chosen'),
  strike: z.number().optional().describe('option entry: the strike chosen'),
  qty: z.number().int().optional().describe('option entry: the quantity of the entry (lots × lot), or what filled'),
  norenordno: digits.optional().describe("option entry: the entry's order at the broker"),
  al_id: digits.optional().describe('the GTT the change placed or modified (the entry, the exit OCO, the stop)'),
  oldTrigger: z.string().optional().describe('stop-trailed: the trigger before'),
  newTrigger: z.string().optional().describe('stop-trailed: the trigger now'),
  reason: z
    .string()
    .optional()
    .describe(
      'Plan Failed: why (the entry order rejected or cancelled, with its code); Plan Unprotected: why the position has no live exit; Plan Step price-unavailable: "price unavailable: " and why (no quote yet, a quote of another instrument, the broker unreachable)',
    ),
  position: z
    .strictObject({ side: z.enum(['B', 'S']), qty: z.number().int().positive() })
    .optional()
    .describe('Plan Unprotected, and a plan ended with a position: what is open (B: long, bought; S: short, sold)'),
});

/** Signal Received, Acted and Refused: which alert, for which strategy, and what became of it. */
/** An assistant's act through the remote MCP server: who, which tool, what it sent and what became of it. */
const assistantDetail = z.strictObject({
  ...eventFields,
  assistantId: z.string().describe('the assistant (GET /assistants/{assistantId})'),
  assistantName: z.string(),
  tool: z.string().describe('the tool called: confirm, or kill_switch_on (which needs no confirm)'),
  operation: z.string().optional().describe('the operation of the HTTP API it sent (PlaceGTTOrder, CancelPlan, ...)'),
  outcome: z
    .enum(['done', 'replayed', 'refused', 'failed'])
    .describe(
      "done: sent and answered; replayed: a repeated confirm, the first answer again (nothing new sent); refused: the server's own refusal (nothing sent); failed: the gateway answered an error",
    ),
  confirmationId: z
    .string()
    .optional()
    .describe("the preview confirmed: also the Idempotency-Key of the order's own events"),
  summary: z.string().optional().describe("the preview's one line"),
  alId: z.string().optional(),
  planId: z.string().optional(),
  reason: z
    .string()
    .optional()
    .describe(
      "refused or failed (or a replay of either): why (an error code, its message and the broker's reason when there is one)",
    ),
});

const signalDetail = z.strictObject({
  ...eventFields,
  signalId: z.string().describe('the signal (the id the webhook answered with its 202)'),
  strategyId: z.string().describe('the strategy whose webhook received it (GET /strategies/{strategyId})'),
  strategyName: z.string().optional(),
  source: z.enum(['tradingview', 'chartink', 'amibroker', 'generic']),
  mode: z.enum(['live', 'paper']).optional().describe('paper: nothing was sent to the broker, each order a dry run'),
  tickers: z.array(z.string()).optional().describe('the symbols the alert named, as it named them'),
  results: z
    .array(
      z.strictObject({
        ticker: z.string(),
        tsym: z.string().optional(),
        alId: z.string().optional(),
        planId: z.string().optional(),
        dryRun: z.boolean().optional(),
        detail: z.string().optional(),
      }),
    )
    .optional()
    .describe('Signal Acted: what it placed, cancelled or switched, one entry per order'),
  reason: z.string().optional().describe('Signal Refused: why, in words that show the way forward'),
  code: z.string().optional().describe('Signal Refused: the error code, when a gateway error refused it'),
});

/** Position Unprotected: an open position no stop or OCO covers, and what autoCover did for it (coverage-watch.ts). */
const positionUnprotectedDetail = z.strictObject({
  ...eventFields,
  exch: z.string(),
  tsym: z.string(),
  product: z.string(),
  netQty: z.number().describe('the open quantity: above 0 long, below 0 short'),
  averagePrice: z.number(),
  status: z
    .enum(['partly', 'target-only', 'uncovered'])
    .describe('partly: stops and OCOs cover some of it; target-only: only targets rest; uncovered: no exit'),
  uncoveredQty: z.number().describe('the open quantity no stop or OCO covers'),
  exits: z.array(z.string()).describe('the al_ids of the exits that rest for it (targets included)'),
  owedQty: z
    .number()
    .optional()
    .describe('what live plans owe it and is not at the broker yet (their stop or exit still to be placed)'),
  owedBy: z.array(z.string()).optional().describe('the planIds that owe it'),
  autoCover: z
    .strictObject({
      placed: z.boolean().describe('true: an OCO covers it now (placed, or the one placed before for this quantity)'),
      al_id: z.string().optional(),
      replayed: z.boolean().optional().describe('the OCO was placed by an earlier run: its key answered it again'),
      target: z.string().optional(),
      stopLoss: z.string().optional(),
      qty: z.number().optional(),
      code: z.string().optional().describe('not placed: the error code (the exchange band, the kill switch, ...)'),
      reason: z.string().optional().describe('not placed: why, in words'),
    })
    .optional()
    .describe('with autoCover on: the OCO placed for the uncovered quantity, or why none was'),
});

export const DETAIL_SCHEMAS = {
  'GTT Placed': writtenOrderDetail,
  'GTT Modified': writtenOrderDetail,
  'GTT Cancelled': partialOrderDetail.extend({
    status: z.string().optional().describe('the broker history status, when it has one'),
  }),
  'GTT Triggered': orderDetail.extend({
    firedLeg: z.enum(['target', 'stopLoss']).optional().describe('OCO: the leg that fired'),
    triggeredAt: z.iso
      .datetime()
      .optional()
      .describe("when it fired (ISO 8601, UTC), from the broker's norentm (India time)"),
    status: z.string().describe('the broker history status (TRIGGERED, EXECUTED, ...)'),
    order: firedOrder.optional().describe('the order it placed, when the order book already shows it'),
  }),
  'GTT Removed': orderDetail.extend({
    status: z
      .string()
      .optional()
      .describe('the broker history status (e.g. REJECTED), absent when the order just left the pending list'),
  }),
  'Session Expired': z.strictObject({
    ...eventFields,
    code: z.string().describe('the error code of the failed read (SESSION_EXPIRED)'),
    reason: z.string(),
  }),
  'Session Renewed': z.strictObject({
    ...eventFields,
    method: z
      .enum(['oauth', 'flattrade', 'totp'])
      .describe(
        'oauth: the OAuth callback (GenAcsTok); flattrade: the OAuth callback (Flattrade token exchange); totp: the scheduled TOTP login',
      ),
  }),
  'Kill Switch': z.strictObject({
    ...eventFields,
    halted: z.boolean().describe('true: turned on (places and modifies refused); false: turned off'),
    changedBy: z.string().optional().describe('who changed it, as the request named the caller'),
    mode: z
      .enum(['cancel-all', 'keep-exits'])
      .optional()
      .describe('turning on: cancel-all (every pending order swept) or keep-exits (the exits kept)'),
    cancelled: z.number().int().optional().describe('turning on: how many pending orders the sweep cancelled'),
    kept: z.number().int().optional().describe('turning on in keep-exits: how many exits were left at the broker'),
    failed: z.number().int().optional().describe('turning on: how many are still pending (cancel them by hand)'),
  }),
  'Risk Limit Hit': z.strictObject({
    ...eventFields,
    day: z.string().describe('the India day (YYYY-MM-DD) whose P&L crossed the limit'),
    limit: z.enum(['dayLossLimit', 'dayProfitTarget']).describe('which limit was crossed'),
    threshold: z.number().describe('the P&L it stops at, rupees: minus the loss limit, or the profit target'),
    pnl: z
      .object({ realised: z.number(), unrealised: z.number(), total: z.number() })
      .describe("the day's P&L the check saw (the broker's positions), rupees"),
    mode: z.enum(['cancel-all', 'keep-exits']).describe('the mode the kill switch was turned on in'),
    squareOff: z.boolean().describe('whether each open position is closed as well'),
  }),
  'Order Filled': fateDetail,
  'Order Rejected': fateDetail,
  'Order Cancelled': fateDetail,
  'Plan Armed': planDetail,
  'Plan Step': planDetail,
  'Plan Unprotected': planDetail,
  'Plan Done': planDetail,
  'Plan Failed': planDetail,
  'Signal Received': signalDetail,
  'Signal Acted': signalDetail,
  'Signal Refused': signalDetail,
  'Assistant Action': assistantDetail,
  'Position Unprotected': positionUnprotectedDetail,
} as const satisfies Record<DetailType, z.ZodType>;

export type EventDetail<T extends DetailType = DetailType> = z.output<(typeof DETAIL_SCHEMAS)[T]>;

/** One event to publish: what PutEvents takes, before the bus name is added. */
export interface LifecycleEvent<T extends DetailType = DetailType> {
  detailType: T;
  detail: EventDetail<T>;
}
