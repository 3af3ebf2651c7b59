/**
 * A keyed write whose earlier attempt's outcome is unknown, settled by the broker's books (orders/books.ts) when the
 * journal asks (`adopt`): found by its stamp in the pending list, the triggered history or the order book, or by the
 * record of a later change that replaced its stamp (orders/moves.ts), it happened and is adopted (its lifecycle
 * events built, the lease its first attempt kept taken over to be given back with this reply); swept by the kill
 * switch since, it happened and is undone (TRADING_HALTED, `undone`); not found, the journal decides (never sent
 * again while it may still land).
 */
import { TradingHaltedError } from '../../base/contract/errors.js';
import { findWrite } from '../books.js';
import type { OrderJournal } from '../journal.js';
import { brokerDeps } from './broker-deps.js';
import type { AskedLease } from './order-holds.js';
import { eventsOf, type Sent, withConversion, type Write } from './order-send.js';

export const adoptWrite = async (
  write: Write,
  journal: OrderJournal,
  key: string,
  stamp: string,
  lease: AskedLease | undefined,
): Promise<Sent | undefined> => {
  let goneChecked = false;
  const notGone = async () => {
    goneChecked = true;
    const gone = await journal.goneOrder(stamp);
    if (gone)
      throw new TradingHaltedError(
        `The first attempt with idempotency key "${key}" reached the broker (al_id ${gone}) and the kill switch's sweep cancelled it since; nothing was sent again. Send it with a new key to place it again.`,
        { outcome: 'undone', details: { al_id: gone, cancelled: true } },
      );
  };
  // Reads: the invocation's time, as any read's (the write's own bound is what the journal records).
  const deps = brokerDeps(write.config, write.session, write.deadline);
  // Not in the lists: swept by the kill switch (undone), or its stamp replaced by a later change (moves.ts).
  const found = await findWrite(write.operation, write.input, stamp, deps, {
    moved: async (s) => {
      if (s === stamp) await notGone();
      return journal.findMove(s);
    },
    seen: (by) => journal.findSeen(by),
  });
  if (!found && !goneChecked) await notGone();
  if (!found) return undefined;
  // Settled: the lease its first attempt kept is taken over, to be given back with this reply (unless another
  // change took it since: then that one keeps it).
  await lease?.hold().catch(() => undefined);
  const result = withConversion(write.converted, found);
  return { result, events: await eventsOf(write, result) };
};
