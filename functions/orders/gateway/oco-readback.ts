/**
 * An OCO read back right after the broker took it (an entry with `readBack`; docs/explanation/order-safety.md, "An
 * OCO read back"): its record is read from the pending list by its al_id (the one-order read entry) and each leg is
 * compared with what was sent (base/broker/oco-legs.ts).
 *
 * - Every field as sent: the reply says `verified: true`.
 * - A field held otherwise (the x/y legs mapped the other way round, a quantity or price changed): the order is
 *   cancelled at once through the order core's cancel (journaled under a key of its own derived from the place's,
 *   its lease, permit and `GTT Cancelled` event as any cancel's), the place's own `GTT Placed` event is queued (the
 *   record does not carry it: the place's answer is this refusal), and the caller gets OCO_LEGS_MISMATCH naming
 *   what was asked and what is held: `undone` when the cancel went through, `executed` (STILL LIVE, cancel it by
 *   hand) when it failed. The journal keeps that answer for the key: a retry replays it, never places or cancels again.
 * - The read failed, or found no such order (it fired at once, or the list is not yet up to date), or the record
 *   leaves a field out: nothing is cancelled blindly; the reply says `verified: false` and why.
 */
import { callBroker } from '../../base/broker/call-broker.js';
import { describeDifferences } from '../../base/broker/oco-legs.js';
import { OcoLegsMismatchError, toGatewayError } from '../../base/contract/errors.js';
import { writeLog } from '../../base/runtime/logger.js';
import { md5 } from '../journal-entry.js';
import { brokerDeps } from './broker-deps.js';
import { queueEvents } from './order-events.js';
import type { Sent, Write } from './order-send.js';

/** The order core of the cancel entry, as the read-back calls it (a direct payload, the deadline). */
export type CancelCore = (event: Record<string, unknown>, deadline: number) => Promise<unknown>;

/** The cancel's own idempotency key, from the place's: one cancel per place, however often the place is retried. */
export const cancelKeyOf = (placeKey: string): string => {
  const key = `oco-legs.${placeKey}`;
  return key.length <= 128 ? key : `oco-legs.${md5(placeKey)}`;
};

const verifiedAs = (sent: Sent, verified: boolean, reason?: string): Sent => ({
  ...sent,
  result: { ...(sent.result as object), verified, ...(reason === undefined ? {} : { unverified: reason }) },
});

/** The sent OCO, verified against the broker's record; or OCO_LEGS_MISMATCH once it was cancelled (or not). */
export const readBackLegs = async (
  write: Write,
  sent: Sent,
  cancel: CancelCore | undefined,
  placeKey: string | undefined,
): Promise<Sent> => {
  const spec = write.operation.readBack;
  if (!spec) return sent;
  const alId = String((sent.result as { al_id?: unknown }).al_id);
  let record: unknown;
  try {
    record = (await callBroker(spec.read, { al_id: alId }, brokerDeps(write.config, write.session, write.deadline)))
      .result;
  } catch (thrown) {
    const error = toGatewayError(thrown);
    const reason =
      error.code === 'ORDER_NOT_FOUND'
        ? `al_id ${alId} was not in the broker's pending list right after it was placed (it may have fired at once, or the list was not yet up to date): its legs were not compared; check it (GET /gtt-orders/${alId}, GET /gtt-orders/triggered)`
        : `the broker's pending list could not be read right after the place (${error.code}): its legs were not compared; check it (GET /gtt-orders/${alId})`;
    writeLog(write.logger, 'warn', 'OCO legs not verified after place', { al_id: alId, code: error.code });
    return verifiedAs(sent, false, reason);
  }
  const { differences, unchecked } = spec.compare(write.input, record);
  if (differences.length === 0)
    return unchecked.length === 0
      ? verifiedAs(sent, true)
      : verifiedAs(
          sent,
          false,
          `the broker's record of al_id ${alId} does not show ${unchecked.join(', ')}: those were not compared (the others are as asked)`,
        );

  // Held otherwise than asked: off at once, through the order core's cancel.
  let failure: string | undefined;
  try {
    if (!cancel) throw new Error('no cancel was configured for this entry');
    await cancel(
      { al_id: alId, ...(placeKey === undefined ? {} : { idempotencyKey: cancelKeyOf(placeKey) }) },
      write.deadline,
    );
  } catch (thrown) {
    const error = toGatewayError(thrown);
    failure = `${error.code}: ${error.message}`;
  }
  const said = describeDifferences(differences);
  writeLog(write.logger, 'error', 'OCO held otherwise than asked', {
    al_id: alId,
    differences,
    cancelled: failure === undefined,
    ...(failure ? { failure } : {}),
    metric: 'OcoLegsMismatch',
  });
  // Its placement is said too: the record's answer is the refusal below, which carries no event.
  if (write.producer && sent.events.length)
    await queueEvents(write.operation, write.producer, sent.events, write.deadline - Date.now(), write.logger);
  throw new OcoLegsMismatchError(
    failure === undefined
      ? `The broker took this OCO (al_id ${alId}) but holds its legs otherwise than asked: ${said}. It was cancelled at once; nothing of it is live. This broker may pair the OCO's legs (x/y) otherwise than this gateway sends them: do not rely on its OCOs until that is understood.`
      : `The broker took this OCO (al_id ${alId}) but holds its legs otherwise than asked: ${said}. Cancelling it failed (${failure}): it is STILL LIVE at the broker and must be cancelled by hand now: DELETE /gtt-orders/${alId} (npm run gtt -- cancel ${alId}).`,
    {
      outcome: failure === undefined ? 'undone' : 'executed',
      details: { al_id: alId, cancelled: failure === undefined, differences },
    },
  );
};
