/**
 * A journaled write whose outcome is unknown is settled by reading the broker's books (journal.ts, `adopt`). When
 * that read fails (the broker's rate limit, an HTTP 5xx, a lost connection, the journal's own record of cancelled
 * orders unreadable), the write's outcome is still unknown, and the answer says so: `outcome: "unknown"`, the code
 * the first attempt was answered with (502 BROKER_UNAVAILABLE for one whose sender stopped before recording it),
 * that the order may be live at the broker, and when to retry. Never the read's own error: a read has no outcome,
 * and the broker's rate limit on it says "not executed" of the read, not of the write.
 *
 * What the books decide is passed on as it is: an order overtaken by a later change (ORDER_CHANGED, nothing sent)
 * and one the kill switch cancelled since (outcome `undone`).
 */
import {
  type ErrorBody,
  errorFromBody,
  type GatewayError,
  retryAfterSeconds,
  toGatewayError,
} from '../base/contract/errors.js';
import type { Entry } from './journal-entry.js';

/** The answer to a retry of `key` whose read of the books failed with `error`. */
const stillUnknown = (key: string, entry: Entry, error: GatewayError): GatewayError => {
  const first = entry.data?.kind === 'unknown' ? entry.data.error : undefined;
  const after = retryAfterSeconds(error.details);
  const body: ErrorBody = {
    code: first?.code ?? 'BROKER_UNAVAILABLE',
    message:
      `Retry of idempotency key "${key}": the first attempt's outcome is still unknown: the broker's books could not ` +
      `be read to settle it (${error.code}), so its order may be live at the broker. Retry with this key after ${after} s ` +
      `(it is then found in the books, or sent once more only once it can no longer land, after ` +
      `${new Date(entry.landBy).toISOString()}); check the pending orders (GET /gtt-orders) before sending it with a new key.`,
    details: { retryAfterSeconds: after, booksRead: error.code },
    ...(error.brokerMessage === undefined ? {} : { brokerMessage: error.brokerMessage }),
    outcome: 'unknown',
  };
  return errorFromBody(body);
};

/** `adopt`'s answer; a failure to read the books is the unknown said again (module comment). */
export const readBooks = async <T>(key: string, entry: Entry, adopt: () => Promise<T>): Promise<T> => {
  try {
    return await adopt();
  } catch (thrown) {
    const error = toGatewayError(thrown);
    const decided = error.outcome === 'undone' || (error.code === 'ORDER_CHANGED' && error.outcome === 'not_executed');
    throw decided ? error : stillUnknown(key, entry, error);
  }
};
