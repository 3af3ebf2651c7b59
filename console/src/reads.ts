/** The reads several views share, typed by the generated document. */
import type { operations } from '../../client/generated/openapi.js';
import { isPriceAlert } from '../../functions/base/schemas/alert-types.js';
import { allPages, type Api, ok } from './api.js';

type Json<Id extends keyof operations> = operations[Id]['responses'] extends {
  200: { content: { 'application/json': infer B } };
}
  ? B
  : never;

export type PendingOrder = Json<'GetPendingGTTOrder'>['orders'][number];
export type TriggeredOrder = Json<'GetTriggeredGTTOrders'>['orders'][number];
export type Plan = Json<'ListPlans'>['plans'][number];
export type SessionStatus = Json<'GetSession'>;
export type KillSwitch = Json<'GetKillSwitch'>;
export type EventRecord = Json<'ListEvents'>['events'][number];
export type Quote = Json<'GetQuote'>;
export type DryRun = Json<'PlaceGTTOrder'>;
export type OptionChain = Json<'GetOptionChain'>;
export type Exch = NonNullable<NonNullable<operations['GetPendingGTTOrder']['parameters']['query']>['exch']>;

export const EXCHANGES: readonly Exch[] = ['NSE', 'BSE', 'NFO', 'BFO', 'MCX', 'CDS', 'BCD', 'NCX', 'NCOM', 'BSTAR'];

/** Every pending order (of one symbol when given), page by page. */
export const pendingOrders = (api: Api, symbol?: { exch: Exch; tsym: string }): Promise<PendingOrder[]> =>
  allPages(async (cursor) => {
    const page = await ok(
      api.GET('/gtt-orders', { params: { query: { ...symbol, limit: 100, ...(cursor ? { cursor } : {}) } } }),
    );
    return { items: page.orders, nextCursor: page.nextCursor };
  });

export const triggeredOrders = (api: Api): Promise<TriggeredOrder[]> =>
  allPages(async (cursor) => {
    const page = await ok(
      api.GET('/gtt-orders/triggered', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }),
    );
    return { items: page.orders, nextCursor: page.nextCursor };
  });

export const allPlans = (api: Api): Promise<Plan[]> =>
  allPages(async (cursor) => {
    const page = await ok(api.GET('/plans', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }));
    return { items: page.plans, nextCursor: page.nextCursor };
  });

/** The triggers of a pending order, labelled: one for a single GTT, the target and the stop of an OCO. */
export const triggersOf = (order: PendingOrder): { label: string; price: string }[] => {
  const lines: { label: string; price: string }[] = [];
  if (order.type === 'oco') {
    if (order.target) lines.push({ label: `Target ${order.al_id}`, price: order.target.trigger });
    if (order.stopLoss) lines.push({ label: `Stop ${order.al_id}`, price: order.stopLoss.trigger });
  } else if (isPriceAlert(order.ai_t)) {
    // A trigger on a percentage, open interest or volume is no price: no line on the price chart.
    const trigger = order.trigger ?? order.d;
    lines.push({ label: `Trigger ${order.al_id}`, price: trigger });
  }
  return lines;
};
