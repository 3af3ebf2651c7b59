/**
 * A modify, PATCH or cancel holds the lease on its `al_id` (orders/lease.ts) from before a PATCH reads the order
 * until its write has ended: a second change meanwhile is ORDER_BUSY, never a silent lost update. Given back when the
 * change ends; kept until the late window has passed when its outcome is unknown. Dry runs take none.
 *
 * The lease is asked for here and awaited where it is needed: a PATCH awaits it before it reads the order; a modify or
 * cancel hands it to the executor (`state.lease`), which awaits it with the journal's claim and the governor's permit
 * (one round trip) before sending, and gives it back as soon as the broker answered (`state.endLease`), alongside the
 * record's completing write. The reply still waits for the release.
 */
import type { MiddlewareObj } from '@middy/core';

import { GatewayError } from '../contract/errors.js';
import type { AnyOperation } from '../contract/operation.js';
import type { Lease, OrderLeases } from '../orders/lease.js';
import type { GatewayContext, GatewayState } from './context.js';

/** The writes that change an existing order: what a lease protects. */
export const changesAnOrder = (operation: AnyOperation): boolean =>
  operation.kind === 'order' && ['ModifyGTTOrder', 'ModifyOCOOrder', 'CancelGTTOrder'].includes(operation.broker);

export const orderLease = (
  leases: () => OrderLeases | undefined,
  { awaitHere }: { awaitHere: boolean },
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
      if (awaitHere) await lease;
    },
    after: (request) => end(request.context.gateway),
    onError: (request) => end(request.context.gateway, request.error),
  };
};
