/**
 * A modify, PATCH or cancel holds the lease on its `al_id` (orders/lease.ts) from before it sends (and before a PATCH's
 * second read of the order) until its write has ended: a second change meanwhile is ORDER_BUSY, never a silent lost update. Given back when the
 * change ends; kept until the late window has passed when its outcome is unknown. Dry runs take none.
 *
 * The lease is asked for here and awaited by the executor (`hold`) with the journal's claim and the governor's
 * permit (one round trip) before sending; it is given back as soon as the broker answered (`end`),
 * alongside the record's completing write, and the reply waits for the release. A PATCH asks for it before it reads
 * the order and reads it while the lease is on its way: what makes two PATCHes from one read safe is the second read
 * right before sending (order-patch.ts `beforeSend`), which the executor makes only once the lease is held, so a
 * change that ended in between is seen there (412 ORDER_CHANGED) and one still in flight holds the lease (409).
 */
import { GatewayError } from '../../base/contract/errors.js';
import type { RequestOptions } from '../../base/contract/gateway-request.js';
import type { OrderLeases } from '../lease.js';
import type { LoadedSession } from './broker-session.js';

/** The writes that change an existing order: what a lease protects (base/contract/operation.ts). */
export { changesAnOrder } from '../../base/contract/operation.js';

/**
 * A lease asked for: `hold` resolves once it is held, right before the send (rejects ORDER_BUSY; a retry of the
 * change that holds it joined it and takes it over only then: ORDER_BUSY if another change took it since); `end`
 * gives it back, once.
 */
export interface AskedLease {
  hold: () => Promise<void>;
  /** Gives the lease back (kept for the late window when `error` is an unknown outcome); the reply waits for it. */
  end: (error?: unknown) => Promise<void>;
}

/** None for a dry run, without a lease table, or for an input without an `al_id`. */
export const orderLease = async (
  operation: string,
  table: OrderLeases | undefined,
  options: RequestOptions,
  input: unknown,
  session: LoadedSession,
  remainingMs: () => number,
): Promise<AskedLease | undefined> => {
  if (!table || options.dryRun) return undefined;
  const alId = (input as { al_id?: unknown }).al_id;
  if (typeof alId !== 'string') return undefined;
  const { uid } = await session.session();
  // The lease belongs to the change (the operation and its key): a retry of it joins, never takes it (lease.ts).
  const key = options.idempotencyKey;
  const lease = table.acquire(
    uid,
    alId,
    Date.now() + remainingMs(),
    key === undefined ? undefined : { operation, key },
  );
  // Awaited by whoever needs it (the executor); a refusal nobody awaited is still no crash.
  lease.catch(() => undefined);
  let ending: Promise<void> | undefined;
  const end = (error?: unknown): Promise<void> =>
    (ending ??= lease.then(
      (mine) =>
        error instanceof GatewayError && error.outcome === 'unknown' ? mine.keepForLateWindow() : mine.release(),
      // Never held (ORDER_BUSY, or the table unreachable): nothing to give back.
      () => undefined,
    ));
  // Sent under this lease: a joined retry that the journal lets send takes it from the holder it saw.
  const hold = async (): Promise<void> => (await lease).own();
  return { hold, end };
};
