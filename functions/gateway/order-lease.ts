/**
 * A modify, PATCH or cancel holds the lease on its `al_id` (orders/lease.ts) from before a PATCH reads the order
 * until its write has ended: a second change meanwhile is ORDER_BUSY, never a silent lost update. Given back when the
 * change ends; kept until the late window has passed when its outcome is unknown. Dry runs take none.
 */
import type { MiddlewareObj } from '@middy/core';

import { GatewayError } from '../contract/errors.js';
import type { Lease, OrderLeases } from '../orders/lease.js';
import type { GatewayContext } from './context.js';

/** The writes that change an existing order: what a lease protects (contract/operation.ts). */
export { changesAnOrder } from '../contract/operation.js';

export const orderLease = (
  leases: () => OrderLeases | undefined,
): MiddlewareObj<unknown, unknown, Error, GatewayContext> => {
  const held = new WeakMap<GatewayContext, Lease>();
  const end = async (context: GatewayContext, error?: unknown) => {
    const lease = held.get(context);
    if (!lease) return;
    held.delete(context);
    if (error instanceof GatewayError && error.outcome === 'unknown') await lease.keepForLateWindow();
    else await lease.release();
  };
  return {
    name: 'orderLease',
    before: async (request) => {
      const state = request.context.gateway;
      const table = leases();
      if (!table || state.request?.options.dryRun || !state.session) return;
      const alId = (state.input as { al_id?: unknown }).al_id;
      if (typeof alId !== 'string') return;
      const { uid } = await state.session();
      const deadline = Date.now() + request.context.getRemainingTimeInMillis();
      held.set(request.context, await table.acquire(uid, alId, deadline, state.request?.options.idempotencyKey));
    },
    after: (request) => end(request.context),
    onError: (request) => end(request.context, request.error),
  };
};
