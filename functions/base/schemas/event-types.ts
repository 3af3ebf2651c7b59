/**
 * The names of the lifecycle events, apart from their zod schemas (events.ts) so the functions that publish carry
 * the names without building the schemas at start-up.
 */
export { EVENT_SOURCE } from './names.js';

export const ORDER_DETAIL_TYPES = [
  'GTT Placed',
  'GTT Modified',
  'GTT Cancelled',
  'GTT Triggered',
  'GTT Removed',
] as const;
export const SESSION_DETAIL_TYPES = ['Session Expired', 'Session Renewed'] as const;
/** The kill switch turned; a day's limit crossed (functions/risk/), which turned it. */
export const CONTROL_DETAIL_TYPES = ['Kill Switch', 'Risk Limit Hit'] as const;
/** What became of the order a fired GTT placed, once its status settled. */
export const FATE_DETAIL_TYPES = ['Order Filled', 'Order Rejected', 'Order Cancelled'] as const;
/**
 * What the gateway's plans (bracket, trailing stop) did: armed, a step (exit placed or adopted, stop trailed, a price
 * that could not be read for a while), done, failed, and unprotected (a filled position without a live exit).
 */
export const PLAN_DETAIL_TYPES = ['Plan Armed', 'Plan Step', 'Plan Done', 'Plan Failed', 'Plan Unprotected'] as const;
/** What became of an alert posted to a strategy's webhook (functions/signals/, docs/reference/signals.md). */
export const SIGNAL_DETAIL_TYPES = ['Signal Received', 'Signal Acted', 'Signal Refused'] as const;
/** What an assistant did through the remote MCP server (functions/mcp/, docs/reference/assistants.md): a confirm, the kill switch. */
export const ASSISTANT_DETAIL_TYPES = ['Assistant Action'] as const;
/** An open position no stop or OCO covers (functions/risk/coverage-watch.ts, docs/explanation/coverage.md). */
export const COVERAGE_DETAIL_TYPES = ['Position Unprotected'] as const;
export const DETAIL_TYPES = [
  ...ORDER_DETAIL_TYPES,
  ...SESSION_DETAIL_TYPES,
  ...CONTROL_DETAIL_TYPES,
  ...FATE_DETAIL_TYPES,
  ...PLAN_DETAIL_TYPES,
  ...SIGNAL_DETAIL_TYPES,
  ...ASSISTANT_DETAIL_TYPES,
  ...COVERAGE_DETAIL_TYPES,
] as const;
export type SignalDetailType = (typeof SIGNAL_DETAIL_TYPES)[number];
export type PlanDetailType = (typeof PLAN_DETAIL_TYPES)[number];
export type FateDetailType = (typeof FATE_DETAIL_TYPES)[number];
export type OrderDetailType = (typeof ORDER_DETAIL_TYPES)[number];
export type DetailType = (typeof DETAIL_TYPES)[number];

/** The states of a plan (functions/plans/): what `GET /plans/{planId}` and the Plan events say. */
export const PLAN_STATES = [
  'watching',
  'entry-placed',
  'armed',
  'entry-filled',
  'exit-armed',
  'unprotected',
  'done',
  'failed',
  'cancelled',
] as const;
export type PlanState = (typeof PLAN_STATES)[number];
/** The states a plan ends in: nothing more happens to it. */
export const TERMINAL: readonly PlanState[] = ['done', 'failed', 'cancelled'];
