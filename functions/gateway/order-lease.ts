/**
 * A modify, PATCH or cancel holds the lease on its `al_id` (orders/lease.ts) from before it sends (and before a PATCH's
 * second read of the order) until its write has ended: a second change meanwhile is ORDER_BUSY, never a silent lost update. Given back when the
 * change ends; kept until the late window has passed when its outcome is unknown. Dry runs take none.
 *
 * The lease is asked for here and awaited by the executor (`state.lease`) with the journal's claim and the governor's
 * permit (one round trip) before sending; it is given back as soon as the broker answered (`state.endLease`),
 * alongside the record's completing write, and the reply waits for the release. A PATCH asks for it before it reads
 * the order and reads it while the lease is on its way: what makes two PATCHes from one read safe is the second read
 * right before sending (order-patch.ts `beforeSend`), which the executor makes only once the lease is held, so a
 * change that ended in between is seen there (412 ORDER_CHANGED) and one still in flight holds the lease (409).
 */
import type { MiddlewareObj } from '@middy/core';

import { GatewayError } from '../contract/errors.js';
import type { Lease, OrderLeases } from '../orders/lease.js';
import type { GatewayContext, GatewayState } from './context.js';

/** The writes that change an existing order: what a lease protects (contract/operation.ts). */
export { changesAnOrder } from '../contract/operation.js';

export const orderLease = (
  leases: () => OrderLeases | undefined,
): MiddlewareObj<unknown, unknown, Error, GatewayContext> => {
  // Per request (its state object: a context may be reused by in-process callers).
  const held = new WeakMap<GatewayState, Promise<Lease>>();
  const ending = new WeakMap<GatewayState, Promise<void>>();
  const end = (context: GatewayState, error?: unknown): Promise<void> => {
    const started = ending.get(context);
    if (started) return started;
    const lease = held.get(context);
    if (!lease) return Promise.resolve();
    const ended = lease.then(
      (mine) =>
        error instanceof GatewayError && error.outcome === 'unknown' ? mine.keepForLateWindow() : mine.release(),
      // Never held (ORDER_BUSY, or the table unreachable): nothing to give back.
      () => undefined,
    );
    ending.set(context, ended);
    return ended;
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
      const lease = table.acquire(uid, alId, deadline, state.request?.options.idempotencyKey);
      held.set(state, lease);
      state.lease = lease.then(() => undefined);
      // Awaited by whoever needs it (below, or the executor); a refusal nobody awaited is still no crash.
      state.lease.catch(() => undefined);
      state.endLease = (error?: unknown) => end(state, error);
    },
    after: (request) => end(request.context.gateway),
    onError: (request) => end(request.context.gateway, request.error),
  };
};
