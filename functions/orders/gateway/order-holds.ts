/**
 * What a request holds before its write is sent, each asked for by the order path as one step:
 *
 * - `openSession`: the session secret (cached per container), loaded before anything is sent, so a missing or
 *   malformed secret is a CONFIGURATION_ERROR before any broker call; with a way to re-read it.
 * - `askLease` (modify, PATCH, cancel): the lease on the order's `al_id` (orders/lease.ts) from before it sends (and
 *   before a PATCH's second read of the order) until its write has ended: a second change meanwhile is ORDER_BUSY,
 *   never a silent lost update. Given back when the change ends; kept until the late window has passed when its
 *   outcome is unknown. Dry runs take none. A PATCH asks for it before it reads the order: what makes two PATCHes
 *   from one read safe is the second read right before sending (order-patch.ts `beforeSend`), made only once the
 *   lease is held, so a change that ended in between is seen there (412 ORDER_CHANGED) and one still in flight holds
 *   the lease (409).
 * - `askPermit` (order writes): a permit from the account's order-rate governor (orders/safety/trading-controls.ts),
 *   whose conditional write also records until when the write may land (the kill switch's sweep waits for it),
 *   refuses while the kill switch is on (`refusedWhileHalted` entries, but an exit `haltExempt` lets through) and
 *   re-reads the secret when a logout came after this container read it.
 *
 * The lease and the permit are asked for at once, beside the journal's claim (one DynamoDB round trip,
 * docs/explanation/order-safety.md "Round trips"), and awaited by the send step: a refusal frees the key (nothing was sent).
 */
import type { SessionSource } from '../../base/broker/session.js';
import { GatewayError } from '../../base/contract/errors.js';
import type { RequestOptions } from '../../base/contract/gateway-request.js';
import type { AnyOperation, OperationKind } from '../../base/contract/operation.js';
import type { OrderLeases } from '../lease.js';
import type { TradingControls } from '../safety/trading-controls.js';
import type { SessionReads } from './broker-deps.js';
import type { RequestFacts } from './context.js';

export const openSession = async (source: SessionSource, kind?: OperationKind): Promise<SessionReads> => {
  try {
    await source.current();
  } catch (error) {
    // A logged-out secret: nothing was sent, which callers of order and session operations are told.
    if (error instanceof GatewayError && error.code === 'SESSION_EXPIRED' && kind !== undefined && kind !== 'read')
      error.outcome ??= 'not_executed';
    throw error;
  }
  return { session: () => source.current(), refreshSession: () => source.refresh() };
};

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

/** None for a dry run or for an input without an `al_id`. */
export const askLease = async (
  operation: string,
  table: OrderLeases,
  options: RequestOptions,
  input: unknown,
  session: SessionReads,
  deadline: number,
): Promise<AskedLease | undefined> => {
  if (options.dryRun) return undefined;
  const alId = (input as { al_id?: unknown }).al_id;
  if (typeof alId !== 'string') return undefined;
  const { uid } = await session.session();
  // The lease belongs to the change (the operation and its key): a retry of it joins, never takes it (lease.ts).
  const key = options.idempotencyKey;
  const lease = table.acquire(uid, alId, deadline, key === undefined ? undefined : { operation, key });
  // Awaited by whoever needs it (the send step); a refusal nobody awaited is still no crash.
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

/** A permit asked for: awaited before the send; `wanted` tells the governor whether the send still needs it. */
export interface AskedPermit {
  granted: Promise<void>;
  /** When it was asked for: a write that lands after the kill switch went on since then is undone. */
  askedAt: number;
  /** True once the journal's claim is won (or there is no key); false when the journal answered without sending. */
  wanted: (yes: boolean) => void;
}

export const askPermit = (
  controls: TradingControls,
  operation: AnyOperation,
  session: SessionReads,
  sessions: Pick<SessionSource, 'readAt'>,
  landBy: number,
  facts: RequestFacts,
  input?: unknown,
): AskedPermit => {
  // An exit the kill switch lets through (`haltExempt`: a square-off's plain order) asks as a cancel does.
  const refuseWhenHalted = operation.refusedWhileHalted === true && !operation.haltExempt?.(input);
  let wanted: (yes: boolean) => void = () => undefined;
  // A permit lost to contention waits for whether it is still wanted (a replay spends none).
  const stillWanted = new Promise<boolean>((resolve) => (wanted = resolve));
  const askedAt = Date.now();
  const granted = (async () => {
    const { uid } = await session.session();
    const permit = await controls.acquire(uid, refuseWhenHalted, {
      landBy,
      wanted: () => stillWanted,
      session: {
        readAt: () => sessions.readAt(),
        reread: async () => {
          try {
            await session.refreshSession();
          } catch (error) {
            // Logged out: nothing was sent, which the caller is told.
            if (error instanceof GatewayError) error.outcome ??= 'not_executed';
            throw error;
          }
        },
      },
    });
    facts.governorCalls = permit.dynamoCalls;
  })();
  // A permit refused while a replay answers is no crash (the replay is the answer).
  granted.catch(() => undefined);
  return { granted, askedAt, wanted };
};
