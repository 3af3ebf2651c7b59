/**
 * A change's view of the stamp its order carries (docs/explanation/order-safety.md, "A stamp across changes"). A modify or PATCH
 * sends its own remarks, so the stamp of the write that made (or last changed) the order leaves the broker with it.
 * Right before the change is sent (its lease held, so no other change of the order runs meanwhile), the order is
 * read and the stamp it carries is recorded in the journal (orders/moves.ts): that write's settlement then finds
 * the order even though the books no longer show its stamp, and never sends it again.
 *
 * A PATCH has that read already (its second read, order-patch.ts); a PUT (modify) reads the order here: one more
 * read of the broker's pending list before it is sent. A cancel does not read (its order leaves the lists anyway).
 */
import { type BrokerCallDeps, callBroker } from '../../base/broker/call-broker.js';
import { splitRemarks } from '../../base/broker/order-stamps.js';
import { GatewayError } from '../../base/contract/errors.js';
import type { AnyOperation } from '../../base/contract/operation.js';
import type { OrderJournal } from '../journal.js';
import { getGttOrder } from '../operations.js';

/** The changes that send remarks of their own (and so replace the stamp an order carries). */
const REPLACE_REMARKS = new Set(['ModifyGTTOrder', 'ModifyOCOOrder']);

/**
 * The read right before a modify is sent: the order as the broker holds it (ORDER_NOT_FOUND when it fired or was
 * cancelled meanwhile; nothing is sent). Undefined for what needs none: a PATCH (it reads anyway), anything but a
 * modify, a dry run, or a deployment without the journal (nowhere to record the stamp).
 */
export const readBeforeChange = (
  operation: AnyOperation,
  input: unknown,
  deps: BrokerCallDeps,
  journal: OrderJournal | undefined,
  dryRun: boolean | undefined,
): (() => Promise<unknown>) | undefined => {
  const alId = (input as { al_id?: unknown }).al_id;
  if (operation.patch || !REPLACE_REMARKS.has(operation.broker) || dryRun || !journal || typeof alId !== 'string')
    return undefined;
  return async () => {
    try {
      return (await callBroker(getGttOrder, { al_id: alId }, deps)).result;
    } catch (error) {
      // A read: nothing was written.
      if (error instanceof GatewayError) error.outcome = 'not_executed';
      throw error;
    }
  };
};

/**
 * Records the stamp `order` (as read right before sending a change of it) carries, when it is another write's than
 * the change's own (`stamp`, undefined for an unkeyed change): before the change is sent, so a failure here sends
 * nothing (the journal's store is unavailable: `not_executed`).
 */
export const recordCarriedStamp = async (
  operation: AnyOperation,
  journal: OrderJournal | undefined,
  order: unknown,
  stamp: string | undefined,
): Promise<void> => {
  if (!journal || !REPLACE_REMARKS.has(operation.broker) || typeof order !== 'object' || order === null) return;
  const { al_id: alId, remarks } = order as { al_id?: unknown; remarks?: unknown };
  const carried = splitRemarks(typeof remarks === 'string' ? remarks : undefined).stamp;
  if (typeof alId === 'string' && carried !== undefined && carried !== stamp)
    await journal.recordMove(carried, alId, stamp);
};
