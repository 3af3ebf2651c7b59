/**
 * A partial modify (PATCH, an entry with `patch`): after the session is loaded and before order safety, the pending
 * order is read at the broker (the one-order read entry; ORDER_NOT_FOUND when it is gone), the caller's changes are
 * laid over it and the result is checked with the modify's own schema: from here on the request is a modify of the
 * merged order (market-order protection, guardrails, the exchange's rules, the kill switch, the jData, the event).
 *
 * No silent overwrite: an `If-Match` that is not the order's version, or an order that changed between this read
 * and a second read made right before sending (the send step calls the returned `beforeSend` inside the idempotent step, so an
 * idempotent replay is answered without either), is `412 ORDER_CHANGED` naming the fields, and nothing is sent.
 * The window left is the broker's own: between that second read and the modify reaching it (the broker has no
 * conditional modify).
 */
import { type BrokerCallDeps, callBroker } from '../../base/broker/call-broker.js';
import { isOrderVersion, versionOfIfMatch } from '../../base/broker/order-version.js';
import { capText } from '../../base/contract/bounded.js';
import { GatewayError, OrderChangedError, ValidationFailedError } from '../../base/contract/errors.js';
import type { AnyOperation } from '../../base/contract/operation.js';
import { describeIssues, validationFailed } from '../../base/contract/validate-input.js';
import type { ParsedRequest } from './order-checks.js';

type PatchSpec = NonNullable<AnyOperation['patch']>;

const changedError = (alId: string, fields: readonly string[], how: 'If-Match' | 'read') =>
  new OrderChangedError(
    how === 'If-Match'
      ? `GTT order ${alId} is no longer at the version If-Match names (${fields.join(', ')} changed); read it again (GET /gtt-orders/${alId}: its ETag) and decide; nothing was sent.`
      : `GTT order ${alId} changed while this change was being prepared (${fields.join(', ')}); read it again and decide; nothing was sent.`,
    {
      details: fields.map((field) => ({ field, message: 'changed at the broker' })),
      outcome: 'not_executed',
    },
  );

/** The modify of the merged order: what is checked and sent, what a key stands for, and the check before sending. */
export interface PatchedOrder {
  /** The pending order with the caller's changes laid over it, checked with the modify's own schema. */
  input: unknown;
  /** The caller's changes (and If-Match): what an idempotency key stands for. */
  idempotencyInput: unknown;
  /**
   * The checks made right before sending (If-Match, the order read again), inside the idempotent step: resolves to
   * the order as read then (its stamp is recorded before the send: order-stamp.ts).
   */
  beforeSend: () => Promise<unknown>;
}

export const orderPatch = async (
  patch: PatchSpec,
  parsed: ParsedRequest,
  deps: BrokerCallDeps,
): Promise<PatchedOrder> => {
  const { al_id: alId, ...changes } = parsed.input as Record<string, unknown> & { al_id: string };
  const read = async (): Promise<unknown> => (await callBroker(patch.read, { al_id: alId }, deps)).result;
  const ifMatch = parsed.request.options.ifMatch;
  const asked = ifMatch === undefined ? undefined : versionOfIfMatch(ifMatch);
  // Not a version this gateway gave: said as such, not as a change at the broker (nothing is read or sent).
  if (asked !== undefined && asked !== '*' && !isOrderVersion(asked))
    throw new ValidationFailedError(
      `If-Match ${capText(JSON.stringify(ifMatch), 80)} is not a valid ETag: send the ETag of GET /gtt-orders/${alId} as it came (a quoted "s.…" or "o.…"), or * for any version; nothing was sent.`,
      { details: [{ field: 'If-Match', message: 'not a valid ETag' }] },
    );

  const record = await read();
  const other = patch.otherKind?.(record);
  if (other !== undefined) {
    throw new ValidationFailedError(`${other}. Nothing was sent.`, {
      details: [{ field: 'al_id', message: other }],
      outcome: 'not_executed',
    });
  }
  const version = patch.version(record);
  const merged = patch.full.safeParse(patch.merge(record, changes));
  if (!merged.success) {
    const error = validationFailed(
      describeIssues(merged.error.issues),
      `The order with these changes is not a valid order (the others as the broker holds them)`,
    );
    error.outcome = 'not_executed';
    throw error;
  }
  const stale = asked === undefined || asked === '*' ? [] : patch.changed(asked, record);
  return {
    input: merged.data,
    // The caller's changes (and If-Match) are what an idempotency key stands for; the merged order is what is sent.
    idempotencyInput: { ...(parsed.input as object), ifMatch },
    beforeSend: async () => {
      if (stale.length) throw changedError(alId, stale, 'If-Match');
      let now: unknown;
      try {
        now = await read();
      } catch (error) {
        // A read: nothing was written (ORDER_NOT_FOUND: it fired or was cancelled meanwhile).
        if (error instanceof GatewayError) error.outcome = 'not_executed';
        throw error;
      }
      const changed = patch.changed(version, now);
      if (changed.length) throw changedError(alId, changed, 'read');
      return now;
    },
  };
};
